/// What reading the client's input yields for the message loop, in arrival order.
package enum InboxEntry: Equatable, Sendable {
  case message(IncomingMessage)
  /// A request the client cancelled while it was still waiting here: answer -32800.
  case cancelled(RequestID)
  /// A request about a document the client changed after sending it, while it was still
  /// waiting here: its answer would be about text that is gone, so it is answered -32801
  /// (LSP's ContentModified) instead.
  case contentModified(RequestID)
  /// The client closed its end; `truncated` when it did so in the middle of a message.
  case end(truncated: Bool)
}

/// Messages read but not yet handled. A `$/cancelRequest` for a request still waiting here
/// takes that request's place, so it is answered as cancelled without being run; any other goes
/// on to the server, which cancels the request if its work is still running off the loop. A
/// `textDocument/didChange` makes the requests about that document still waiting here
/// ContentModified, as rust-analyzer answers them; a diagnostic pull is the exception, as it is
/// answered for the newest text anyway.
package struct MessageQueue: Sendable {
  private var entries: [InboxEntry] = []

  package init() {}

  var isEmpty: Bool { entries.isEmpty }

  package mutating func push(_ entry: consuming InboxEntry) {
    // Asked once: nearly everything pushed is a request, which takes neither branch.
    guard case .message(.notification(let method, let params)) = entry else {
      entries.append(entry)
      return
    }
    if method == "$/cancelRequest" {
      let id = RequestID(params?["id"])
      let waiting = entries.firstIndex { entry in
        if case .message(.request(let queued, _, _)) = entry { queued == id } else { false }
      }
      if let id, let waiting {
        entries[waiting] = .cancelled(id)
        return
      }
      // Not waiting here: the request may be one whose work runs off the loop.
    }
    if method == "textDocument/didChange", let uri = params?["textDocument"]?["uri"]?.stringValue {
      for index in entries.indices {
        guard case .message(.request(let id, let method, let params)) = entries[index],
          method.hasPrefix("textDocument/"), method != "textDocument/diagnostic",
          params?["textDocument"]?["uri"]?.stringValue == uri
        else { continue }
        entries[index] = .contentModified(id)
      }
    }
    entries.append(entry)
  }

  /// Everything waiting, oldest first.
  package mutating func takeAll() -> [InboxEntry] {
    // Handed over, not copied: emptying a buffer the caller still holds would allocate another.
    var taken: [InboxEntry] = []
    swap(&taken, &entries)
    return taken
  }

  /// Moves everything waiting, oldest first, to the end of `taken`; the queue keeps its room,
  /// so a loop that reads and takes again and again allocates neither.
  mutating func takeAll(into taken: inout [InboxEntry]) {
    // Into an empty inbox the two swap their buffers: nothing is copied or released, and
    // each keeps room for the next read.
    if taken.isEmpty {
      swap(&taken, &entries)
      return
    }
    taken.append(contentsOf: entries)
    entries.empty()
  }

  /// The inbox entries for what the framer made of the bytes read.
  package static func entries(for events: [MessageFramer.Event], maximumBody: Int) -> [InboxEntry] {
    events.map { entry(for: $0, maximumBody: maximumBody) }
  }

  /// The inbox entry for one thing the framer made of the bytes read.
  static func entry(for event: MessageFramer.Event, maximumBody: Int) -> InboxEntry {
    switch event {
    case .message(let body):
      return .message(IncomingMessage.parse(body))
    case .malformedHeader(let reason):
      return .message(
        .invalid(
          id: nil, error: ResponseError(code: ResponseError.invalidRequest, message: "malformed header: \(reason)")))
    case .oversized(let length):
      return .message(
        .invalid(
          id: nil,
          error: ResponseError(
            code: ResponseError.invalidRequest,
            message: "a message of \(length) bytes is over the limit of \(maximumBody) bytes; it was skipped")))
    }
  }
}
