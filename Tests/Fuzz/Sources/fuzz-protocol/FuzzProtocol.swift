import BikiJSON
import BikiProtocol
import FuzzDriver

/// Any bytes from a client, fed to the framer in pieces the input chooses: framing and
/// message parsing never trap, every message parsed is a request, a notification or an
/// error the server can answer, and the framer finds the same events as when it is fed the
/// bytes at once.
@main enum Target {
  static func main() { runFuzzer(fuzzProtocol) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = bytes(data, size)
  guard let first = bytes.first else { return 0 }
  // The first byte sets the chunk size and a small body limit, so oversized bodies are reached.
  var framer = MessageFramer(maximumBody: 64 + Int(first) * 16)
  var whole = framer
  let chunk = 1 + Int(first % 17)
  var index = 1
  var events: [MessageFramer.Event] = []
  while index < bytes.count {
    let end = min(bytes.count, index + chunk)
    for event in framer.feed(bytes[index..<end]) {
      if case .message(let body) = event { _ = IncomingMessage.parse(body) }
      events.append(event)
    }
    index = end
  }
  if whole.feed(bytes.dropFirst()) != events { fatalError("the framer's events depend on how the bytes are split") }
  // And the whole input as one message body.
  _ = IncomingMessage.parse(Array(bytes.dropFirst()))
  return 0
}
