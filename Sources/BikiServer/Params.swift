import BikiJSON
import BikiProtocol

/// A request's params, read field by field; every problem is a -32602 naming the field by its
/// path (`mode.limit`), so a client author sees at once what to fix.
struct Params {
  let value: JSON?
  let path: String

  init(_ value: JSON?, path: String = "") {
    self.value = value
    self.path = path
  }

  private func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

  private func member(_ key: String) throws(ResponseError) -> JSON? {
    // Params are often the client's text, read member by member (`JSON.written`).
    switch value {
    // Lua clients (Neovim's among them) cannot tell an empty table from an empty list and
    // send `{}` as `[]`; nothing in it is lost by reading it as the object it was meant to be.
    case nil, .null?, .array([])?: return nil
    case let object? where object.isObject:
      guard let found = object[key] else { return nil }
      if case .null = found.unwrapped { return nil }
      return found
    case let other? where other.arrayValue?.isEmpty == true: return nil
    case let other?:
      throw .invalidParams("\(path.isEmpty ? "params" : path) must be an object, not \(other.kindDescription)")
    }
  }

  private func missing(_ key: String) -> ResponseError { .invalidParams("missing required field \"\(name(key))\"") }

  private func wrongKind(_ key: String, _ expected: String, _ found: JSON) -> ResponseError {
    .invalidParams("\"\(name(key))\" must be \(expected), not \(found.kindDescription)")
  }

  func optionalString(_ key: String) throws(ResponseError) -> String? {
    guard let found = try member(key) else { return nil }
    guard let text = found.stringValue else { throw wrongKind(key, "a string", found) }
    return text
  }

  func optionalArray(_ key: String) throws(ResponseError) -> [JSON]? {
    guard let found = try member(key) else { return nil }
    guard let items = found.arrayValue else { throw wrongKind(key, "a list", found) }
    return items
  }

  func optionalBool(_ key: String) throws(ResponseError) -> Bool? {
    guard let found = try member(key) else { return nil }
    guard let flag = found.boolValue else { throw wrongKind(key, "true or false", found) }
    return flag
  }

  func string(_ key: String) throws(ResponseError) -> String {
    guard let text = try optionalString(key) else { throw missing(key) }
    return text
  }

  func optionalInteger(_ key: String, in bounds: ClosedRange<Int64>? = nil) throws(ResponseError) -> Int64? {
    guard let found = try member(key) else { return nil }
    guard let number = found.integerValue else {
      let range = bounds.map { "from \($0.lowerBound) to \($0.upperBound)" } ?? "from -2^63 to 2^63−1"
      switch found.unwrapped {
      case .integer, .unsigned, .double:
        throw .invalidParams("\"\(name(key))\" must be a whole number \(range), not \(found.numberDescription)")
      default: throw wrongKind(key, "a whole number \(range)", found)
      }
    }
    if let bounds, !bounds.contains(number) {
      throw .invalidParams("\"\(name(key))\" must be from \(bounds.lowerBound) to \(bounds.upperBound), not \(number)")
    }
    return number
  }

  func integer(_ key: String, in bounds: ClosedRange<Int64>? = nil) throws(ResponseError) -> Int64 {
    guard let number = try optionalInteger(key, in: bounds) else { throw missing(key) }
    return number
  }

  func optionalNumber(_ key: String) throws(ResponseError) -> Double? {
    switch try member(key) {
    case nil: return nil
    case .integer(let number)?: return Double(number)
    case .double(let number)?: return number
    case let other?: throw wrongKind(key, "a number", other)
    }
  }

  /// A seed: a whole number from 0 to 2^64−1, as any JSON number that is one (4, 5.0, 1e3,
  /// 18446744073709551615) or, since many JSON libraries lose precision past 2^53, as a decimal
  /// string.
  func optionalSeed(_ key: String) throws(ResponseError) -> UInt64? {
    guard let found = try member(key) else { return nil }
    if let seed = found.unsignedValue { return seed }
    let range = "a whole number from 0 to 18446744073709551615 (2^64−1)"
    switch found.unwrapped {
    case .string(let text):
      guard let seed = UInt64(text) else {
        throw .invalidParams("\"\(name(key))\" must be \(range), not \"\(text.prefix(40))\"")
      }
      return seed
    case .integer, .unsigned, .double:
      throw .invalidParams("\"\(name(key))\" must be \(range), not \(found.numberDescription)")
    default: throw wrongKind(key, range + " (or one as a string)", found)
    }
  }

  func optionalObject(_ key: String) throws(ResponseError) -> Params? {
    guard let found = try member(key) else { return nil }
    guard found.isObject else { throw wrongKind(key, "an object", found) }
    return Params(found, path: name(key))
  }

  func object(_ key: String) throws(ResponseError) -> Params {
    guard let nested = try optionalObject(key) else { throw missing(key) }
    return nested
  }

  /// An object of whole numbers, such as topic parameters.
  func integerMap(_ key: String) throws(ResponseError) -> [String: Int64] {
    guard let nested = try optionalObject(key), let members = nested.value?.objectMembers else { return [:] }
    var values: [String: Int64] = [:]
    for member in members {
      guard let number = member.value.integerValue else {
        switch member.value.unwrapped {
        case .integer, .unsigned, .double:
          throw .invalidParams(
            "\"\(name(key)).\(member.key)\" must be a whole number from -2^63 to 2^63−1, not \(member.value.numberDescription)"
          )
        default: throw wrongKind(key + "." + member.key, "a whole number", member.value)
        }
      }
      values[member.key] = number
    }
    return values
  }

  /// One of a fixed set of strings.
  func optionalChoice<Choice: RawRepresentable>(_ key: String, among choices: [Choice]) throws(ResponseError) -> Choice?
  where Choice.RawValue == String {
    guard let text = try optionalString(key) else { return nil }
    guard let choice = Choice(rawValue: text) else {
      throw .invalidParams(
        "\"\(name(key))\" must be one of \(choices.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(text.prefix(40))\""
      )
    }
    return choice
  }
}
