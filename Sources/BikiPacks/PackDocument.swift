import BikiJSON

/// Whether an editor's document is a pack, decided from its text each time it changes. A
/// generic client sends every JSON file it opens (and Emacs 28's eglot every `.js` buffer);
/// `package.json` must not get pack errors, and a new file becomes a pack as soon as it says so.
package enum PackDocument {
  /// What the schema is called wherever a pack names it in `"$schema"`.
  static let schemaName = "biki-pack.schema.json"

  /// A pack says so: its top-level object names Biki's schema in `"$schema"`, or has both
  /// `"format"` and `"topics"`. Text that is not (yet) valid JSON counts when it mentions the
  /// schema, or both keys. A file in a pack directory is a pack whatever it holds, as the
  /// loader treats it.
  package static func isPack(_ text: [UInt8], inPackDirectory: Bool) -> Bool {
    if inPackDirectory { return true }
    guard let root = try? JSONParser.parse(text) else {
      return contains(text, schemaName) || (contains(text, "\"format\"") && contains(text, "\"topics\""))
    }
    guard root.members != nil else { return false }
    if let schema = root["$schema"]?.value.stringValue, schema.hasSuffix(schemaName) { return true }
    return root["format"] != nil && root["topics"] != nil
  }

  private static func contains(_ text: [UInt8], _ word: String) -> Bool {
    let needle = Array(word.utf8)
    guard let first = needle.first, needle.count <= text.count else { return false }
    var index = 0
    while index + needle.count <= text.count {
      if text[index] == first, text[index..<(index + needle.count)].elementsEqual(needle) { return true }
      index += 1
    }
    return false
  }
}
