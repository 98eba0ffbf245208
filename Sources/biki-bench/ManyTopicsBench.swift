import BikiJSON
import Foundation

/// `biki serve` with 100,000 topics of the user's own in one pack directory (100 packs of 1,000
/// counter topics): how soon the first question is answered after `initialize`, and the most
/// memory the server held, at the first answer and once its check of every pack as lint checks
/// them has settled.
struct ManyTopicsBench {
  let executable: String
  static let packs = 100
  static let topicsPerPack = 1000

  static func pack(_ index: Int) -> String {
    let counters = ["本", "枚", "匹", "台", "冊"]
    let topics = (0..<topicsPerPack).map { topic in
      let counter = counters[topic % counters.count]
      return """
            {"id": "t\(topic)", "title": "\(counter) \(topic)", "category": "counter", "skills": ["listening", "reading", "kana"],
             "variables": {"n": {"range": {"min": 1, "max": \(10 + topic % 90)}}},
             "question": {"parts": [{"number": "n", "counter": "\(counter)"}], "answer": {"value": "n", "postfix": "\(counter)"}}}
        """
    }
    return """
      {"format": 1, "id": "many\(index)", "title": "Many \(index)", "version": "1.0.0", "topics": [
      \(topics.joined(separator: ",\n"))
      ]}
      """
  }

  /// The server's peak resident memory so far, in MB.
  static func peak(_ server: ServerBench.Server) -> Double { Double(server.peakKilobytes) / 1024 }

  func run(seconds: () -> Double) throws -> [String] {
    let data = NSTemporaryDirectory() + "biki-bench-many-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: data) }
    let directory = data + "/biki/packs"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for index in 0..<Self.packs {
      try Self.pack(index).write(toFile: directory + "/many\(index).json", atomically: true, encoding: .utf8)
    }
    setenv("XDG_DATA_HOME", data, 1)
    defer { unsetenv("XDG_DATA_HOME") }
    let server = try ServerBench.Server(executable: executable)
    defer { server.stop() }
    server.send(ServerBench.initialize)
    try ServerBench.requireResult(server.receive())
    let initialized = seconds()
    server.send(ServerBench.frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#))
    server.send(ServerBench.request(1, "biki/generate", #"{"topicId":"many99.t999","seed":1,"count":1}"#))
    try ServerBench.requireResult(server.receive())
    let firstAnswer = seconds() - initialized
    let atFirst = Self.peak(server)
    // The server then checks the user's packs as lint does, off the loop: the peak once that
    // has settled (no new peak for 10 s, at most 3 minutes).
    var settled = Self.peak(server)
    var quiet = 0.0
    let started = seconds()
    while quiet < 10, seconds() - started < 180 {
      Thread.sleep(forTimeInterval: 1)
      let now = Self.peak(server)
      quiet = now > settled ? 0 : quiet + 1
      settled = max(settled, now)
    }
    let afterReload = settled
    return [
      String(
        format:
          "serve.many-topics: first answer %.2f s after the initialize reply  (target ≤ 2 s: %@); peak resident %.0f MB by then, %.0f MB once its check of every pack settled  (target ≤ 400 MB: %@)  [%d user packs of %d topics]",
        firstAnswer, firstAnswer <= 2 ? "met" : "NOT met", atFirst, afterReload,
        max(atFirst, afterReload) <= 400 ? "met" : "NOT met", Self.packs, Self.topicsPerPack)
    ]
  }
}
