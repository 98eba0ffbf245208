import BikiJSON
import BikiProtocol
import FuzzDriver

/// Any bytes from a client, fed to the framer in pieces the input chooses: framing and
/// message parsing never trap, and every message parsed is a request, a notification or an
/// error the server can answer.
@main enum Target {
  static func main() { runFuzzer(fuzzProtocol) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = bytes(data, size)
  guard let first = bytes.first else { return 0 }
  // The first byte sets the chunk size and a small body limit, so oversized bodies are reached.
  var framer = MessageFramer(maximumBody: 64 + Int(first) * 16)
  let chunk = 1 + Int(first % 17)
  var index = 1
  while index < bytes.count {
    let end = min(bytes.count, index + chunk)
    for event in framer.feed(bytes[index..<end]) {
      if case .message(let body) = event { _ = IncomingMessage.parse(body) }
    }
    index = end
  }
  // And the whole input as one message body.
  _ = IncomingMessage.parse(Array(bytes.dropFirst()))
  return 0
}
