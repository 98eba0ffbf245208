import Testing

@testable import BikiHost

@Suite struct HostSetupTests {
  @Test func stateLivesUnderXDGStateHomeOrHome() {
    let files = FileSystem.memory([:])
    #expect(
      HostSetup(fileSystem: files, environment: ["XDG_STATE_HOME": "/s"], executable: "/x/biki").historyPath
        == "/s/biki/history.jsonl")
    #expect(
      HostSetup(fileSystem: files, environment: ["HOME": "/h"], executable: "/x/biki").historyPath
        == "/h/.local/state/biki/history.jsonl")
    // Relative values are not a place: nothing is kept rather than kept somewhere surprising.
    let nowhere = HostSetup(
      fileSystem: files, environment: ["HOME": "h", "XDG_STATE_HOME": "s"], executable: "/x/biki")
    #expect(nowhere.historyPath == nil)
    #expect(nowhere.pluginLogPath == "/dev/null")
  }

  @Test func theCatalogListsCategoriesInCountBikisOrder() {
    func pack(_ id: String, _ category: String) -> [UInt8] {
      Array(
        """
        {"format": 1, "id": "\(id)", "title": "T", "version": "1", "topics": [
          {"id": "t", "title": "T", "description": "D.", "category": "\(category)", "skills": ["kana"],
           "variables": {"n": {"range": {"min": 1, "max": 20}}},
           "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}]}
        """.utf8)
    }
    let files = FileSystem.memory([
      "/repo/TopicPacks/a.json": pack("a", "counter"), "/repo/TopicPacks/b.json": pack("b", "money"),
      "/repo/TopicPacks/numbers.json": pack("numbers", "number"),
    ])
    let host = HostSetup(fileSystem: files, environment: [:], executable: "/repo/.build/debug/biki")
    let (packs, registry) = host.loadCatalog(workerExecutable: "/repo/.build/debug/biki", now: { 0 })
    #expect(packs.packs.count == 3)
    #expect(registry.topics.map(\.topic.id) == ["numbers.t", "b.t", "a.t"])
  }
}
