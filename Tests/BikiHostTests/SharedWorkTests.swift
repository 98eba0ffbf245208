import BikiSync
import Foundation
import Testing

@testable import BikiHost

/// Work shared between threads that join when they are free: each item done once, the outputs
/// in the items' order, and a load assembled alike however the files were shared out.
@Suite struct SharedWorkTests {
  @Test func everyItemIsDoneOnceAndTheOutputsKeepTheirOrder() {
    let done = Locked<[Int]>([])
    let work = SharedWork(Array(0..<200)) { item -> Int in
      done.withLock { $0.append(item) }
      // Uneven items, so both threads take some.
      if item % 7 == 0 { usleep(200) }
      return item * item
    }
    let helper = Thread { work.help() }
    helper.start()
    #expect(work.finish() == (0..<200).map { $0 * $0 })
    #expect(done.withLock { $0.sorted() } == Array(0..<200))
  }

  /// An output wanted before the rest: done at once by the thread that wants it when nobody
  /// has begun it, waited for when another thread has; either way once, and kept for `finish`.
  @Test func anOutputWantedSoonerIsDoneOnceAndKept() {
    let done = Locked<[Int]>([])
    let begun = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let work = SharedWork(Array(0..<4)) { item -> Int in
      done.withLock { $0.append(item) }
      if item == 0 {
        begun.signal()
        release.wait()
      }
      return item * 10
    }
    // Nobody has begun item 2: this thread does it.
    #expect(work.output(at: 2) == 20)
    #expect(done.withLock { $0 } == [2])
    let helper = Thread { work.help() }
    helper.start()
    begun.wait()
    // Item 0 is begun by the helper and held there: asked for, it is waited for, not done again.
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { release.signal() }
    #expect(work.output(at: 0) == 0)
    #expect(work.finish() == [0, 10, 20, 30])
    #expect(done.withLock { $0.sorted() } == [0, 1, 2, 3])
  }

  @Test func aLoadSharedOutIsTheLoadDoneAlone() throws {
    let files = (0..<12).map { index in
      (
        "/packs/p\(index).json",
        #"{"format": 1, "id": "p\#(index)", "title": "P", "version": "1.0.0", "topics": [{"id": "t", "title": "T", "description": "D.", "category": "number", "skills": ["reading"], "variables": {"n": {"range": {"min": 1, "max": 10}}}, "question": {"parts": [{"number": "n"}]}, "answer": {"value": "n"}}]}"#
      )
    }
    let loader = PackLoader(
      fileSystem: .memory(Dictionary(uniqueKeysWithValues: files.map { ($0.0, Array($0.1.utf8)) })))
    let alone = loader.load(files: files.map(\.0))
    let compiling = loader.compiling(files: files.map(\.0))
    let helper = Thread { compiling.help() }
    helper.start()
    let shared = compiling.finish()
    #expect(shared.packs.map(\.path) == alone.packs.map(\.path))
    #expect(
      shared.packs.map { $0.compilation.topics.map(\.topic.id) }
        == alone.packs.map { $0.compilation.topics.map(\.topic.id) })
    #expect(shared.packs.map(\.compilation.diagnostics) == alone.packs.map(\.compilation.diagnostics))
  }
}
