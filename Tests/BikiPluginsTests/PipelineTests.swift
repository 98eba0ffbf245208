import BikiCore
import BikiSync
import Foundation
import Testing

@testable import BikiPlugins

/// Long batches of plugin questions are made in chunks on one thread and checked on another.
@Suite struct PipelineTests {
  @Test(arguments: [0, 1, 99, 100, 101, 250, 1000])
  func everyItemComesBackOnceInOrder(_ count: Int) {
    let items = Array(0..<count)
    let output = Pipeline.map(
      items, chunkSize: 100, produce: { chunk in chunk.map { $0 * 2 } },
      consume: { chunk, doubled in
        zip(chunk, doubled).map { $0 + $1 }
      })
    #expect(output == items.map { $0 * 3 })
  }

  /// The next chunk is made while this one is consumed: consuming the first chunk waits for the
  /// second chunk's production to begin, which only a producer running alongside can do.
  @Test func theNextChunkIsMadeWhileThisOneIsConsumed() {
    let secondStarted = DispatchSemaphore(value: 0)
    var overlapped = false
    _ = Pipeline.map(
      Array(0..<300), chunkSize: 100,
      produce: { chunk in
        if chunk.first == 100 { secondStarted.signal() }
        return chunk
      },
      consume: { chunk, made in
        if chunk.first == 0 { overlapped = secondStarted.wait(timeout: .now() + 30) == .success }
        return made
      })
    #expect(overlapped)
  }

  @Test func productionIsNeverTwoChunksAtOnce() {
    let running = Locked((now: 0, most: 0))
    _ = Pipeline.map(
      Array(0..<1000), chunkSize: 10,
      produce: { chunk in
        running.withLock {
          $0.now += 1
          $0.most = max($0.most, $0.now)
        }
        defer { running.withLock { $0.now -= 1 } }
        return chunk
      },
      consume: { _, made in made })
    #expect(running.withLock { $0.most } == 1)
  }

  /// A call that fails (a worker that crashed) costs its own chunk of a batch; the questions of
  /// the other chunks are made and checked as usual.
  @Test func aFailedCallCostsOnlyItsChunk() throws {
    let era =
      #"{"display": "令和5年", "kanjiDisplay": "令和五年", "spoken": "れいわごねん", "readings": ["れいわごねん"], "answer": {"value": 2023, "postfix": "年"}}"#
    let description =
      #"{"topics": [{"id": "eras", "title": "Eras", "description": "d", "category": "dateTime", "skills": ["reading"], "questionCount": 1000, "parameters": []}]}"#
    let backend = PluginBackend(
      path: "/plugins/libtest.so",
      describe: { () throws(PluginError) in
        (PluginIdentity(id: "test", name: "Test", version: "1", abiVersion: 1), Array(description.utf8))
      },
      generate: { _, _, seeds throws(PluginError) in
        if seeds.contains(150) {
          throw PluginError(
            path: "/plugins/libtest.so", kind: .crashed, reason: "the plugin's worker was killed by SIGSEGV")
        }
        return seeds.map { _ in .success(Array(era.utf8)) }
      })
    let topics = try PluginTopics(backend: backend)
    let generator = try topics.generator(for: try #require(topics.topics.first))
    let seeds = (0..<UInt64(350)).map { $0 }
    let results = generator.questions(seeds: seeds)
    #expect(results.count == 350)
    let failed = seeds.filter { if case .failure = results[Int($0)] { true } else { false } }
    #expect(failed == Array(100..<200))
    guard case .failure(let error) = results[150] else { return }
    #expect(error.description.contains("SIGSEGV"), "\(error)")
    #expect(try results[0].get().spoken == "れいわごねん")
    #expect(try results[349].get().seed == 349)
  }

  /// A backend that answers fewer results than it was given seeds fails that chunk's questions,
  /// each with a reason, instead of leaving seeds without a result.
  @Test func tooFewResultsFailTheChunk() throws {
    let description =
      #"{"topics": [{"id": "eras", "title": "Eras", "description": "d", "category": "dateTime", "skills": ["reading"], "questionCount": 1000, "parameters": []}]}"#
    let backend = PluginBackend(
      path: "/plugins/libtest.so",
      describe: { () throws(PluginError) in
        (PluginIdentity(id: "test", name: "Test", version: "1", abiVersion: 1), Array(description.utf8))
      },
      generate: { _, _, seeds throws(PluginError) in
        seeds.dropLast().map { _ in .failure(PluginError(path: "/plugins/libtest.so", kind: .badOutput, reason: "x")) }
      })
    let topics = try PluginTopics(backend: backend)
    let generator = try topics.generator(for: try #require(topics.topics.first))
    let results = generator.questions(seeds: [1, 2, 3])
    #expect(results.count == 3)
    guard case .failure(let error) = results[2] else {
      Issue.record("a seed without a result succeeded")
      return
    }
    #expect(error.description.contains("2 results for 3 seeds"), "\(error)")
  }

  /// docs/plugin-abi.md: a batch of 1,000 questions is ten calls of a hundred seeds (ten round
  /// trips to a worker), in order.
  @Test func aThousandQuestionsAreTenCallsOfAHundred() throws {
    let era =
      #"{"display": "令和5年", "kanjiDisplay": "令和五年", "spoken": "れいわごねん", "readings": ["れいわごねん"], "answer": {"value": 2023, "postfix": "年"}}"#
    let description =
      #"{"topics": [{"id": "eras", "title": "Eras", "description": "d", "category": "dateTime", "skills": ["reading"], "questionCount": 1000, "parameters": []}]}"#
    let calls = Locked<[[UInt64]]>([])
    let backend = PluginBackend(
      path: "/plugins/libtest.so",
      describe: { () throws(PluginError) in
        (PluginIdentity(id: "test", name: "Test", version: "1", abiVersion: 1), Array(description.utf8))
      },
      generate: { _, _, seeds throws(PluginError) in
        calls.withLock { $0.append(seeds) }
        return seeds.map { _ in .success(Array(era.utf8)) }
      })
    let topics = try PluginTopics(backend: backend)
    let generator = try topics.generator(for: try #require(topics.topics.first))
    let seeds = (0..<UInt64(1000)).map { $0 }
    let results = generator.questions(seeds: seeds)
    #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
    let made = calls.withLock { $0 }
    #expect(made.map(\.count) == Array(repeating: 100, count: 10))
    #expect(made.flatMap { $0 } == seeds)
  }
}
