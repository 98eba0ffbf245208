import BikiCore
import BikiJSON
import BikiJapanese
import BikiPractice
import BikiProtocol
import BikiSync
import BikiTestSupport
import Testing

@testable import BikiServer

@Suite struct SessionMethodTests {
  /// The answers a session with `seed` will ask for, from the stateless generator.
  func answers(_ endpoint: inout Endpoint<BikiServer>, seed: Int64, count: Int64) -> [Int64] {
    let generated = endpoint.call(
      "biki/generate", ["topicId": "test.hon", "seed": .integer(seed), "count": .integer(count)])
    return generated["questions"]?.arrayValue?.compactMap { $0["answer"]?.integerValue } ?? []
  }

  @Test func topicsListEverythingAClientNeeds() {
    var endpoint = ServerFixtures.endpoint()
    let topics = endpoint.call("biki/topics")["topics"]?.arrayValue ?? []
    #expect(topics.count == 1)
    #expect(topics.first?["id"] == "test.hon")
    #expect(topics.first?["skills"] == ["listening", "reading", "kana"])
    #expect(topics.first?["parameters"]?.arrayValue?.first?["maximum"] == 1000)
    #expect(topics.first?["source"] == "/packs/test.json")
  }

  @Test func aClientThatKeepsTheTopicListIsToldWhileItIsUnchanged() throws {
    var endpoint = ServerFixtures.endpoint()
    let full = endpoint.call("biki/topics")
    #expect(full["kind"] == "full")
    let resultID = try #require(full["resultId"]?.stringValue)
    #expect(resultID.count == 16 && resultID.allSatisfy(\.isHexDigit))

    #expect(
      endpoint.call("biki/topics", ["previousResultId": .string(resultID)]) == [
        "kind": "unchanged", "resultId": .string(resultID),
      ])
    let stale = endpoint.call("biki/topics", ["previousResultId": "0123456789abcdef"])
    #expect(stale["kind"] == "full" && stale["topics"] == full["topics"] && stale["resultId"] == full["resultId"])
    #expect(endpoint.failure("biki/topics", ["previousResultId": 7])?.code == -32602)

    // The id names the packs, not the run: a restarted server with the same packs says unchanged.
    var restarted = ServerFixtures.endpoint()
    #expect(restarted.call("biki/topics", ["previousResultId": .string(resultID)])["kind"] == "unchanged")
  }

  @Test func paramsLeftOutNullOrAnEmptyListReadAsNoParams() {
    var endpoint = ServerFixtures.endpoint()
    for params: JSON? in [nil, .null, []] {
      #expect(endpoint.call("biki/topics", params)["kind"] == "full")
      #expect(endpoint.call("biki/stats", params)["topicId"] == nil)
    }
    #expect(endpoint.failure("biki/topics", ["0123456789abcdef"])?.message == "params must be an object, not an array")
    #expect(endpoint.failure("biki/generate", [])?.message == "missing required field \"topicId\"")
  }

  @Test func aSeededSessionAsksWhatGenerateGivesAndFinishesAtItsLimit() {
    let history = AnswerHistory.memory()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(history: history))
    let expected = answers(&endpoint, seed: 9, count: 3)
    #expect(Set(expected).count == 3)
    let started = endpoint.call(
      "biki/startSession", ["topicId": "test.hon", "seed": 9, "mode": ["kind": "questionLimit", "limit": 3]])
    #expect(started["sessionId"] == "s1")
    #expect(started["question"]?["prompt"]?.stringValue?.hasSuffix("本") == true)
    // Nothing in the open question gives the answer away.
    #expect(started["question"]?["answer"] == nil && started["question"]?["speech"] == nil)

    let wrong = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "0"])
    #expect(wrong["verdict"] == "incorrect")
    #expect(wrong["expected"] == nil)
    #expect(wrong["question"] == nil)

    let right = endpoint.call("biki/answer", ["sessionId": "s1", "answer": .string("\(expected[0])本")])
    #expect(right["verdict"] == "correct")
    #expect(right["expected"]?["answer"] == .string("\(expected[0])本"))
    #expect(right["question"]?["number"] == 2)

    let skipped = endpoint.call("biki/skip", ["sessionId": "s1"])
    #expect(skipped["expected"]?["answer"] == .string("\(expected[1])本"))

    let last = endpoint.call("biki/answer", ["sessionId": "s1", "answer": .integer(expected[2])])
    #expect(last["finished"] == true)
    #expect(last["question"] == nil)
    #expect(last["summary"]?["questions"] == 3)
    #expect(last["summary"]?["correct"] == 2)
    #expect(last["summary"]?["skipped"] == 1)
    #expect(last["summary"]?["missed"]?.arrayValue?.count == 2)

    // A late endSession still gets the summary; then the id is gone.
    #expect(endpoint.call("biki/endSession", ["sessionId": "s1"])["summary"]?["questions"] == 3)
    #expect(endpoint.failure("biki/endSession", ["sessionId": "s1"])?.code == ResponseError.invalidParams)

    let recorded = history.load().entries
    #expect(recorded.map(\.isCorrect) == [false, true, false, true])
    #expect(recorded.map(\.skipped) == [false, false, true, false])
    #expect(recorded.allSatisfy { $0.topicID == "test.hon" && $0.skill == .reading && $0.at == 1_800_000_000 })
  }

  /// A listening question carries what to say and the text it reads, for `biki say` (Open JTalk
  /// accents the text); revealed, they are the question's reading and kanji.
  @Test func aListeningQuestionCarriesItsSpeechAndTheTextItReads() throws {
    var endpoint = ServerFixtures.endpoint()
    let started = endpoint.call("biki/startSession", ["topicId": "test.hon", "skill": "listening", "seed": 3])
    let question = started["question"] ?? .null
    let speech = try #require(question["speech"]?.stringValue)
    let text = try #require(question["speechText"]?.stringValue)
    #expect(question["prompt"]?.stringValue == speech)
    let revealed = endpoint.call("biki/skip", ["sessionId": "s1"])["expected"] ?? .null
    #expect(revealed["readings"]?.arrayValue?.first?.stringValue == speech)
    #expect(text.hasSuffix("本") && !text.contains { $0.isASCII }, "\(text)")  // in kanji numerals: 三本
  }

  /// A listening session has the audio of the question asked, and of the one after it, made
  /// ahead off the loop (the client's `biki say` then finds it made); other skills have none.
  @Test func aListeningQuestionsAudioAndTheNextOnesAreMadeAhead() throws {
    let asked = Locked<[String]>([])
    var dependencies = ServerFixtures.dependencies()
    dependencies.prepareSpeech = { session, speech, reading, text in
      #expect(session == "s1" && speech == .standard)
      asked.withLock { $0.append("\(reading) \(text)") }
    }
    var endpoint = ServerFixtures.endpoint(dependencies)
    let started = endpoint.call("biki/startSession", ["topicId": "test.hon", "skill": "listening", "seed": 3])
    let first = try #require(started["question"])
    let spoken = "\(first["speech"]?.stringValue ?? "") \(first["speechText"]?.stringValue ?? "")"
    #expect(asked.withLock { $0 }.first == spoken)
    #expect(asked.withLock { $0 }.count == 2)
    let next = endpoint.call("biki/skip", ["sessionId": "s1"])["question"] ?? .null
    let nextSpoken = "\(next["speech"]?.stringValue ?? "") \(next["speechText"]?.stringValue ?? "")"
    #expect(asked.withLock { $0 }[1] == nextSpoken)
    #expect(asked.withLock { $0 }.count == 4)

    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "skill": "reading", "seed": 3])
    #expect(asked.withLock { $0 }.count == 4)
  }

  /// `speech` says how the session's questions are spoken: the audio made ahead is made so, and
  /// the session's end drops what is still to be made.
  @Test func theSessionsSpeechIsHowItsAudioIsMadeAheadAndItsEndDropsIt() {
    let asked = Locked<[(String, SpeechChoice)]>([])
    let ended = Locked<[String]>([])
    var dependencies = ServerFixtures.dependencies()
    dependencies.prepareSpeech = { session, speech, _, _ in asked.withLock { $0.append((session, speech)) } }
    dependencies.endSpeech = { session in ended.withLock { $0.append(session) } }
    var endpoint = ServerFixtures.endpoint(dependencies)
    _ = endpoint.call(
      "biki/startSession",
      [
        "topicId": "test.hon", "skill": "listening", "seed": 3,
        "speech": ["voice": "jm_kumo", "rate": .double(0.5), "pitch": -3],
      ])
    let wanted = SpeechChoice(voice: "jm_kumo", rate: 0.5, pitch: -3)
    #expect(asked.withLock { $0 }.map(\.0) == ["s1", "s1"])
    #expect(asked.withLock { $0 }.allSatisfy { $0.1 == wanted })
    _ = endpoint.call("biki/endSession", ["sessionId": "s1"])
    #expect(ended.withLock { $0 } == ["s1"])
  }

  static let refusedSpeech: [(JSON, String)] = [
    (["rate": 3], "\"speech.rate\" must be a number from 0.5 to 2, not 3.0"),
    (["rate": "fast"], "\"speech.rate\" must be a number"),
    (["pitch": -13], "\"speech.pitch\" must be a number of semitones from -12 to 12, not -13.0"),
    (["voice": ""], "\"speech.voice\" must be a voice name or an .htsvoice file"),
    (["voice": "mei\nnormal"], "\"speech.voice\" must be a voice name or an .htsvoice file"),
    ("slow", "\"speech\" must be an object, not a string"),
  ]

  @Test(arguments: refusedSpeech)
  func aSpeechThatCannotBeIsRefusedNamingTheField(speech: JSON, message: String) {
    var endpoint = ServerFixtures.endpoint()
    let refused = endpoint.failure(
      "biki/startSession", ["topicId": "test.hon", "skill": "listening", "speech": speech])
    #expect(refused?.code == -32602)
    #expect(refused?.message.hasPrefix(message) == true, "\(refused?.message ?? "")")
  }

  @Test func theKanaSkillSendsNoReadingBeforeTheAnswer() {
    var endpoint = ServerFixtures.endpoint()
    let started = endpoint.call("biki/startSession", ["topicId": "test.hon", "skill": "kana", "seed": 3])
    let question = started["question"] ?? .null
    #expect(question["speech"] == nil && question["prefix"] == nil)
    let revealed = endpoint.call("biki/skip", ["sessionId": "s1"])["expected"]?["readings"]?.arrayValue ?? []
    #expect(!revealed.isEmpty)
    #expect(!question.serialized.contains(revealed[0].stringValue!))
  }

  @Test func endSessionSummarizesAndClosesAnOpenSession() {
    var endpoint = ServerFixtures.endpoint()
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "infinite"]])
    _ = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "x"])
    let summary = endpoint.call("biki/endSession", ["sessionId": "s1"])["summary"]
    #expect(summary?["endReason"] == "ended")
    #expect(summary?["incorrectAttempts"] == 1)
    #expect(endpoint.failure("biki/answer", ["sessionId": "s1", "answer": "1"])?.code == ResponseError.invalidParams)
  }

  @Test func aTimeLimitEndsTheSessionUnprompted() {
    let clock = ManualClock(at: 100)
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock))
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "timeLimit", "limit": 30]])
    #expect(endpoint.nextDeadline! <= 130)
    clock.advance(31)
    let finished = endpoint.tick(now: clock.now()).notifications("biki/sessionFinished")
    #expect(finished.count == 1)
    #expect(finished.first?["summary"]?["endReason"] == "timeUp")
    #expect(endpoint.call("biki/endSession", ["sessionId": "s1"])["summary"]?["endReason"] == "timeUp")
  }

  /// A tool trying a session out says `record: false`: nothing of it, its start, answers, skips
  /// or end, goes into the learner's history, while a session beside it is recorded as ever.
  @Test func aSessionStartedWithRecordFalseLeavesNoHistory() {
    let lines = Locked<[HistoryLine]>([])
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(history: .memory(lines: lines)))
    _ = endpoint.call(
      "biki/startSession",
      ["topicId": "test.hon", "seed": 1, "record": false, "mode": ["kind": "questionLimit", "limit": 2]])
    _ = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "0"])
    _ = endpoint.call("biki/skip", ["sessionId": "s1"])
    _ = endpoint.call("biki/endSession", ["sessionId": "s1"])
    #expect(lines.withLock { $0 }.isEmpty)
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "seed": 1])
    _ = endpoint.call("biki/skip", ["sessionId": "s2"])
    #expect(lines.withLock { $0 }.count == 2)
    // Romaji that spells nothing is no answer: not counted, and not recorded either.
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "seed": 1, "skill": "kana"])
    let unread = endpoint.call("biki/answer", ["sessionId": "s3", "answer": "hapqon"])
    #expect(unread["verdict"] == "incorrect" && unread["progress"]?["incorrectAttempts"] == 0)
    #expect(lines.withLock { $0 }.count == 3)  // s3's start only
    let refused = endpoint.failure("biki/startSession", ["topicId": "test.hon", "record": "no"])
    #expect(refused?.code == -32602)
  }

  @Test func anAnswerAfterTheTimeLimitIsNotCounted() {
    let clock = ManualClock(at: 100)
    let history = AnswerHistory.memory()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock, history: history))
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "timeLimit", "limit": 5]])
    clock.advance(6)
    let late = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "1"])
    #expect(late["verdict"] == "timeUp")
    #expect(late["finished"] == true)
    #expect(history.load().entries.isEmpty)
  }

  /// The session's deadline passed and the server ended it (telling the client) before the
  /// learner's answer arrived: the answer still gets the documented `timeUp`, not an error.
  @Test func anAnswerAfterTheSessionTimedOutGetsTimeUp() {
    let clock = ManualClock(at: 100)
    let history = AnswerHistory.memory()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock, history: history))
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "timeLimit", "limit": 5]])
    clock.advance(6)
    #expect(endpoint.tick(now: clock.now()).notifications("biki/sessionFinished").count == 1)
    let late = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "1"])
    #expect(late["verdict"] == "timeUp")
    #expect(late["finished"] == true)
    #expect(late["summary"]?["endReason"] == "timeUp")
    #expect(late["progress"] != nil)
    let lateSkip = endpoint.call("biki/skip", ["sessionId": "s1"])
    #expect(lateSkip["verdict"] == "timeUp")
    #expect(lateSkip["expected"] == nil)
    #expect(history.load().entries.isEmpty)
    // The summary is still there for endSession, once.
    #expect(endpoint.call("biki/endSession", ["sessionId": "s1"])["summary"]?["endReason"] == "timeUp")
    #expect(endpoint.failure("biki/answer", ["sessionId": "s1", "answer": "1"])?.code == ResponseError.invalidParams)
  }

  /// `{mode: {kind: "review"}}`: what the history says is due comes first; the answers go to the
  /// history under the topic they came from.
  @Test func aReviewSessionAsksWhatIsDueFirst() throws {
    let missed = HistoryEntry(
      Session.AnswerRecord(
        topicID: "test.hon", seed: 7, skill: .kana, prompt: "8本", expected: "はっぽん", given: "はちぽん",
        isCorrect: false, seconds: 3, forms: ReadingForms.of(8, counter: .hon)), at: 1_800_000_000 - 5 * 86_400)
    let history = AnswerHistory.memory([missed])
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(history: history))
    let started = endpoint.call("biki/startSession", ["mode": ["kind": "review", "limit": 3], "seed": 5])
    #expect(started["topicId"] == "review")
    #expect(started["skill"] == "kana")
    #expect(started["question"]?["prompt"]?.stringValue?.hasSuffix("8本") == true, "\(started)")
    #expect(started["progress"]?["questionLimit"] == 3)
    _ = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "はっぽん"])
    let recorded = history.load().entries.last
    #expect(recorded?.topicID == "test.hon")
    #expect(recorded?.forms.map(\.id) == ["本/final:8"])
    // A topic that is not loaded is refused as for any session.
    #expect(
      endpoint.failure("biki/startSession", ["topicId": "nope.x", "mode": ["kind": "review"]])?.code
        == ResponseError.invalidParams)
  }

  @Test func parametersChangeWhatIsAsked() {
    var endpoint = ServerFixtures.endpoint()
    let generated = endpoint.call(
      "biki/generate", ["topicId": "test.hon", "seed": 1, "count": 2, "params": ["max": 2]])
    #expect(Set(generated["questions"]?.arrayValue?.compactMap { $0["answer"]?.integerValue } ?? []) == [1, 2])
    #expect(
      endpoint.failure("biki/generate", ["topicId": "test.hon", "seed": 1, "params": ["max": 1]])?.message.contains(
        "max") == true)
    #expect(
      endpoint.failure("biki/generate", ["topicId": "test.hon", "seed": 1, "params": ["size": 3]])?.message.contains(
        "size") == true)
  }

  @Test(
    arguments: [
      ("biki/startSession", JSON.object([]), "topicId"),
      ("biki/startSession", ["topicId": 5], "topicId"),
      ("biki/startSession", ["topicId": "test.hn"], "test.hon"),
      ("biki/startSession", ["topicId": "test.hon", "skill": "writing"], "skill"),
      ("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "questionLimit"]], "mode.limit"),
      ("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "questionLimit", "limit": 0]], "mode.limit"),
      ("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "forever"]], "mode.kind"),
      ("biki/startSession", ["topicId": "test.hon", "mode": "infinite"], "mode"),
      ("biki/startSession", ["topicId": "test.hon", "seed": true], "seed"),
      ("biki/startSession", ["topicId": "test.hon", "seed": -1], "seed"),
      ("biki/startSession", ["topicId": "test.hon", "params": ["max": "big"]], "params.max"),
      ("biki/answer", ["sessionId": "s9", "answer": "1"], "sessionId"),
      ("biki/generate", ["topicId": "test.hon"], "seed"),
      ("biki/generate", ["topicId": "test.hon", "seed": 1, "count": 1001], "count"),
      ("biki/read", ["text": 8], "text"),
      ("biki/read", ["text": "8本", "as": "weight"], "as"),
      ("biki/read", ["text": "ほん"], "text"),
      ("biki/stats", ["topicId": []], "topicId"),
    ] as [(String, JSON, String)])
  func badParamsNameTheField(_ method: String, _ params: JSON, _ field: String) {
    var endpoint = ServerFixtures.endpoint()
    let error = endpoint.failure(method, params)
    #expect(error?.code == ResponseError.invalidParams)
    #expect(error?.message.contains(field) == true, "\(error?.message ?? "")")
  }

  @Test func readGivesEveryReadingStandardFirst() {
    var endpoint = ServerFixtures.endpoint()
    #expect(endpoint.call("biki/read", ["text": "8本"])["readings"] == ["はっぽん", "はちほん"])
    #expect(endpoint.call("biki/read", ["text": "1日", "as": "date"])["reading"] == "ついたち")
    #expect(endpoint.call("biki/read", ["text": "10分"])["readings"] == ["じゅっぷん", "じっぷん"])
  }

  @Test func statsReadTheHistory() {
    let history = AnswerHistory.memory([
      HistoryEntry(
        Session.AnswerRecord(
          topicID: "test.hon", seed: 1, skill: .kana, prompt: "8本", expected: "はっぽん", given: "はちほん", isCorrect: false,
          seconds: 3, forms: ReadingForms.of(8, counter: .hon)), at: 0),
      HistoryEntry(
        Session.AnswerRecord(
          topicID: "test.hon", seed: 1, skill: .kana, prompt: "8本", expected: "はっぽん", given: "はっぽん", isCorrect: true,
          seconds: 1), at: 0),
    ])
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(history: history))
    let stats = endpoint.call("biki/stats", ["topicId": "test.hon"])
    #expect(stats["total"]?["answers"] == 2)
    #expect(stats["total"]?["accuracy"] == .double(0.5))
    #expect(stats["mostMissed"]?.arrayValue?.first?["expected"] == "はっぽん")
    #expect(stats["mostMissed"]?.arrayValue?.first?["recentWrongAnswers"] == ["はちほん"])
    // A form is named by what it reads, as well as by its id.
    #expect(stats["forms"]?.arrayValue?.first?["form"] == "本/final:8")
    #expect(stats["forms"]?.arrayValue?.first?["label"] == "8本 はっぽん")
  }

  @Test func openSessionsAreBounded() {
    var endpoint = ServerFixtures.endpoint()
    for _ in 0..<QuizService.maximumOpenSessions { _ = endpoint.call("biki/startSession", ["topicId": "test.hon"]) }
    #expect(endpoint.failure("biki/startSession", ["topicId": "test.hon"])?.code == ResponseError.requestFailed)
    _ = endpoint.call("biki/endSession", ["sessionId": "s1"])
    #expect(endpoint.call("biki/startSession", ["topicId": "test.hon"])["sessionId"] != nil)
  }
}

/// Requests built to cost the server: huge ids, extreme parameters. Each gets its error
/// promptly and the server goes on.
@Suite struct HostileRequestTests {
  static let widePack = """
    {
      "format": 1, "id": "wide", "title": "Wide", "version": "1",
      "topics": [{
        "id": "n", "title": "N", "description": "d", "category": "number", "skills": ["reading"],
        "variables": { "n": { "range": { "min": 1, "max": 10 } } },
        "parameters": {
          "min": { "target": "n.min", "min": -9223372036854775807, "max": 10 },
          "max": { "target": "n.max", "min": 1, "max": 9223372036854775807 }
        },
        "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } }
      }]
    }
    """

  @Test func parametersWhoseSpaceOverflowsAreRefusedNamingTheField() {
    var endpoint = ServerFixtures.endpoint(
      ServerFixtures.dependencies(files: ServerFixtures.Files(["/packs/wide.json": Self.widePack])))
    let params: JSON = ["min": -9_223_372_036_854_775_807, "max": .integer(Int64.max)]
    for method in ["biki/startSession", "biki/generate"] {
      let error = endpoint.failure(method, ["topicId": "wide.n", "params": params])
      #expect(error?.code == ResponseError.invalidParams)
      #expect(error?.message.hasPrefix("\"params\": ") == true, "\(error?.message ?? "")")
    }
    let widest = endpoint.call(
      "biki/generate",
      ["topicId": "wide.n", "params": ["min": 0, "max": .integer(Int64.max - 1)], "seed": 1, "count": 2])
    #expect(widest["questions"]?.arrayValue?.count == 2)
  }

  @Test func aHugeUnknownTopicIDIsQuotedBriefly() {
    var endpoint = ServerFixtures.endpoint()
    let id = String(repeating: "a", count: 100_000) + "test.hon"
    let error = endpoint.failure("biki/startSession", ["topicId": .string(id)])
    #expect(error?.code == ResponseError.invalidParams)
    #expect((error?.message.count ?? .max) < 300)
    // A near miss still gets its suggestion, the same again when the id is sent again (from
    // what the catalog remembers of recent misses); an id near nothing gets none.
    for _ in 0..<2 {
      #expect(
        endpoint.failure("biki/generate", ["topicId": "test.hom"])?.message
          == #""topicId": no topic "test.hom"; did you mean "test.hon"?"#)
    }
    #expect(endpoint.failure("biki/generate", ["topicId": "zzz.qqq"])?.message == #""topicId": no topic "zzz.qqq""#)
  }
}
