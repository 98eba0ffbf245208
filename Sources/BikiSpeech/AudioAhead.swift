import Foundation

/// Audio made ahead, one utterance at a time, in a queue that stays small: each owner (a
/// session) has at most `perOwner` utterances waiting (its current question and the next), all
/// owners together at most `limit`, the oldest given up first. Audio made ahead only saves
/// waiting: what is given up is made when it is asked for. An owner's work is dropped, and its
/// running program stopped, when it is cancelled; all of it when the queue is stopped.
package final class AudioAhead: @unchecked Sendable {
  package typealias Work = @Sendable (Cancellation) -> Result<String, SpeechFailure>

  private struct Job {
    var owner: String
    /// The audio file's path: the same utterance in the same voice and style is made once.
    var key: String
    var cancellation = Cancellation()
    var work: Work
  }

  package let perOwner: Int
  package let limit: Int
  // Everything below is guarded by `condition`.
  private let condition = NSCondition()
  private var waiting: [Job] = []
  private var running: Job?
  private var made: [String: Result<String, SpeechFailure>] = [:]
  private var stopped = false
  private var workerStarted = false

  /// At most this many results are kept in memory (a server may run for days); the files stay.
  static let resultsKept = 256

  package init(perOwner: Int = 2, limit: Int = 16) {
    self.perOwner = max(perOwner, 1)
    self.limit = max(limit, 1)
  }

  /// Queues `work` for `owner` unless its audio is made, in the making or waiting.
  package func add(owner: String, key: String, work: @escaping Work) {
    condition.withLock {
      guard !stopped, made[key] == nil, running?.key != key, !waiting.contains(where: { $0.key == key }) else {
        return
      }
      waiting.append(Job(owner: owner, key: key, work: work))
      let owned = waiting.indices.filter { waiting[$0].owner == owner }
      if owned.count > perOwner { waiting.remove(at: owned[0]) }
      if waiting.count > limit { waiting.removeFirst(waiting.count - limit) }
      if !workerStarted {
        workerStarted = true
        Thread.detachNewThread { [self] in makeInTurn() }
      }
      condition.broadcast()
    }
  }

  /// What is waiting and running, for tests and the log.
  package var counts: (waiting: Int, running: Int) {
    condition.withLock { (waiting.count, running == nil ? 0 : 1) }
  }

  /// Drops `owner`'s waiting work and stops its running program.
  package func cancel(owner: String) {
    condition.withLock {
      waiting.removeAll { $0.owner == owner }
      if running?.owner == owner { running?.cancellation.cancel() }
    }
  }

  /// Drops everything, stops what runs and waits for it to end; nothing is made after.
  package func stop() {
    condition.withLock {
      stopped = true
      waiting.removeAll()
      running?.cancellation.cancel()
      condition.broadcast()
      while running != nil { condition.wait() }
    }
  }

  /// The audio made for `key`, waiting for it while it is being made. Nil when it is not made
  /// (work still waiting is taken out of the queue: the caller makes it now).
  package func take(_ key: String) -> Result<String, SpeechFailure>? {
    condition.withLock {
      waiting.removeAll { $0.key == key }
      while running?.key == key { condition.wait() }
      return made[key]
    }
  }

  /// Keeps a result made elsewhere, so it is not made again.
  package func remember(_ result: Result<String, SpeechFailure>, for key: String) {
    condition.withLock { keep(result, for: key) }
  }

  private func keep(_ result: Result<String, SpeechFailure>, for key: String) {
    if made.count >= Self.resultsKept { made.removeAll(keepingCapacity: true) }
    made[key] = result
  }

  private func makeInTurn() {
    while let job = next() {
      let result = job.work(job.cancellation)
      condition.withLock {
        // A cancelled job's failure says only that it was stopped: it is not kept.
        if !job.cancellation.isCancelled { keep(result, for: job.key) }
        running = nil
        condition.broadcast()
      }
    }
  }

  /// The next job, marked running; nil once the queue is stopped.
  private func next() -> Job? {
    condition.withLock {
      while waiting.isEmpty && !stopped { condition.wait() }
      guard !stopped else { return nil }
      let job = waiting.removeFirst()
      running = job
      return job
    }
  }
}
