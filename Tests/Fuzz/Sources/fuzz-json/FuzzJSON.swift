import FuzzDriver
import BikiJSON

/// Any bytes: the parser returns a tree or a positioned error, never traps, and a tree's
/// positions lie within the input.
@main enum Target {
  static func main() { runFuzzer(fuzzJSON) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = bytes(data, size)
  do {
    let node = try JSONParser.parse(bytes)
    precondition(node.range.end.offset <= bytes.count, "a node ends past the input")
  } catch {
    precondition(error.position.offset <= bytes.count, "an error points past the input")
  }
  return 0
}
