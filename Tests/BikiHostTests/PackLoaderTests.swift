import BikiPacks
import Foundation
import Testing

@testable import BikiHost

@Suite struct PackSearchPathsTests {
  @Test func standardPathsFollowXDGAndBikiPackPath() {
    let paths = PackSearchPaths.standard(
      environment: ["HOME": "/home/ada", "BIKI_PACK_PATH": "/opt/packs::/srv/packs"], builtIn: "/repo/TopicPacks",
      extra: ["./mine"])
    #expect(
      paths.directories == [
        "/repo/TopicPacks", "/home/ada/.local/share/biki/packs", "/opt/packs", "/srv/packs", "./mine",
      ])
    let xdg = PackSearchPaths.standard(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/data"], builtIn: nil)
    #expect(xdg.directories == ["/data/biki/packs"])
  }

  @Test(
    arguments: [
      ([:], nil, nil),
      (["HOME": "/home/ada"], "/home/ada/.local/share", "/home/ada/.local/state"),
      (["HOME": "/home/ada/", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state/"], "/data", "/state"),
      // Relative or empty values are ignored, as the XDG Base Directory Specification says.
      (
        ["HOME": "/home/ada", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": ""], "/home/ada/.local/share",
        "/home/ada/.local/state"
      ),
      (["HOME": "~", "XDG_DATA_HOME": "./x"], nil, nil),
      (["HOME": "", "XDG_STATE_HOME": "/state"], nil, "/state"),
    ] as [([String: String], String?, String?)])
  func xdgDirectoriesAreNeverRelative(_ environment: [String: String], _ data: String?, _ state: String?) {
    let directories = XDGDirectories(environment: environment)
    #expect(directories.dataHome == data)
    #expect(directories.stateHome == state)
  }

  @Test func relativeEntriesOfSearchPathVariablesAreIgnored() {
    let paths = PackSearchPaths.standard(environment: ["BIKI_PACK_PATH": "packs:/opt/packs:./x:~/p"], builtIn: nil)
    #expect(paths.directories == ["/opt/packs"])
    let plugins = PluginSearchPaths.standard(
      environment: ["HOME": "/h", "BIKI_PLUGIN_PATH": "lib:/opt/lib"], installation: nil)
    #expect(plugins.directories == ["/h/.local/share/biki/plugins", "/opt/lib"])
  }

  @Test func aCheckoutsPacksAreFoundAboveTheExecutable() {
    let fileSystem = FileSystem.memory([
      "/repo/TopicPacks/numbers.json": [], "/repo/.build/debug/libbiki-calendar.so": [],
      "/repo/.build/debug/libBikiCore.so": [],
    ])
    let checkout = Installation.locate(executable: "/repo/.build/debug/biki", environment: [:], fileSystem: fileSystem)
    #expect(
      checkout
        == Installation(
          binDirectory: "/repo/.build/debug", packs: "/repo/TopicPacks", plugins: "/repo/.build/debug",
          pluginNamePrefix: "libbiki-"))
    #expect(
      PluginSearchPaths.standard(environment: [:], installation: checkout).libraries(fileSystem: fileSystem) == [
        "/repo/.build/debug/libbiki-calendar.so"
      ])
    #expect(
      Installation.locate(
        executable: "/repo/.build/debug/biki", environment: ["BIKI_BUILTIN_PACKS": "/x"], fileSystem: fileSystem
      ).packs == "/x")
    #expect(Installation.locate(executable: "/elsewhere/biki", environment: [:], fileSystem: fileSystem).packs == nil)
  }

  @Test func anInstalledBikiFindsItsPrefix() {
    let fileSystem = FileSystem.memory([
      "/opt/biki/share/biki/built-in-packs/numbers.json": [], "/opt/biki/lib/biki/plugins/calendar.so": [],
      "/opt/biki/bin/biki": [],
    ])
    let installed = Installation.locate(executable: "/opt/biki/bin/biki", environment: [:], fileSystem: fileSystem)
    #expect(
      installed
        == Installation(
          binDirectory: "/opt/biki/bin", packs: "/opt/biki/share/biki/built-in-packs",
          plugins: "/opt/biki/lib/biki/plugins",
          pluginNamePrefix: ""))
    #expect(
      PluginSearchPaths.standard(environment: [:], installation: installed).libraries(fileSystem: fileSystem) == [
        "/opt/biki/lib/biki/plugins/calendar.so"
      ])
  }
}

@Suite struct PackLoaderTests {
  static func pack(id: String, topic: String = "t") -> [UInt8] {
    Array(
      """
      {"format": 1, "id": "\(id)", "title": "T", "version": "1", "topics": [
        {"id": "\(topic)", "title": "T", "description": "D.", "category": "number", "skills": ["kana"],
         "variables": {"n": {"range": {"min": 1, "max": 20}}},
         "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}]}
      """.utf8)
  }

  @Test func directoriesYieldTheirPackFilesInNameOrder() throws {
    let fileSystem = FileSystem.memory([
      "/p/b.json": Self.pack(id: "b"), "/p/a.json": Self.pack(id: "a"), "/p/biki-pack.schema.json": [],
      "/p/notes.txt": [],
      "/p/.hidden.json": [],
    ])
    let loader = PackLoader(fileSystem: fileSystem)
    #expect(try loader.packFiles(in: ["/p", "/missing"], requireExistence: false) == ["/p/a.json", "/p/b.json"])
    #expect(throws: PackLoaderError.notFound("/missing")) {
      try loader.packFiles(in: ["/missing"], requireExistence: true)
    }
  }

  @Test func aBrokenPackNeverKeepsTheOthersFromLoading() {
    let fileSystem = FileSystem.memory(["/p/a.json": Self.pack(id: "a"), "/p/broken.json": Array("{\"format\": ".utf8)])
    let load = PackLoader(fileSystem: fileSystem).load(files: ["/p/a.json", "/p/broken.json"])
    #expect(load.topics.map(\.topic.topic.id) == ["a.t"])
    #expect(load.diagnostics(for: "/p/broken.json").map(\.rule) == ["json-syntax"])
  }

  @Test func aTopicIdInTwoPacksOfEqualPrecedenceLoadsTheFirstAndIsAnErrorInTheOther() {
    let fileSystem = FileSystem.memory([
      "/p/one.json": Self.pack(id: "same"), "/q/two.json": Self.pack(id: "same"),
      "/q/other.json": Self.pack(id: "other"),
    ])
    let load = PackLoader(fileSystem: fileSystem).load(files: ["/p/one.json", "/q/two.json", "/q/other.json"])
    #expect(load.topics.map(\.topic.topic.id) == ["same.t", "other.t"])
    #expect(load.topics.first?.path == "/p/one.json")
    #expect(load.diagnostics(for: "/p/one.json").map(\.severity) == [.warning])
    #expect(load.diagnostics(for: "/q/two.json").map(\.severity) == [.error])
    #expect(load.diagnostics(for: "/q/two.json").first?.message.contains("/p/one.json:2:") == true)
  }

  /// Whatever the load order: the file given over the user's, and the user's over the built-in.
  @Test(arguments: [
    ["/given/a.json", "/user/a.json", "/builtin/a.json"], ["/builtin/a.json", "/user/a.json", "/given/a.json"],
  ])
  func precedenceDecidesWhichDefinitionServes(order: [String]) {
    let fileSystem = FileSystem.memory(Dictionary(uniqueKeysWithValues: order.map { ($0, Self.pack(id: "same")) }))
    let paths = PackSearchPaths(directories: ["/builtin", "/user", "/given"], builtIn: "/builtin", given: ["/given"])
    let load = PackLoader(fileSystem: fileSystem).load(files: order, precedence: paths.precedence(of:))
    #expect(load.topics.map(\.path) == ["/given/a.json"])
    // The one that serves is told only that it takes a built-in topic's place.
    #expect(
      load.diagnostics(for: "/given/a.json").map(\.message) == [
        "topic id \"same.t\" is also built into Biki (/builtin/a.json:2:10); this one is used instead of it"
      ])
    for loser in ["/user/a.json", "/builtin/a.json"] {
      #expect(load.diagnostics(for: loser).map(\.rule) == ["overridden-topic"])
      #expect(load.diagnostics(for: loser).map(\.severity) == [.warning])
    }
  }

  /// A topic of one's own that replaces a built-in one is told so, naming the built-in file;
  /// a working copy that replaces one of the user's installed packs is not.
  @Test func theDefinitionThatServesInsteadOfABuiltInOneIsToldSo() {
    let fileSystem = FileSystem.memory([
      "/builtin/a.json": Self.pack(id: "same"), "/user/a.json": Self.pack(id: "same"),
      "/given/b.json": Self.pack(id: "other"), "/user/b.json": Self.pack(id: "other"),
    ])
    let paths = PackSearchPaths(directories: ["/builtin", "/user", "/given"], builtIn: "/builtin", given: ["/given"])
    let load = PackLoader(fileSystem: fileSystem).load(
      files: ["/builtin/a.json", "/user/a.json", "/user/b.json", "/given/b.json"], precedence: paths.precedence(of:))
    #expect(load.topics.map(\.path) == ["/user/a.json", "/given/b.json"])
    #expect(load.diagnostics(for: "/user/a.json").map(\.rule) == ["overridden-topic"])
    #expect(
      load.diagnostics(for: "/user/a.json").first?.message.contains("also built into Biki (/builtin/a.json:2:10)")
        == true)
    #expect(load.diagnostics(for: "/given/b.json").isEmpty)
    #expect(load.diagnostics(for: "/user/b.json").map(\.rule) == ["overridden-topic"])
  }

  /// A stale copy beside the good one, sorted first: a topic that fails in it (a typo in the
  /// topic, or a format the whole file cannot be read in) must not hide the copy that loads.
  @Test(arguments: [("\"category\": \"number\"", "\"category\": \"numbr\""), ("\"format\": 1", "\"format\": 9")])
  func aCopyThatFailsToLoadNeverHidesOneThatLoads(good: String, typo: String) {
    let broken = Array(
      String(decoding: Self.pack(id: "harbour", topic: "ships"), as: UTF8.self).replacingOccurrences(
        of: good, with: typo
      ).utf8)
    let fileSystem = FileSystem.memory([
      "/p/harbour-old.json": broken, "/p/harbour.json": Self.pack(id: "harbour", topic: "ships"),
    ])
    let load = PackLoader(fileSystem: fileSystem).load(files: ["/p/harbour-old.json", "/p/harbour.json"])
    #expect(load.topics.map(\.topic.topic.id) == ["harbour.ships"])
    #expect(load.topics.map(\.path) == ["/p/harbour.json"])
    // The good copy is never told the other one is loaded; the broken one, where its pack
    // decoded far enough to name the topic, is told which file serves instead.
    for message in load.diagnostics(for: "/p/harbour.json").map(\.message) {
      #expect(message.hasSuffix("this one is loaded"), "\(message)")
    }
    for message in load.diagnostics(for: "/p/harbour-old.json").filter({ $0.rule == "duplicate-topic-id" }).map(
      \.message)
    {
      #expect(
        message.contains("/p/harbour.json:2:") && message.hasSuffix("which is loaded instead of this one"), "\(message)"
      )
    }
  }

  @Test func aStaleCopyWithATypoInItsTopicIsToldWhichFileServes() {
    let broken = Array(
      String(decoding: Self.pack(id: "harbour", topic: "ships"), as: UTF8.self).replacingOccurrences(
        of: "\"category\": \"number\"", with: "\"category\": \"numbr\""
      ).utf8)
    let fileSystem = FileSystem.memory([
      "/p/harbour-old.json": broken, "/p/harbour.json": Self.pack(id: "harbour", topic: "ships"),
    ])
    let load = PackLoader(fileSystem: fileSystem).load(files: ["/p/harbour-old.json", "/p/harbour.json"])
    #expect(load.topics.map(\.path) == ["/p/harbour.json"])
    #expect(
      load.diagnostics(for: "/p/harbour.json").map(\.message) == [
        "topic id \"harbour.ships\" is also defined at /p/harbour-old.json:2:10; this one is loaded"
      ])
    #expect(
      load.diagnostics(for: "/p/harbour-old.json").filter { $0.rule == "duplicate-topic-id" }.map(\.message)
        == ["topic id \"harbour.ships\" is also defined at /p/harbour.json:2:10, which is loaded instead of this one"])
  }

  /// A working copy takes precedence, but not when its topic fails: the installed one serves.
  @Test func aBrokenCopyOfHigherPrecedenceNeverHidesOneThatLoads() {
    let broken = Array(
      String(decoding: Self.pack(id: "harbour", topic: "ships"), as: UTF8.self).replacingOccurrences(
        of: "\"category\": \"number\"", with: "\"category\": \"numbr\""
      ).utf8)
    let fileSystem = FileSystem.memory([
      "/given/harbour.json": broken, "/user/harbour.json": Self.pack(id: "harbour", topic: "ships"),
    ])
    let paths = PackSearchPaths(directories: ["/user", "/given"], builtIn: nil, given: ["/given"])
    let load = PackLoader(fileSystem: fileSystem).load(
      files: ["/given/harbour.json", "/user/harbour.json"], precedence: paths.precedence(of:))
    #expect(load.topics.map(\.path) == ["/user/harbour.json"])
    #expect(load.diagnostics(for: "/user/harbour.json").isEmpty)
    let stale = load.diagnostics(for: "/given/harbour.json").filter { $0.rule == "overridden-topic" }
    #expect(
      stale.map(\.message) == [
        "topic id \"harbour.ships\" does not load from this file, so /user/harbour.json:2:10 (one of your packs or plugins) is used instead"
      ])
  }

  /// Where the topic fails in every copy, none serves and none is told another one is loaded.
  @Test func whenNoCopyLoadsNoneClaimsAnotherIsLoaded() {
    let broken = Array(
      String(decoding: Self.pack(id: "harbour", topic: "ships"), as: UTF8.self).replacingOccurrences(
        of: "\"category\": \"number\"", with: "\"category\": \"numbr\""
      ).utf8)
    let fileSystem = FileSystem.memory(["/p/a.json": broken, "/p/b.json": broken])
    let load = PackLoader(fileSystem: fileSystem).load(files: ["/p/a.json", "/p/b.json"])
    #expect(load.topics.isEmpty)
    #expect(load.crossPackDiagnostics.isEmpty)
  }

  @Test func aFileThatCannotBeReadIsReported() {
    let load = PackLoader(fileSystem: .memory([:])).load(files: ["/gone.json"])
    #expect(load.diagnostics(for: "/gone.json").map(\.rule) == ["unreadable-file"])
  }
}
