import BikiCore
import BikiFiles
import BikiJSON
import BikiJapanese
import BikiSync
import Foundation

/// One answered question as the history keeps it (a line of JSON): what the session recorded,
/// stamped with the wall clock. Its fields are the record's (`entry.topicID`, `entry.prompt` …).
@dynamicMemberLookup
package struct HistoryEntry: Equatable, Sendable {
  /// Seconds since 1970, for the learner's own records.
  package var at: Double
  package var record: Session.AnswerRecord

  /// The entry for an answer or skip a session recorded, stamped with the wall clock.
  package init(_ record: Session.AnswerRecord, at: Double) {
    self.record = record
    self.at = at
  }

  package subscript<Value>(dynamicMember field: KeyPath<Session.AnswerRecord, Value>) -> Value {
    record[keyPath: field]
  }

  var json: JSON {
    var members: [(String, JSON)] = [
      ("at", .double(at)), ("topic", .string(record.topicID)), ("seed", .string(String(record.seed))),
      ("skill", .string(record.skill.rawValue)),
      ("question", .string(record.prompt)), ("expected", .string(record.expected)), ("given", .string(record.given)),
      ("correct", .bool(record.isCorrect)), ("skipped", .bool(record.skipped)), ("seconds", .double(record.seconds)),
    ]
    // Written only when they say something, so an answer line reads as it always has.
    if !record.isFirstAttempt { members.append(("first", false)) }
    if !record.forms.isEmpty {
      members.append(
        (
          "forms",
          .array(
            record.forms.map { form in
              form.rule == form.id ? ["id": .string(form.id)] : ["id": .string(form.id), "rule": .string(form.rule)]
            })
        ))
    }
    return .object(pairs: members)
  }

  init?(json: JSON) {
    guard let topicID = json["topic"]?.stringValue, let seed = json["seed"]?.stringValue.flatMap(UInt64.init),
      let skill = json["skill"]?.stringValue.flatMap(Skill.init), let given = json["given"]?.stringValue,
      let isCorrect = json["correct"]?.boolValue
    else { return nil }
    func number(_ key: String) -> Double { json[key]?.numberValue ?? 0 }
    self.init(
      Session.AnswerRecord(
        topicID: topicID, seed: seed, skill: skill, prompt: json["question"]?.stringValue ?? "",
        expected: json["expected"]?.stringValue ?? "", given: given, isCorrect: isCorrect,
        skipped: json["skipped"]?.boolValue ?? false, seconds: number("seconds"),
        isFirstAttempt: json["first"]?.boolValue ?? true,
        forms: json["forms"]?.arrayValue?.compactMap { form in
          form["id"]?.stringValue.map { ReadingForm(id: $0, rule: form["rule"]?.stringValue) }
        } ?? []),
      at: number("at"))
  }
}

/// A line of the history: an answer (or skip), or a session's start or end. Answers are what
/// stats count; the session lines say which quiz each answer belonged to, and how it ended.
package enum HistoryLine: Equatable, Sendable {
  case answer(HistoryEntry)
  case sessionStarted(at: Double, topicID: String, skill: Skill, seed: UInt64)
  case sessionEnded(at: Double, topicID: String, reason: String, questions: Int, correct: Int)

  /// The line for what a session recorded, stamped with the wall clock.
  package init(_ record: Session.Record, at: Double) {
    switch record {
    case .answered(let answer): self = .answer(HistoryEntry(answer, at: at))
    case .started(let topicID, let skill, _, let seed):
      self = .sessionStarted(at: at, topicID: topicID, skill: skill, seed: seed)
    case .ended(let topicID, let reason, let questions, let correct):
      self = .sessionEnded(
        at: at, topicID: topicID, reason: HistoryLine.name(of: reason), questions: questions, correct: correct)
    }
  }

  static func name(of reason: Session.EndReason) -> String {
    switch reason {
    case .questionLimitReached: "questionLimitReached"
    case .timeUp: "timeUp"
    case .endedByLearner: "ended"
    case .generationFailed: "generationFailed"
    case .allRight: "allRight"
    }
  }

  var json: JSON {
    switch self {
    case .answer(let entry): entry.json
    case .sessionStarted(let at, let topicID, let skill, let seed):
      [
        "event": "sessionStarted", "at": .double(at), "topic": .string(topicID), "skill": .string(skill.rawValue),
        "seed": .string(String(seed)),
      ]
    case .sessionEnded(let at, let topicID, let reason, let questions, let correct):
      [
        "event": "sessionEnded", "at": .double(at), "topic": .string(topicID), "reason": .string(reason),
        "questions": .integer(Int64(questions)), "correct": .integer(Int64(correct)),
      ]
    }
  }
}

/// The history file's format: one JSON object per line, each line written whole and flushed
/// before the answer is acknowledged. A line cut short by a kill has no newline; it is dropped.
package enum HistoryFile {
  struct Contents: Equatable, Sendable {
    var entries: [HistoryEntry]
    var warnings: [String]
    /// Bytes up to the end of the last complete line: where the next line must start.
    var intactLength: Int
  }

  /// What one line holds.
  enum Line {
    case answer(HistoryEntry)
    /// A session's start or end, or a blank line: nothing for stats, and not a problem.
    case other
    case damaged
  }

  static func classify(_ line: ArraySlice<UInt8>) -> Line {
    if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { return .other }
    let json = try? JSONParser.value(Array(line))
    if let json, let entry = HistoryEntry(json: json) { return .answer(entry) }
    return json?["event"]?.stringValue != nil ? .other : .damaged
  }

  static func damaged(_ path: String, line number: Int) -> String {
    "\(path):\(number): skipped a line that is not an answer record"
  }

  static func torn(_ path: String, line number: Int, bytes: Int) -> String {
    "\(path):\(number): dropped an unfinished last line (\(bytes) bytes), left by an interrupted write"
  }

  static func parse(_ bytes: [UInt8], path: String) -> Contents {
    var entries: [HistoryEntry] = []
    var warnings: [String] = []
    var lineStart = 0
    var lineNumber = 1
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") {
        switch classify(bytes[lineStart..<index]) {
        case .answer(let entry): entries.append(entry)
        case .other: break
        case .damaged: warnings.append(damaged(path, line: lineNumber))
        }
        lineNumber += 1
        lineStart = index + 1
      }
      index += 1
    }
    if lineStart < bytes.count { warnings.append(torn(path, line: lineNumber, bytes: bytes.count - lineStart)) }
    return Contents(entries: entries, warnings: warnings, intactLength: lineStart)
  }

  /// When the last session recorded in `bytes` started, in seconds since 1970.
  static func lastSessionStart(_ bytes: [UInt8]) -> Double? {
    var end = bytes.count
    while end > 0 {
      let start = (bytes[..<end].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
      let line = bytes[start..<end]
      if line.count < 4096, let json = try? JSONParser.value(Array(line)),
        json["event"]?.stringValue == "sessionStarted", let at = json["at"]?.numberValue, at.isFinite
      {
        return at
      }
      end = start - 1
    }
    return nil
  }

  package static func line(_ line: HistoryLine) -> [UInt8] {
    Array((line.json.serialized + "\n").utf8)
  }
}

/// Where answers are kept. `file` is the only one that touches the disk.
package struct AnswerHistory: Sendable {
  /// Appends one line durably: when this returns, it survives a kill or power loss.
  var appendLine: @Sendable (HistoryLine) throws -> Void
  /// Every entry kept, and what was wrong with the rest.
  package var load: @Sendable () -> (entries: [HistoryEntry], warnings: [String])
  /// What stats need, and what was wrong with the lines read for it: for the file, kept beside
  /// it and brought up to date from the lines added since, so it costs the same however long
  /// the history.
  package var summary: @Sendable () -> (summary: HistorySummary, warnings: [String])
  /// Where it is, for messages.
  package var location: String
  /// The parameters last fitted to this history, and a warning when what was kept cannot be used.
  package var storedFit: @Sendable () -> (fit: StoredFit?, warning: String?)
  /// Keeps a new fit, whole or not at all; the summary is scheduled by it from then on.
  package var keepFit: @Sendable (StoredFit) throws -> Void
  /// Where the learner's days begin.
  package var practiceDay: PracticeDay
  /// When the last session recorded started (seconds since 1970); nil before the first.
  package var lastSessionStart: @Sendable () -> Double?

  init(
    location: String, appendLine: @Sendable @escaping (HistoryLine) throws -> Void,
    load: @Sendable @escaping () -> (entries: [HistoryEntry], warnings: [String]),
    fits: (stored: @Sendable () -> (fit: StoredFit?, warning: String?), keep: @Sendable (StoredFit) throws -> Void),
    practiceDay: PracticeDay = .utc, lastSessionStart: @Sendable @escaping () -> Double? = { nil },
    summary: (@Sendable () -> (summary: HistorySummary, warnings: [String]))? = nil
  ) {
    self.location = location
    self.practiceDay = practiceDay
    self.lastSessionStart = lastSessionStart
    self.appendLine = appendLine
    self.load = load
    storedFit = fits.stored
    keepFit = fits.keep
    self.summary =
      summary ?? {
        let (entries, warnings) = load()
        let (stored, warning) = fits.stored()
        return (
          HistorySummary(
            entries, parameters: stored?.fit.parameters ?? FSRS.defaultParameters, practiceDay: practiceDay),
          warnings + (warning.map { [$0] } ?? [])
        )
      }
  }

  /// Appends an answer durably.
  package func append(_ entry: HistoryEntry) throws { try appendLine(.answer(entry)) }

  /// Appends what a session recorded, stamped with the wall clock.
  package func record(_ record: Session.Record, at: Double) throws { try appendLine(HistoryLine(record, at: at)) }

  /// Kept in memory, for tests; `lines` sees every line appended.
  package static func memory(_ initial: [HistoryEntry] = []) -> AnswerHistory {
    memory(lines: Locked(initial.map(HistoryLine.answer)))
  }

  package static func memory(lines: Locked<[HistoryLine]>, fit: Locked<StoredFit?> = Locked(nil)) -> AnswerHistory {
    AnswerHistory(
      location: "(memory)", appendLine: { line in lines.withLock { $0.append(line) } },
      load: {
        let entries = lines.withLock { $0 }.compactMap { line -> HistoryEntry? in
          if case .answer(let entry) = line { return entry }
          return nil
        }
        return (entries, [])
      }, fits: ({ (fit.withLock { $0 }, nil) }, { new in fit.withLock { $0 = new } }),
      lastSessionStart: {
        lines.withLock { $0 }.reversed().lazy.compactMap { line -> Double? in
          if case .sessionStarted(let at, _, _, _) = line { return at }
          return nil
        }.first
      })
  }

  /// No history at all, because there is nowhere private to keep it: every append fails
  /// with `reason`, and loading says so once.
  package static func unavailable(reason: String) -> AnswerHistory {
    AnswerHistory(
      location: "(nowhere: \(reason))",
      appendLine: { _ in throw HistoryError(path: "the history", reason: "there is nowhere to keep it: \(reason)") },
      load: { ([], ["answers are not recorded: \(reason)"]) },
      fits: (
        { (nil, nil) },
        { _ in throw FitFileError(reason: "there is nowhere to keep the scheduler's parameters: \(reason)") }
      ))
  }

  /// A JSON-lines file, appended with O_APPEND and fsync. A torn last line (from a kill in the
  /// middle of a write) is cut off before the first append, so it cannot swallow the next line.
  /// It is personal data: created 0600 in a 0700 directory whatever the umask, and never
  /// reached through a symbolic link or anything but a regular file, so no other file is
  /// ever appended to or cut short.
  package static func file(path: String, practiceDay: PracticeDay = .utc) -> AnswerHistory {
    let opened = Locked<Int32?>(nil)
    return AnswerHistory(
      location: path,
      appendLine: { entry in
        try opened.withLock { descriptor in
          let open = try descriptor ?? openForAppending(path)
          descriptor = open
          if let failure = WholeFile.write(open, HistoryFile.line(entry)) {
            throw HistoryError(path: path, reason: failure)
          }
          guard fsync(open) == 0 else { throw HistoryError(path: path, reason: String(cString: strerror(errno))) }
        }
      },
      load: {
        do {
          guard let bytes = try readRegularFile(path) else { return ([], []) }
          let contents = HistoryFile.parse(bytes, path: path)
          return (contents.entries, contents.warnings)
        } catch {
          return ([], ["\(error)"])
        }
      },
      fits: (
        { FitFile(path: path + ".parameters").read() },
        { fit in try FitFile(path: path + ".parameters").write(fit) }
      ),
      practiceDay: practiceDay,
      lastSessionStart: { (try? readRegularFile(path)).flatMap { $0 }.flatMap(HistoryFile.lastSessionStart) },
      summary: { HistorySummaryFile(historyPath: path, practiceDay: practiceDay).current() })
  }

  private static func openForAppending(_ path: String) throws(HistoryError) -> Int32 {
    let directory = (path as NSString).deletingLastPathComponent
    do {
      _ = try PrivateDirectory.create(directory)
    } catch {
      throw HistoryError(path: path, reason: error.description)
    }
    let descriptor = try openRegularFile(path, flags: O_RDWR | O_APPEND, create: true)
    // Only the last byte says whether the tail is torn; the file is read only when it is.
    var status = stat()
    var last: UInt8 = UInt8(ascii: "\n")
    if fstat(descriptor, &status) == 0, status.st_size > 0 {
      _ = pread(descriptor, &last, 1, status.st_size - 1)
    }
    if last != UInt8(ascii: "\n") {
      let intact = HistoryFile.parse(readAll(descriptor, size: Int(status.st_size)), path: path).intactLength
      guard ftruncate(descriptor, off_t(intact)) == 0 else {
        close(descriptor)
        throw HistoryError(
          path: path, reason: "cannot cut off its unfinished last line: \(String(cString: strerror(errno)))")
      }
    }
    return descriptor
  }

  /// Opens `path` without following a symbolic link, and only if it is a regular file;
  /// with `create`, makes it owner-only. An existing history readable by others is made
  /// owner-only too, since it is ours.
  static func openRegularFile(_ path: String, flags: Int32, create: Bool) throws(HistoryError) -> Int32 {
    if create {
      let made = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if made >= 0 {
        fchmod(made, 0o600)
        return made
      }
      guard errno == EEXIST else { throw HistoryError(path: path, reason: String(cString: strerror(errno))) }
    }
    let descriptor: Int32
    do throws(FileError) {
      descriptor = try RegularFile.open(path, flags: flags, links: .refuse)
    } catch {
      let reason =
        error == .symbolicLink ? "it is a symbolic link, which Biki does not follow for the history" : error.description
      throw HistoryError(path: path, reason: reason)
    }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_uid == getuid(), status.st_mode & 0o077 != 0 {
      fchmod(descriptor, 0o600)
    }
    return descriptor
  }

  /// The bytes of a regular file, nil when there is none at `path`.
  private static func readRegularFile(_ path: String) throws(HistoryError) -> [UInt8]? {
    let descriptor: Int32
    do {
      descriptor = try openRegularFile(path, flags: O_RDONLY, create: false)
    } catch {
      if access(path, F_OK) != 0 && errno == ENOENT { return nil }
      throw HistoryError(path: error.path, reason: error.reason, reading: true)
    }
    defer { close(descriptor) }
    return readAll(descriptor, size: RegularFile.size(descriptor) ?? 0)
  }

  static func readAll(_ descriptor: Int32, size: Int) -> [UInt8] {
    RegularFile.read(descriptor, at: 0, count: size)
  }
}

struct HistoryError: Error, CustomStringConvertible, Sendable {
  var path: String
  var reason: String
  /// Whether the history was being read (for stats, a summary, a review) or written.
  var reading = false
  var description: String {
    reading ? "cannot read \(path): \(reason)" : "cannot record the answer in \(path): \(reason)"
  }
}
