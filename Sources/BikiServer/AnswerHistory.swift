import BikiCore
import BikiJSON
import BikiProtocol
import Foundation
import Synchronization

/// One answered question as the history keeps it: a line of JSON.
public struct HistoryEntry: Equatable, Sendable {
  /// Seconds since 1970, for the learner's own records.
  public var at: Double
  public var topicID: String
  public var seed: UInt64
  public var skill: Skill
  /// What the learner was shown.
  public var question: String
  /// The answer as revealed: `3本`, or the reading for the kana skill.
  public var expected: String
  public var given: String
  public var isCorrect: Bool
  /// The learner asked for the answer instead of giving one.
  public var skipped: Bool
  public var seconds: Double

  public init(
    at: Double, topicID: String, seed: UInt64, skill: Skill, question: String, expected: String, given: String, isCorrect: Bool,
    skipped: Bool = false, seconds: Double
  ) {
    self.at = at
    self.topicID = topicID
    self.seed = seed
    self.skill = skill
    self.question = question
    self.expected = expected
    self.given = given
    self.isCorrect = isCorrect
    self.skipped = skipped
    self.seconds = seconds
  }

  var json: JSON {
    [
      "at": .double(at), "topic": .string(topicID), "seed": .string(String(seed)), "skill": .string(skill.rawValue),
      "question": .string(question), "expected": .string(expected), "given": .string(given), "correct": .bool(isCorrect),
      "skipped": .bool(skipped), "seconds": .double(seconds),
    ]
  }

  init?(json: JSON) {
    guard let topicID = json["topic"]?.stringValue, let seed = json["seed"]?.stringValue.flatMap(UInt64.init),
      let skill = json["skill"]?.stringValue.flatMap(Skill.init), let given = json["given"]?.stringValue,
      let isCorrect = json["correct"]?.boolValue
    else { return nil }
    func number(_ key: String) -> Double {
      switch json[key] {
      case .double(let value)?: value
      case .integer(let value)?: Double(value)
      default: 0
      }
    }
    self.init(
      at: number("at"), topicID: topicID, seed: seed, skill: skill, question: json["question"]?.stringValue ?? "",
      expected: json["expected"]?.stringValue ?? "", given: given, isCorrect: isCorrect,
      skipped: json["skipped"]?.boolValue ?? false, seconds: number("seconds"))
  }
}

/// The history file's format: one JSON object per line, each line written whole and flushed
/// before the answer is acknowledged. A line cut short by a kill has no newline; it is dropped.
public enum HistoryFile {
  public struct Contents: Equatable, Sendable {
    public var entries: [HistoryEntry]
    public var warnings: [String]
    /// Bytes up to the end of the last complete line: where the next line must start.
    public var intactLength: Int
  }

  public static func parse(_ bytes: [UInt8], path: String) -> Contents {
    var entries: [HistoryEntry] = []
    var warnings: [String] = []
    var lineStart = 0
    var lineNumber = 1
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") {
        let line = bytes[lineStart..<index]
        if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
          if let node = try? JSONParser.parse(Array(line)), let entry = HistoryEntry(json: JSON(node)) {
            entries.append(entry)
          } else {
            warnings.append("\(path):\(lineNumber): skipped a line that is not an answer record")
          }
        }
        lineNumber += 1
        lineStart = index + 1
      }
      index += 1
    }
    if lineStart < bytes.count {
      warnings.append("\(path):\(lineNumber): dropped an unfinished last line (\(bytes.count - lineStart) bytes), left by an interrupted write")
    }
    return Contents(entries: entries, warnings: warnings, intactLength: lineStart)
  }

  public static func line(_ entry: HistoryEntry) -> [UInt8] {
    Array((entry.json.serialized + "\n").utf8)
  }
}

/// Where answers are kept. `file` is the only one that touches the disk.
public struct AnswerHistory: Sendable {
  /// Appends one entry durably: when this returns, the entry survives a kill or power loss.
  public var append: @Sendable (HistoryEntry) throws -> Void
  /// Every entry kept, and what was wrong with the rest.
  public var load: @Sendable () -> (entries: [HistoryEntry], warnings: [String])
  /// Where it is, for messages.
  public var location: String

  public init(
    location: String, append: @Sendable @escaping (HistoryEntry) throws -> Void,
    load: @Sendable @escaping () -> (entries: [HistoryEntry], warnings: [String])
  ) {
    self.location = location
    self.append = append
    self.load = load
  }

  /// Kept in memory, for tests.
  public static func memory(_ initial: [HistoryEntry] = []) -> AnswerHistory {
    let entries = Mutex(initial)
    return AnswerHistory(
      location: "(memory)", append: { entry in entries.withLock { $0.append(entry) } }, load: { (entries.withLock { $0 }, []) })
  }

  /// A JSON-lines file, appended with O_APPEND and fsync. A torn last line (from a kill in the
  /// middle of a write) is cut off before the first append, so it cannot swallow the next line.
  public static func file(path: String) -> AnswerHistory {
    let opened = Mutex<Int32?>(nil)
    return AnswerHistory(
      location: path,
      append: { entry in
        try opened.withLock { descriptor in
          if descriptor == nil { descriptor = try openForAppending(path) }
          let line = HistoryFile.line(entry)
          try line.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
              let count = write(descriptor!, raw.baseAddress! + sent, raw.count - sent)
              if count < 0 && errno == EINTR { continue }
              guard count > 0 else { throw HistoryError(path: path, reason: String(cString: strerror(errno))) }
              sent += count
            }
          }
          guard fsync(descriptor!) == 0 else { throw HistoryError(path: path, reason: String(cString: strerror(errno))) }
        }
      },
      load: {
        guard let data = FileManager.default.contents(atPath: path) else { return ([], []) }
        let contents = HistoryFile.parse(Array(data), path: path)
        return (contents.entries, contents.warnings)
      })
  }

  private static func openForAppending(_ path: String) throws -> Int32 {
    let directory = (path as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw HistoryError(path: path, reason: "cannot create \(directory)")
    }
    let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw HistoryError(path: path, reason: String(cString: strerror(errno))) }
    // Only the last byte says whether the tail is torn; the file is read only when it is.
    var status = stat()
    var last: UInt8 = UInt8(ascii: "\n")
    if fstat(descriptor, &status) == 0, status.st_size > 0 {
      _ = pread(descriptor, &last, 1, status.st_size - 1)
    }
    if last != UInt8(ascii: "\n"), let data = FileManager.default.contents(atPath: path) {
      let intact = HistoryFile.parse(Array(data), path: path).intactLength
      guard ftruncate(descriptor, off_t(intact)) == 0 else {
        close(descriptor)
        throw HistoryError(path: path, reason: "cannot cut off its unfinished last line: \(String(cString: strerror(errno)))")
      }
    }
    return descriptor
  }
}

public struct HistoryError: Error, CustomStringConvertible, Sendable {
  public var path: String
  public var reason: String
  public var description: String { "cannot record the answer in \(path): \(reason)" }
}
