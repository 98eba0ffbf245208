import BikiCore
import BikiTestSupport
import Foundation
import Testing

@testable import BikiPlugins

@Suite struct CalendarPluginTests {
  @Test func aPlainCBuildLoadsAndDescribesItsTopics() throws {
    let library = try PluginLibrary(path: try PluginFixtures.calendar())
    #expect(library.id == "calendar")
    #expect(library.isThreadSafe)
    let plugin = try PluginTopics(library: library)
    #expect(plugin.topics.map(\.id) == ["calendar.weekdays", "calendar.eras"])
    #expect(plugin.topics[1].skills == [.listening, .reading])
  }

  @Test func weekdaysReadAsTheyShould() throws {
    let plugin = try PluginTopics(library: try PluginLibrary(path: try PluginFixtures.calendar()))
    let generator = try plugin.generator(for: plugin.topics[0])
    let readings = try (0..<7).map { try generator.question(seed: $0).reading.standard }
    #expect(readings == ["げつようび", "かようび", "すいようび", "もくようび", "きんようび", "どようび", "にちようび"])
  }

  @Test func eraYearsAnswerAsGregorianYears() throws {
    let plugin = try PluginTopics(library: try PluginLibrary(path: try PluginFixtures.calendar()))
    let generator = try plugin.generator(for: plugin.topics[1])
    #expect(generator.spaceSize == 45 + 15 + 64 + 31 + 12)
    let first = try generator.question(seed: 0)
    #expect(first.display == "明治元年")
    #expect(first.reading.standard == "めいじがんねん")
    #expect(first.answer.value == 1868)
    let showa64 = try generator.question(seed: 45 + 15 + 63)
    #expect(showa64.display == "昭和64年")
    #expect(showa64.kanjiDisplay == "昭和六十四年")
    #expect(showa64.reading.standard == "しょうわろくじゅうよねん")
    #expect(showa64.answer.value == 1989)
    let heisei17 = try generator.question(seed: 45 + 15 + 64 + 16)
    #expect(heisei17.reading.description == "へいせいじゅうしちねん|へいせいじゅうななねん")
    #expect(heisei17.answer.value == 2005)
    #expect(AnswerChecker.check("2005年", against: heisei17, skill: .reading).isCorrect)
  }

  @Test func theSameSeedGivesTheSameQuestion() throws {
    let plugin = try PluginTopics(library: try PluginLibrary(path: try PluginFixtures.calendar()))
    let generator = try plugin.generator(for: plugin.topics[1])
    for seed in UInt64(0)..<1000 {
      #expect(try generator.question(seed: seed) == generator.question(seed: seed))
    }
  }
}

/// Plugins that misbehave in ways this process survives; each yields its own diagnostic.
@Suite struct MisbehavingPluginTests {
  func loadError(_ define: String) throws -> PluginError? {
    do {
      let library = try PluginLibrary(path: try PluginFixtures.misbehaving(define))
      _ = try PluginTopics(library: library)
      return nil
    } catch let error as PluginError {
      return error
    }
  }

  func generationError(_ define: String) throws -> String? {
    let plugin = try PluginTopics(library: try PluginLibrary(path: try PluginFixtures.misbehaving(define)))
    do {
      _ = try plugin.generator(for: plugin.topics[0]).question(seed: 1)
      return nil
    } catch {
      return (error as? GenerationError)?.reason ?? "\(error)"
    }
  }

  @Test func aMissingFileAndANonELFFileAreLoadErrors() throws {
    #expect(throws: PluginError.self) { try PluginLibrary(path: "/nonexistent/libnothing.so") }
    let text = PluginFixtures.directory + "/not-a-library.so"
    try FileManager.default.createDirectory(atPath: PluginFixtures.directory, withIntermediateDirectories: true)
    try "hello".write(toFile: text, atomically: true, encoding: .utf8)
    do {
      _ = try PluginLibrary(path: text)
      Issue.record("loaded a text file")
    } catch {
      #expect(error.kind == .cannotLoad)
      #expect(error.description.contains("not-a-library.so"))
    }
  }

  /// dlopen looks a name without a slash up among the system's libraries (libm.so.6 would load):
  /// a plugin is only ever loaded from the file it names.
  @Test func aBareNameIsNeverLookedUpAmongTheSystemsLibraries() {
    do {
      _ = try PluginLibrary(path: "libm.so.6")
      Issue.record("loaded a library by a bare name")
    } catch {
      #expect(error.kind == .cannotLoad)
      #expect(
        error.reason == "a plugin is loaded from a path (./libm.so.6), never looked up among the system's libraries")
    }
  }

  @Test func aMissingEntrySymbol() throws {
    #expect(try loadError("NO_ENTRY")?.kind == .missingEntry)
  }

  @Test func aRefusedOrUnknownABIVersion() throws {
    #expect(try loadError("REFUSE_VERSION")?.kind == .refusedVersion)
    let wrong = try loadError("WRONG_VERSION")
    #expect(wrong?.kind == .incompatibleVersion)
    #expect(wrong?.reason.contains("plugin ABI 99.x") == true)
  }

  @Test func aNullFunctionInTheDescriptor() throws {
    #expect(try loadError("NULL_GENERATE")?.kind == .badDescriptor)
  }

  @Test func badOutputIsCaughtAndNamed() throws {
    #expect(try generationError("BAD_UTF8")?.contains("invalid UTF-8") == true)
    #expect(try generationError("MALFORMED")?.contains("not valid JSON") == true)
    #expect(try generationError("NOT_KANA")?.contains("is not hiragana") == true)
    #expect(try generationError("ENORMOUS")?.contains("more than 1048576 bytes") == true)
  }

  /// At run time a question that lies is refused with a message that says how: it costs that
  /// question, as a crash would.
  @Test(arguments: [
    ("KATAKANA", "is not hiragana"), ("COMBINING", "combining sound mark"),
    ("WRONG_ANSWER", "the answer 506 is not the number"),
    ("WRONG_READING", "is not one Biki gives"), ("WRONG_DECLARED_READING", "is not one Biki gives for \"612号室\""),
    ("PARTIAL_OUTPUT", "which were discarded"),
  ])
  func liesAreRefusedAtRunTime(_ define: String, _ fragment: String) throws {
    let reason = try generationError(define)
    #expect(reason?.contains(fragment) == true, "\(reason ?? "accepted")")
  }

  /// BIKI_STATUS_OUTPUT_REFUSED is said for what it is: output past the limit, or a status
  /// returned though every write was taken.
  @Test func anOutputRefusalIsNamedForWhatHappened() throws {
    let falseRefusal = try PluginLibrary(path: try PluginFixtures.misbehaving("FALSE_REFUSAL"))
    do {
      _ = try falseRefusal.generate(topic: "ok", parameters: [:], seed: 0)
      Issue.record("a refused call returned output")
    } catch {
      #expect(error.kind == .callFailed(5))
      #expect(
        error.reason
          == "it returned BIKI_STATUS_OUTPUT_REFUSED, though Biki refused none of its writes (it wrote 150 bytes of output, discarded as the call failed)"
      )
    }
    let enormous = try PluginLibrary(path: try PluginFixtures.misbehaving("ENORMOUS"))
    do {
      _ = try enormous.generate(topic: "ok", parameters: [:], seed: 0)
      Issue.record("an enormous answer was taken")
    } catch {
      #expect(error.kind == .outputTooLarge)
      #expect(error.reason == "it wrote more than 1048576 bytes of output; Biki refused the rest")
    }
  }

  @Test func aFailedCallsOutputIsDiscardedAndItsMessageComesFromTheErrorChannel() throws {
    let library = try PluginLibrary(path: try PluginFixtures.misbehaving("PARTIAL_OUTPUT"))
    do {
      _ = try library.generate(topic: "ok", parameters: [:], seed: 0)
      Issue.record("a failed call returned output")
    } catch {
      #expect(error.kind == .failedAfterOutput(3))
      #expect(error.reason == "ran out of questions halfway (after writing 17 bytes of output, which were discarded)")
    }
    do {
      _ = try library.generate(topic: "nope", parameters: [:], seed: 0)
    } catch {
      #expect(error.kind == .callFailed(1))
      #expect(error.reason == "no such topic")
    }
  }

  @Test func aWriteAfterTheCallReturnedIsRefusedAndNamedAgainstItsCall() throws {
    let library = try PluginLibrary(path: try PluginFixtures.misbehaving("LATE_WRITE"))
    let first = try library.generate(topic: "ok", parameters: [:], seed: 4)
    #expect(library.lateWriteCount == 0)
    #expect(library.takeLateWrites() == nil)
    // The second call writes through the first call's writer before its own: refused, blamed
    // on the first call, and the second call's output is its own.
    let second = try library.generate(topic: "ok", parameters: [:], seed: 4)
    #expect(library.lateWriteCount == 1)
    #expect(first == second)
    let late = try #require(library.takeLateWrites())
    #expect(late.kind == .writerAfterReturn)
    #expect(
      late.reason
        == #"it wrote through the output writer of generate for topic "ok", seed 4 after that call had returned (1 write, refused)"#
    )
    #expect(library.takeLateWrites() == nil)  // reported once
  }

  /// A writer kept from one call never becomes another call's output, however many calls come
  /// between: records are never reused (they were a ring of sixteen, and the seventeenth call
  /// after one served what a plugin wrote through that call's writer).
  @Test func aKeptWriterNeverReachesALaterCall() throws {
    let library = try PluginLibrary(path: try PluginFixtures.misbehaving("LATE_WRITE"))
    var outputs: Set<[UInt8]> = []
    for seed in UInt64(0)..<100 { outputs.insert(try library.generate(topic: "ok", parameters: [:], seed: seed % 3)) }
    #expect(outputs.count == 3)
    #expect(outputs.allSatisfy { !String(decoding: $0, as: UTF8.self).contains("late") })
    #expect(library.lateWriteCount == 99)
    let late = try #require(library.takeLateWrites())
    #expect(
      late.reason
        == #"it wrote through writers after their calls had returned, 99 writes in all, every one refused: the output writer of generate for topic "ok", seed 0 (33 writes); the output writer of generate for topic "ok", seed 1 (33 writes); the output writer of generate for topic "ok", seed 2 (33 writes)"#,
      "\(late.reason)")
  }

  /// A thread the plugin started writes through a kept writer 20 ms after its call returned, with
  /// no call after it: refused (the plugin's thread sees a non-zero status), and named.
  @Test(arguments: ["LATE_THREAD_WRITE", "LATE_READINGS_WRITE"])
  func aWriteFromAThreadAfterTheCallIsNamedWithNoCallAfterIt(_ define: String) throws {
    let library = try PluginLibrary(path: try PluginFixtures.misbehaving(define))
    _ = try library.generate(topic: "ok", parameters: [:], seed: 4)
    let deadline = Date().addingTimeInterval(5)
    while library.lateWriteCount == 0 && Date() < deadline { usleep(5_000) }
    let late = try #require(library.takeLateWrites())
    #expect(
      late.reason
        == #"it wrote through the output writer of generate for topic "ok", seed 4 after that call had returned (1 write, refused)"#
    )
  }

  @Test func aDescriptorSmallerThanVersionOnesIsRefused() throws {
    let error = try loadError("SMALL_DESCRIPTOR")
    #expect(error?.kind == .badDescriptor)
    #expect(
      error?.reason
        == "its descriptor is 24 bytes, smaller than the \(PluginLibrary.minimumDescriptorSize) of plugin ABI 1.0")
  }

  @Test func aPluginIsToldWhichHostLoadsIt() throws {
    let plugin = try PluginTopics(library: try PluginLibrary(path: try PluginFixtures.misbehaving("ECHO_HOST")))
    #expect(plugin.topics.first?.title == "Biki \(BikiVersion.current) (ABI 1)")
  }

  @Test func deinitRunsOnceAfterTheLastCall() throws {
    let marks = FileManager.default.temporaryDirectory.appendingPathComponent("biki-deinit-\(UUID().uuidString)").path
    setenv("BIKI_TEST_DEINIT_FILE", marks, 1)
    let library = try PluginLibrary(path: try PluginFixtures.misbehaving("DEINIT_MARKS"))
    _ = try library.generate(topic: "ok", parameters: [:], seed: 0)
    #expect(!FileManager.default.fileExists(atPath: marks))
    library.shutDown()
    library.shutDown()
    #expect(try String(contentsOfFile: marks, encoding: .utf8) == "deinit\n")
  }

  @Test func initThatFailsIsReportedWithItsMessage() throws {
    let error = try loadError("INIT_FAILS")
    #expect(error?.kind == .initFailed)
    #expect(error?.reason.contains("the plugin's data file is missing") == true)
  }

  @Test func aPluginCountsItsQuestionsForItsParameters() throws {
    let plugin = try PluginTopics(library: try PluginLibrary(path: try PluginFixtures.misbehaving("COUNTED")))
    #expect(try plugin.generator(for: plugin.topics[0]).spaceSize == 3)
    let nine = try plugin.generator(for: plugin.topics[0], parameters: ["max": 9])
    #expect(nine.spaceSize == 9)
    #expect(Set(try (0..<9).map { try nine.question(seed: $0).answer.value }) == Set(1...9))
  }

  @Test func unknownTopicsAndTrailingGarbageAreRejectedByThePlugin() throws {
    let library = try PluginLibrary(path: try PluginFixtures.misbehaving(nil))
    #expect(throws: PluginError.self) { try library.generate(topic: "nope", parameters: [:], seed: 0) }
    #expect(throws: PluginError.self) { try library.generate(topic: "ok ", parameters: [:], seed: 0) }
    #expect(throws: Never.self) { try library.generate(topic: "ok", parameters: [:], seed: 0) }
  }

  @Test func outputThatDiffersForTheSameSeedIsDetectable() throws {
    let library = try PluginLibrary(path: try PluginFixtures.misbehaving("UNSTABLE"))
    let first = try library.generate(topic: "ok", parameters: [:], seed: 5)
    let second = try library.generate(topic: "ok", parameters: [:], seed: 5)
    #expect(first != second)
  }
}
