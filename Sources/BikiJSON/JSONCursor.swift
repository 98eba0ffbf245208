/// Where a cursor is in JSON text that may be unfinished (an editor's buffer mid-edit): the path
/// of keys and array elements down to it, and whether a key or a value is being typed there.
/// One forward scan up to the cursor, so it costs the same on broken text as on valid text, and
/// its stack is an array: nesting depth cannot overflow anything.
package struct JSONCursor: Equatable, Sendable {
  package enum Step: Equatable, Sendable {
    case key(String)
    case element
  }

  package enum Slot: Equatable, Sendable {
    /// A key of the innermost object is expected (or being typed).
    case key
    /// A value is expected for this key of the innermost object, or as an element of the
    /// innermost array (then `key` is nil and the path ends in `.element`).
    case value(key: String?)
  }

  /// Where the thing being typed goes: for a key, the path of its object; for a value, the path
  /// of the value itself (ending in its key, or in `.element` inside an array).
  package var path: [Step]
  package var slot: Slot
  /// When the cursor is inside a string: the byte offset just after its opening quote, and
  /// what was typed between it and the cursor.
  package var stringStart: Int?
  package var typed: String
  /// The keys the innermost object already has, before the cursor and after it (up to where
  /// the object closes), but not the one being typed.
  package var siblingKeys: [String]

  /// The context at byte `offset` of `text`; nil when the cursor is not inside any object or
  /// array (before the root, or after it closed).
  package static func at(_ offset: Int, in text: [UInt8]) -> JSONCursor? {
    struct Frame {
      var isObject: Bool
      /// The key whose value is being read (objects), after its colon.
      var key: String?
      /// The last string read where a key was expected, until its colon.
      var pendingKey: String?
      var expectingKey: Bool
      /// Keys already given in this object.
      var keys: [String] = []
    }
    var stack: [Frame] = []
    var index = 0
    let end = min(offset, text.count)
    while index < end {
      let byte = text[index]
      switch byte {
      case UInt8(ascii: "{"):
        stack.append(Frame(isObject: true, expectingKey: true))
      case UInt8(ascii: "["):
        stack.append(Frame(isObject: false, expectingKey: false))
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if !stack.isEmpty { stack.removeLast() }
      case UInt8(ascii: ":"):
        if var top = stack.last, top.isObject {
          top.key = top.pendingKey
          if let key = top.pendingKey { top.keys.append(key) }
          top.pendingKey = nil
          top.expectingKey = false
          stack[stack.count - 1] = top
        }
      case UInt8(ascii: ","):
        if var top = stack.last, top.isObject {
          top.key = nil
          top.pendingKey = nil
          top.expectingKey = true
          stack[stack.count - 1] = top
        }
      case UInt8(ascii: "\""):
        // A string: read to its closing quote, or to the cursor if it is inside.
        var cursor = index + 1
        var bytes: [UInt8] = []
        var closed = false
        while cursor < end {
          let character = text[cursor]
          if character == UInt8(ascii: "\\") {
            if cursor + 1 < end { bytes.append(text[cursor + 1]) }
            cursor += 2
            continue
          }
          if character == UInt8(ascii: "\"") {
            closed = true
            break
          }
          if character == 0x0A || character == 0x0D { break }  // a string never spans lines: the quote was left open
          bytes.append(character)
          cursor += 1
        }
        if !closed && cursor >= end {
          return context(stack, stringStart: index + 1, typed: String(decoding: bytes, as: UTF8.self))
        }
        if closed, var top = stack.last, top.isObject, top.expectingKey {
          top.pendingKey = String(decoding: bytes, as: UTF8.self)
          stack[stack.count - 1] = top
        }
        index = closed ? cursor : cursor - 1
      default:
        break
      }
      index += 1
    }
    return context(stack, stringStart: nil, typed: "")

    func context(_ stack: [Frame], stringStart: Int?, typed: String) -> JSONCursor? {
      guard let top = stack.last else { return nil }
      var path: [Step] = []
      for frame in stack.dropLast() {
        if frame.isObject {
          guard let key = frame.key else { return nil }
          path.append(.key(key))
        } else {
          path.append(.element)
        }
      }
      let slot: Slot
      if top.isObject {
        slot = top.expectingKey ? .key : .value(key: top.key)
        if !top.expectingKey, let key = top.key { path.append(.key(key)) }
      } else {
        slot = .value(key: nil)
        path.append(.element)
      }
      let after = top.isObject ? keysAfter(stringStart.map { skipString(from: $0, in: text) } ?? end, in: text) : []
      return JSONCursor(
        path: path, slot: slot, stringStart: stringStart, typed: typed,
        siblingKeys: top.isObject ? top.keys + after : [])
    }
  }

  /// The offset just past the string whose contents start at `start` (after its opening quote),
  /// or the end of its line when it is left open.
  private static func skipString(from start: Int, in text: [UInt8]) -> Int {
    var index = start
    while index < text.count {
      switch text[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      case 0x0A, 0x0D: return index
      default: index += 1
      }
    }
    return text.count
  }

  /// The keys of the object the scan is in, from `start` to the bracket that closes it: a string
  /// at the object's own level followed by a colon. Nested objects and arrays are skipped.
  private static func keysAfter(_ start: Int, in text: [UInt8]) -> [String] {
    var keys: [String] = []
    var depth = 0
    var pending: String?
    var index = start
    while index < text.count {
      let byte = text[index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 { return keys }
        depth -= 1
      case UInt8(ascii: ":"):
        if depth == 0, let key = pending { keys.append(key) }
        pending = nil
      case UInt8(ascii: "\""):
        let close = skipString(from: index + 1, in: text)
        let closed =
          close > index + 1 && close <= text.count && text[close - 1] == UInt8(ascii: "\"") && close - 1 > index
        if depth == 0, closed { pending = String(decoding: text[(index + 1)..<(close - 1)], as: UTF8.self) }
        index = close
        continue
      case UInt8(ascii: " "), 0x09, 0x0A, 0x0D: break
      default: pending = nil
      }
      index += 1
    }
    return keys
  }
}
