/// The one rule for pack, topic, counter and plugin ids: lowercase ASCII letters, digits and
/// '-', starting with a letter. Ids appear in file names, command lines and `pack.topic` ids,
/// so they stay plain.
package enum Identifier {
  package static let rule = "lowercase letters, digits and '-', starting with a letter"

  package static func isValid(_ id: String) -> Bool {
    id.first.map { $0.isASCII && $0.isLowercase } == true
      && id.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
  }
}
