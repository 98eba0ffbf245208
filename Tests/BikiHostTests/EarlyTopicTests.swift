import BikiCore
import BikiPacks
import Foundation
import Synchronization
import Testing

@testable import BikiHost

/// A topic asked for while the packs load is served from the files that could define it,
/// before the rest are compiled, and it is the topic the whole load serves: the same file by
/// the same precedence, the same compiled topic.
@Suite struct EarlyTopicTests {
  static func pack(id: String, topics: [String], category: String = "number", keyBefore: String = "") -> [UInt8] {
    let topics = topics.map { topic in
      """
      {"id": "\(topic)", "title": "T", "description": "D.", "category": "\(category)", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 1, "max": 20}}},
       "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}
      """
    }
    return Array(
      """
      {\(keyBefore)"format": 1, "title": "T {\\"}", "version": "1", "topics": [\(topics.joined(separator: ", "))],
       "id": "\(id)"}
      """.utf8)
  }

  /// Every kind of file that settles which copy of an id serves: copies of one pack at each
  /// precedence and twice at one, a copy whose topic fails, a pack whose id begins another's,
  /// and one whose id is spelled with an escape, which cannot be read without parsing.
  static let files: [(String, [UInt8])] = [
    ("/builtin/numbers.json", pack(id: "numbers", topics: ["a", "b", "c"])),
    ("/builtin/num.json", pack(id: "num", topics: ["a"])),
    ("/user/numbers.json", pack(id: "numbers", topics: ["b"])),
    ("/user/numbers-again.json", pack(id: "numbers", topics: ["b", "d"])),
    ("/given/numbers.json", pack(id: "numbers", topics: ["c"], category: "numbr")),
    (
      "/user/escaped.json",
      Array(
        #"{"format": 1, "\u0069d": "numbers", "title": "T", "version": "1", "topics": [{"id": "e", "title": "T", "description": "D.", "category": "number", "skills": ["kana"], "variables": {"n": {"range": {"min": 1, "max": 20}}}, "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}]}"#
          .utf8)
    ),
    ("/user/broken.json", Array(#"{"id": "numbers", "topics": [{"id": "f""#.utf8)),
  ]

  static func compiling() -> PackCompiling {
    let paths = PackSearchPaths(directories: ["/builtin", "/user", "/given"], builtIn: "/builtin", given: ["/given"])
    return PackLoader(fileSystem: .memory(Dictionary(uniqueKeysWithValues: files)))
      .compiling(files: files.map(\.0), precedence: paths.precedence(of:))
  }

  @Test func everyTopicAskedForEarlyIsTheOneTheWholeLoadServes() {
    let whole = Self.compiling().finish()
    #expect(whole.topics.count == 6)
    for (topic, path) in whole.topics {
      let early = Self.compiling().settling(topic.topic.id)
      let served = early.topics.filter { $0.topic.topic.id == topic.topic.id }
      #expect(served.map(\.path) == [path], "\(topic.topic.id)")
    }
    let served = Dictionary(uniqueKeysWithValues: whole.topics.map { ($0.topic.topic.id, $0.path) })
    #expect(
      served == [
        "numbers.a": "/builtin/numbers.json", "numbers.b": "/user/numbers.json",
        "numbers.c": "/builtin/numbers.json", "numbers.d": "/user/numbers-again.json",
        "numbers.e": "/user/escaped.json", "num.a": "/builtin/num.json",
      ])
  }

  @Test func aTopicSettledEarlyIsTheWholeLoadsOwnCopy() {
    let compiling = Self.compiling()
    let early = compiling.settling("numbers.b").topics.first { $0.topic.topic.id == "numbers.b" }
    let whole = compiling.finish().topics.first { $0.topic.topic.id == "numbers.b" }
    #expect(early != nil)
    #expect(early?.topic === whole?.topic)
  }

  @Test func anIdNoPackDefinesSettlesToNothing() {
    for id in ["numbers.z", "nu.a", "numbers", "", "numbers.", ".a", "num"] {
      #expect(!Self.compiling().settling(id).topics.contains { $0.topic.topic.id == id }, "\(id)")
    }
  }

  /// The files that cannot define the id are left for the rest of the load.
  @Test func onlyTheFilesThatCouldDefineTheIdAreCompiled() {
    let compiled = Mutex<[String]>([])
    let files = [
      ("/p/a.json", Self.pack(id: "a", topics: ["t"])), ("/p/b.json", Self.pack(id: "b", topics: ["t"])),
      ("/p/c.json", Self.pack(id: "c", topics: ["t"])),
    ]
    var fileSystem = FileSystem.memory(Dictionary(uniqueKeysWithValues: files))
    let read = fileSystem.read
    fileSystem.read = { path in
      compiled.withLock { $0.append(path) }
      return try read(path)
    }
    let compiling = PackLoader(fileSystem: fileSystem).compiling(files: files.map(\.0))
    let early = compiling.settling("b.t")
    #expect(early.packs.map(\.path) == ["/p/b.json"])
    // Each file read once, by the scan or its compilation.
    #expect(compiled.withLock { $0 }.sorted() == files.map(\.0))
    #expect(compiling.finish().topics.map(\.path) == files.map(\.0))
    #expect(compiled.withLock { $0 }.count == 3)
  }
}
