/// The frames a worker has sent, read from its output in pieces as large as have arrived. A
/// batch is answered one frame per question; reading each frame's length and body apart would
/// cost two waits and two reads per question, where one read usually takes in many.
struct WorkerFrames {
  enum Next: Equatable {
    /// A frame's body, where it arrived: read it before asking for the next frame, which may
    /// move or overwrite it.
    case frame(ArraySlice<UInt8>)
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
  mutating func next(from process: WorkerProcess, deadline: Double, gathering: Bool = false) -> Next {
    while true {
      let available = buffer.count - start
      if available >= 4 {
        let length =
          Int(buffer[start]) | Int(buffer[start + 1]) << 8 | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 24
        guard length <= WorkerProtocol.maximumFrame else { return .tooLarge(length) }
        if available - 4 >= length {
          let body = buffer[(start + 4)..<(start + 4 + length)]
          start += 4 + length
          return .frame(body)
        }
      }
      // What is left is part of one frame: moved to the front, so the buffer grows only to the
      // largest frame plus one read.
      if start == buffer.count {
        buffer.removeAll(keepingCapacity: true)
        start = 0
      } else if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      switch process.read(WorkerFrames.readSize, deadline, gathering) {
      case .bytes(let more): buffer += more
      case .closed: return .closed
      case .timedOut: return .timedOut
      }
    }
  }
}
