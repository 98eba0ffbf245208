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
    let plugins = PluginSearchPaths.standard(environment: ["HOME": "/h", "BIKI_PLUGIN_PATH": "lib:/opt/lib"], buildDirectory: nil)
    #expect(plugins.directories == ["/h/.local/share/biki/plugins", "/opt/lib"])
  }

  @Test func theBuiltInDirectoryIsFoundAboveTheExecutable() {
    let fileSystem = FileSystem.memory(["/repo/TopicPacks/numbers.json": []])
    #expect(PackSearchPaths.builtInDirectory(executable: "/repo/.build/debug/biki", environment: [:], fileSystem: fileSystem) == "/repo/TopicPacks")
    #expect(PackSearchPaths.builtInDirectory(executable: "/repo/.build/debug/biki", environment: ["BIKI_BUILTIN_PACKS": "/x"], fileSystem: fileSystem) == "/x")
    #expect(PackSearchPaths.builtInDirectory(executable: "/elsewhere/biki", environment: [:], fileSystem: fileSystem) == nil)
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

  @Test func aTopicIdInTwoPacksIsAnErrorInBothAndLoadsFromNeither() {
    let fileSystem = FileSystem.memory([
      "/p/one.json": Self.pack(id: "same"), "/q/two.json": Self.pack(id: "same"), "/q/other.json": Self.pack(id: "other"),
    ])
    let load = PackLoader(fileSystem: fileSystem).load(files: ["/p/one.json", "/q/two.json", "/q/other.json"])
    #expect(load.topics.map(\.topic.topic.id) == ["other.t"])
    #expect(load.diagnostics(for: "/p/one.json").map(\.rule) == ["duplicate-topic-id"])
    #expect(load.diagnostics(for: "/q/two.json").first?.message.contains("/p/one.json:2:") == true)
  }

  @Test func aFileThatCannotBeReadIsReported() {
    let load = PackLoader(fileSystem: .memory([:])).load(files: ["/gone.json"])
    #expect(load.diagnostics(for: "/gone.json").map(\.rule) == ["unreadable-file"])
  }
}
