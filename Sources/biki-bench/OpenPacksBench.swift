import BikiJSON
import Foundation

/// `biki serve` as a pack author's editor keeps it: 200 packs of the user's own, each open in
/// the editor and checked, then loaded again; its resident memory then.
struct OpenPacksBench {
  let executable: String
  static let packs = 200

  /// A pack of five counter topics, `id` its own, about 2.7 KB, as an author writes one.
  static func pack(_ id: String) -> String {
    let topics = ["本", "枚", "匹", "台", "冊"].enumerated().map { index, counter in
      """
          {
            "id": "t\(index)", "title": "\(counter) \(index)", "description": "8\(counter) and 3\(counter), counted.",
            "category": "counter", "skills": ["listening", "reading", "kana"],
            "variables": { "n": { "range": { "min": 1, "max": 100 } } },
            "parameters": { "max": { "target": "n.max", "min": 2, "max": 1000, "description": "Largest count" } },
            "question": { "parts": [{ "number": "n", "counter": "\(counter)" }], "answer": { "value": "n", "postfix": "\(counter)" } }
          }
      """
    }
    return """
      {
        "$schema": "biki-pack.schema.json",
        "format": 1, "id": "\(id)", "title": "Mine \(id)", "version": "1.0.0",
        "topics": [
      \(topics.joined(separator: ",\n"))
        ]
      }
      """
  }

  func run() throws -> [String] {
    let data = NSTemporaryDirectory() + "biki-bench-packs-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: data) }
    let directory = data + "/biki/packs"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var documents: [(uri: String, text: String)] = []
    for index in 0..<Self.packs {
      let path = directory + "/mine\(index).json"
      let text = Self.pack("mine\(index)")
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      documents.append(("file://" + path, text))
    }
    setenv("XDG_DATA_HOME", data, 1)
    defer { unsetenv("XDG_DATA_HOME") }
    let server = try ServerBench.Server(executable: executable)
    server.send(ServerBench.request(0, "initialize", #"{"capabilities":{}}"#))
    try ServerBench.requireResult(server.receive())
    var frames: [UInt8] = []
    for document in documents {
      let item = JSON.object(pairs: [
        ("uri", .string(document.uri)), ("languageId", "json"), ("version", 1), ("text", .string(document.text)),
      ])
      frames += ServerBench.frame(
        JSON.object(pairs: [
          ("jsonrpc", "2.0"), ("method", "textDocument/didOpen"), ("params", ["textDocument": item]),
        ]).serialized)
    }
    server.send(frames)
    // Every document's diagnostics, then a reload of all 200 as lint checks them.
    func awaitDiagnostics() throws {
      var published = Set<String>()
      var errors = 0
      while published.count < documents.count {
        let message = try JSONParser.value(server.receive())
        guard message["method"]?.stringValue == "textDocument/publishDiagnostics",
          let uri = message["params"]?["uri"]?.stringValue
        else { continue }
        published.insert(uri)
        errors += message["params"]?["diagnostics"]?.arrayValue?.count ?? 0
      }
      guard errors == 0 else { throw BenchFailure("the 200 packs have \(errors) diagnostics; they should have none") }
    }
    try awaitDiagnostics()
    // A reload checks every open document again against the catalog it made.
    server.send(ServerBench.request(1, "biki/reloadPacks", nil))
    try awaitDiagnostics()
    // At rest: the server gives freed memory back off its loop once a run of work ends.
    Thread.sleep(forTimeInterval: 0.5)
    let resident = server.residentKilobytes
    server.stop()
    let megabytes = Double(resident) / 1024
    return [
      "serve.memory.open-packs: \(String(format: "%.1f", megabytes)) MB resident with \(Self.packs) of the user's packs open and checked  (target < 50 MB: \(megabytes < 50 ? "met" : "NOT met"))  [VmRSS 0.5 s after a reload and every document's diagnostics again]"
    ]
  }
}
