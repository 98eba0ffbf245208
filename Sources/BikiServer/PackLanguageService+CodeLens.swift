import BikiCore
import BikiJSON
import BikiProtocol

/// A lens over each topic of an open pack that samples its questions: the author sees what the
/// rules make from the text being edited, saved or not. The samples are those of the document's
/// last finished check, so running the command never compiles on the message loop.
extension PackLanguageService {
  static let lensSamples = 8

  func codeLenses(_ request: CodeLensRequest) -> JSON {
    guard let pack = documents[request.uri]?.compilation?.pack else { return [] }
    return .array(
      pack.topics.map { topic in
        let id = "\(pack.id.value).\(topic.id.value)"
        return [
          "range": WireFormat.range(topic.id.range),
          "command": [
            "title": "▶ Sample questions", "command": .string(ExecuteCommandRequest.sample),
            "arguments": [.string(request.uri), .string(id)],
          ],
        ]
      })
  }

  /// `biki.sample`: questions of a topic in an open pack, returned and shown as a message.
  func executeCommand(_ request: ExecuteCommandRequest, outbox: inout [OutgoingMessage]) throws(ResponseError) -> JSON {
    guard let compilation = documents[request.uri]?.compilation else {
      throw .requestFailed("\(Excerpt.of(request.uri, limit: 200)) is not open, or not checked yet")
    }
    guard let compiled = compilation.topics.first(where: { $0.topic.id == request.topicID }) else {
      throw .requestFailed(
        "no topic \"\(Excerpt.of(request.topicID, limit: 80))\" without errors in \(Excerpt.of(request.uri, limit: 200)); fix its diagnostics first"
      )
    }
    let generator: QuestionGenerator
    do {
      generator = try compiled.generator()
    } catch {
      throw .requestFailed("\(request.topicID) cannot make questions: \(error)")
    }
    var order = generator.order(seed: 0)
    let samples = generator.questions(
      seeds: (0..<min(UInt64(Self.lensSamples), generator.spaceSize)).map { _ in order.next() })
    var questions: [JSON] = []
    var lines = ["\(request.topicID): \(generator.spaceSize) questions; a sample:"]
    for case .success(let question) in samples {
      questions.append([
        "display": .string(question.display), "kanjiDisplay": .string(question.kanjiDisplay),
        "reading": .string(question.reading.standard), "readings": .array(question.reading.all().map(JSON.string)),
      ])
      lines.append(
        "  \(question.display)  \(question.kanjiDisplay)  \(question.reading.all().joined(separator: " / "))")
    }
    outbox.append(
      .notification(
        method: "window/showMessage", params: ["type": 3, "message": .string(lines.joined(separator: "\n"))]))
    return ["topicId": .string(request.topicID), "questions": .array(questions)]
  }
}
