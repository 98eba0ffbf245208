import BikiHost
import BikiPacks
import Testing

@Suite struct PackSearchPathsTests {
  @Test func standardPathsFollowXDGAndBikiPackPath() {
    let paths = PackSearchPaths.standard(
      environment: ["HOME": "/home/ada", "BIKI_PACK_PATH": "/opt/packs::/srv/packs"], builtIn: "/repo/TopicPacks", extra: ["./mine"])
    #expect(paths.directories == ["/repo/TopicPacks", "/home/ada/.local/share/biki/packs", "/opt/packs", "/srv/packs", "./mine"])
    let xdg = PackSearchPaths.standard(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/data"], builtIn: nil)
    #expect(xdg.directories == ["/data/biki/packs"])
  }

  @Test(arguments: [
    ([:], nil, nil),
    (["HOME": "/home/ada"], "/home/ada/.local/share", "/home/ada/.local/state"),
    (["HOME": "/home/ada/", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state/"], "/data", "/state"),
    // Relative or empty values are ignored, as the XDG Base Directory Specification says.
    (["HOME": "/home/ada", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": ""], "/home/ada/.local/share", "/home/ada/.local/state"),
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
    let plugins = PluginSearchPaths.standard(environment: ["HOME": "/h", "BIKI_PLUGIN_PATH": "lib:/opt/lib"], installation: nil)
    #expect(plugins.directories == ["/h/.local/share/biki/plugins", "/opt/lib"])
  }

  @Test func aCheckoutsPacksAreFoundAboveTheExecutable() {
    let fileSystem = FileSystem.memory(["/repo/TopicPacks/numbers.json": [], "/repo/.build/debug/libbiki-calendar.so": [], "/repo/.build/debug/libBikiCore.so": []])
    let checkout = Installation.locate(executable: "/repo/.build/debug/biki", environment: [:], fileSystem: fileSystem)
    #expect(checkout == Installation(binDirectory: "/repo/.build/debug", packs: "/repo/TopicPacks", plugins: "/repo/.build/debug", pluginNamePrefix: "libbiki-"))
    #expect(PluginSearchPaths.standard(environment: [:], installation: checkout).libraries(fileSystem: fileSystem) == ["/repo/.build/debug/libbiki-calendar.so"])
    #expect(Installation.locate(executable: "/repo/.build/debug/biki", environment: ["BIKI_BUILTIN_PACKS": "/x"], fileSystem: fileSystem).packs == "/x")
    #expect(Installation.locate(executable: "/elsewhere/biki", environment: [:], fileSystem: fileSystem).packs == nil)
  }

  @Test func anInstalledBikiFindsItsPrefix() {
    let fileSystem = FileSystem.memory([
      "/opt/biki/share/biki/packs/numbers.json": [], "/opt/biki/lib/biki/plugins/calendar.so": [], "/opt/biki/bin/biki": [],
    ])
    let installed = Installation.locate(executable: "/opt/biki/bin/biki", environment: [:], fileSystem: fileSystem)
    #expect(installed == Installation(binDirectory: "/opt/biki/bin", packs: "/opt/biki/share/biki/packs", plugins: "/opt/biki/lib/biki/plugins", pluginNamePrefix: ""))
    #expect(PluginSearchPaths.standard(environment: [:], installation: installed).libraries(fileSystem: fileSystem) == ["/opt/biki/lib/biki/plugins/calendar.so"])
  }
}

@Suite struct PackLoaderTests {
  static func pack(id: String, topic: String = "t") -> [UInt8] {
    Array("""
      {"format": 1, "id": "\(id)", "title": "T", "version": "1", "topics": [
        {"id": "\(topic)", "title": "T", "description": "D.", "category": "number", "skills": ["kana"],
         "variables": {"n": {"range": {"min": 1, "max": 20}}},
         "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}]}
      """.utf8)
  }

  @Test func directoriesYieldTheirPackFilesInNameOrder() throws {
    let fileSystem = FileSystem.memory([
      "/p/b.json": Self.pack(id: "b"), "/p/a.json": Self.pack(id: "a"), "/p/biki-pack.schema.json": [], "/p/notes.txt": [],
      "/p/.hidden.json": [],
    ])
    let loader = PackLoader(fileSystem: fileSystem)
    #expect(try loader.packFiles(in: ["/p", "/missing"], requireExistence: false) == ["/p/a.json", "/p/b.json"])
    #expect(throws: PackLoaderError.notFound("/missing")) { try loader.packFiles(in: ["/missing"], requireExistence: true) }
  }

  @Test func aBrokenPackNeverKeepsTheOthersFromLoading() {
    let fileSystem = FileSystem.memory(["/p/a.json": Self.pack(id: "a"), "/p/broken.json": Array("{\"format\": ".utf8)])
    let load = PackLoader(fileSystem: fileSystem).load(files: ["/p/a.json", "/p/broken.json"])
    #expect(load.topics.map(\.topic.topic.id) == ["a.t"])
    #expect(load.diagnostics(for: "/p/broken.json").map(\.rule) == ["json-syntax"])
  }

  @Test func aTopicIdInTwoPacksOfEqualPrecedenceLoadsTheFirstAndIsAnErrorInTheOther() {
    let fileSystem = FileSystem.memory([
      "/p/one.json": Self.pack(id: "same"), "/q/two.json": Self.pack(id: "same"), "/q/other.json": Self.pack(id: "other"),
    ])
    let load = PackLoader(fileSystem: fileSystem).load(files: ["/p/one.json", "/q/two.json", "/q/other.json"])
    #expect(load.topics.map(\.topic.topic.id) == ["same.t", "other.t"])
    #expect(load.topics.first?.path == "/p/one.json")
    #expect(load.diagnostics(for: "/p/one.json").map(\.severity) == [.warning])
    #expect(load.diagnostics(for: "/q/two.json").map(\.severity) == [.error])
    #expect(load.diagnostics(for: "/q/two.json").first?.message.contains("/p/one.json:2:") == true)
  }

  /// Whatever the load order: the file given over the user's, and the user's over the built-in.
  @Test(arguments: [["/given/a.json", "/user/a.json", "/builtin/a.json"], ["/builtin/a.json", "/user/a.json", "/given/a.json"]])
  func precedenceDecidesWhichDefinitionServes(order: [String]) {
    let fileSystem = FileSystem.memory(Dictionary(uniqueKeysWithValues: order.map { ($0, Self.pack(id: "same")) }))
    let paths = PackSearchPaths(directories: ["/builtin", "/user", "/given"], builtIn: "/builtin", given: ["/given"])
    let load = PackLoader(fileSystem: fileSystem).load(files: order, precedence: paths.precedence(of:))
    #expect(load.topics.map(\.path) == ["/given/a.json"])
    #expect(load.diagnostics(for: "/given/a.json").isEmpty)
    for loser in ["/user/a.json", "/builtin/a.json"] {
      #expect(load.diagnostics(for: loser).map(\.rule) == ["overridden-topic"])
      #expect(load.diagnostics(for: loser).map(\.severity) == [.warning])
    }
  }

  @Test func aFileThatCannotBeReadIsReported() {
    let load = PackLoader(fileSystem: .memory([:])).load(files: ["/gone.json"])
    #expect(load.diagnostics(for: "/gone.json").map(\.rule) == ["unreadable-file"])
  }
}
