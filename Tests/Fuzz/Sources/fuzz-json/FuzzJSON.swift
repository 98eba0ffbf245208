import BikiJSON
import FuzzDriver

/// Any bytes: the parser returns a tree or a positioned error, never traps, and a tree's
/// positions lie within the input. The value-only parse agrees with it: the same values, or
/// the same error at the same place.
@main enum Target {
  static func main() { runFuzzer(fuzzJSON) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = bytes(data, size)
  let bare = Result { () throws(JSONSyntaxError) in try JSONParser.value(bytes) }
  do {
    let node = try JSONParser.parse(bytes)
    precondition(node.range.end.offset <= bytes.count, "a node ends past the input")
    precondition((try? bare.get()) == JSON(node), "the value-only parse read another value")
  } catch {
    precondition(error.position.offset <= bytes.count, "an error points past the input")
    guard case .failure(let bareError) = bare else {
      preconditionFailure("the value-only parse accepted what the placed parse refused")
    }
    precondition(bareError == error, "the value-only parse failed elsewhere: \(bareError) against \(error)")
  }
  return 0
}
