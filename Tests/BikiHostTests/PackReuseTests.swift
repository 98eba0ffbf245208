import BikiPacks
import Testing

@testable import BikiHost
@testable import BikiPacks

/// A reload reuses what it loaded before from the same text: a server checking its user's
/// packs again as lint does holds one copy of each topic, not two, and an unchanged file is
/// not compiled again.
@Suite struct PackReuseTests {
  /// Two topics: 本 1–500, clean; and any month and day, whose 2月30日 (question 60 of 372)
  /// lint's check of every question finds and a check of 64 misses.
  static let pack = #"""
    {"format": 1, "id": "mix", "title": "Mix", "version": "1.0.0",
     "topics": [{"id": "hon", "title": "本", "description": "Long things.", "category": "counter", "skills": ["kana"],
                 "variables": {"n": {"range": {"min": 1, "max": 500}}},
                 "question": {"parts": [{"number": "n", "counter": "hon"}], "answer": {"value": "n", "postfix": "本"}}},
                {"id": "md", "title": "Month and day", "description": "Any month, any day.", "category": "dateTime", "skills": ["reading"],
                 "variables": {"m": {"range": {"min": 1, "max": 12}}, "d": {"range": {"min": 1, "max": 31}}},
                 "question": {"parts": [{"number": "m", "counter": "月"}, {"number": "d", "counter": "dayOfMonth"}], "answer": {"value": "d", "postfix": "日"}}}]}
    """#

  static func load(_ text: String, userCheck: ReadingCheck?, reusing earlier: PackLoad? = nil) -> PackLoad {
    let fileSystem = FileSystem.memory(["/p/mix.json": Array(text.utf8)])
    return PackLoader(fileSystem: fileSystem, check: .startUp, userCheck: userCheck)
      .load(files: ["/p/mix.json"], reusing: earlier)
  }

  static func topic(_ load: PackLoad, _ id: String) -> CompiledTopic? {
    load.topics.first { $0.topic.topic.id == id }?.topic
  }

  static func rules(_ load: PackLoad) -> [String] { load.diagnostics(for: "/p/mix.json").map(\.rule) }

  @Test func aQuickLoadCheckedAgainKeepsItsTopicsThatPass() throws {
    let quick = Self.load(Self.pack, userCheck: nil)
    #expect(quick.topics.map(\.topic.topic.id) == ["mix.hon", "mix.md"])
    #expect(Self.rules(quick).isEmpty)
    let checked = Self.load(Self.pack, userCheck: .thorough, reusing: quick)
    // What lint finds, as a load from nothing finds it.
    let fresh = Self.load(Self.pack, userCheck: .thorough)
    #expect(Self.rules(checked) == ["unreadable-value"])
    #expect(Self.rules(checked) == Self.rules(fresh))
    #expect(checked.packs[0].compilation.readingCoverage.checked == fresh.packs[0].compilation.readingCoverage.checked)
    #expect(checked.topics.map(\.topic.topic.id) == ["mix.hon"])
    // The topic that passes is the one being served, not a second copy.
    let served = try #require(Self.topic(quick, "mix.hon"))
    #expect(try #require(Self.topic(checked, "mix.hon")).defaultLayout === served.defaultLayout)
    #expect(try #require(Self.topic(fresh, "mix.hon")).defaultLayout !== served.defaultLayout)
  }

  @Test func aFileCheckedAsThoroughlyAlreadyIsKeptAsItIs() throws {
    let checked = Self.load(Self.pack, userCheck: .thorough)
    let again = Self.load(Self.pack, userCheck: .thorough, reusing: checked)
    #expect(Self.rules(again) == Self.rules(checked))
    #expect(try #require(Self.topic(again, "mix.hon")).defaultLayout === Self.topic(checked, "mix.hon")?.defaultLayout)
    // A quick load after a thorough one keeps the thorough findings: the file passed more.
    let quick = Self.load(Self.pack, userCheck: nil, reusing: checked)
    #expect(Self.rules(quick) == ["unreadable-value"])
  }

  @Test func anEditedFileIsCompiledAfresh() throws {
    let quick = Self.load(Self.pack, userCheck: nil)
    let edited = Self.pack.replacingOccurrences(of: #""max": 500"#, with: #""max": 400"#)
    let reloaded = Self.load(edited, userCheck: .thorough, reusing: quick)
    let hon = try #require(Self.topic(reloaded, "mix.hon"))
    #expect(hon.defaultLayout !== Self.topic(quick, "mix.hon")?.defaultLayout)
    #expect(try hon.generator().spaceSize == 400)
  }
}
