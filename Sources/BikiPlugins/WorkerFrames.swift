/// The frames a worker has sent, read from its output in pieces as large as have arrived. A
/// batch is answered one frame per question; reading each frame's length and body apart would
/// cost two waits and two reads per question, where one read usually takes in many.
struct WorkerFrames {
  enum Next: Equatable {
    /// A frame's body.
    case frame([UInt8])
    case closed
    case timedOut
    /// The worker announced a frame larger than `WorkerProtocol.maximumFrame`.
    case tooLarge(Int)
  }

  /// Bytes read and not yet handed out, from `start` on.
  private var buffer: [UInt8] = []
  private var start = 0
  /// Enough for hundreds of questions in one read.
  static let readSize = 64 << 10

  /// The next frame, waiting for it until `deadline`.
  mutating func next(from process: WorkerProcess, deadline: Double) -> Next {
    while true {
      let available = buffer.count - start
      if available >= 4 {
        let length = Int(buffer[start]) | Int(buffer[start + 1]) << 8 | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 24
        guard length <= WorkerProtocol.maximumFrame else { return .tooLarge(length) }
        if available - 4 >= length {
          let body = Array(buffer[(start + 4)..<(start + 4 + length)])
          start += 4 + length
          if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
          }
          return .frame(body)
        }
      }
      // What is left is part of one frame: moved to the front, so the buffer grows only to the
      // largest frame plus one read.
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      switch process.read(WorkerFrames.readSize, deadline) {
      case .bytes(let more): buffer += more
      case .closed: return .closed
      case .timedOut: return .timedOut
      }
    }
  }
}
