import BikiCore
import BikiJSON
import BikiPacks
import BikiSync

/// Which of two definitions of a topic id serves: what the user is working on (an open document,
/// the file being linted, `--packs`, `--plugins`) over the user's installed packs and plugins,
/// and those over Biki's built-in ones. A careless third-party pack can override a built-in
/// topic for its user, with a warning, but never make it vanish.
package enum Precedence: Int, Comparable, Sendable, CaseIterable {
  case given = 0
  case user = 1
  case builtIn = 2

  package static func < (a: Precedence, b: Precedence) -> Bool { a.rawValue < b.rawValue }

  /// The precedence of a file found in `given` directories, the built-in one, or elsewhere.
  static func of(_ file: String, given: [String], builtIn: String?) -> Precedence {
    func isIn(_ directory: String) -> Bool {
      file == directory || file.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
    }
    if given.contains(where: isIn) { return .given }
    if let builtIn, isIn(builtIn) { return .builtIn }
    return .user
  }

  /// For messages: "which is used instead (a built-in pack)".
  var what: String {
    switch self {
    case .given: "the file given"
    case .user: "one of your packs or plugins"
    case .builtIn: "built into Biki"
    }
  }
}

package enum PackLoaderError: Error, Equatable, CustomStringConvertible, Sendable {
  case notFound(String)

  package var description: String {
    switch self {
    case .notFound(let path): "\(path): no such file or directory"
    }
  }
}

package struct PackLoader: Sendable {
  var fileSystem: FileSystem
  var check: ReadingCheck
  /// The check for packs not built into Biki, when it is not `check`: a server's reload checks
  /// them as lint does (`.thorough`), so it reports what lint reports for the same file.
  var userCheck: ReadingCheck?
  /// Files that passed a sampled check before, unchanged since: only their first and last
  /// questions are checked again. Never consulted for a thorough check (lint); a file that
  /// passes one is recorded, as it would pass a sampled check too.
  var checked: PackCheckCache

  package init(
    fileSystem: FileSystem, check: ReadingCheck = .startUp, userCheck: ReadingCheck? = nil,
    checked: PackCheckCache = .none
  ) {
    self.fileSystem = fileSystem
    self.check = check
    self.userCheck = userCheck
    self.checked = checked
  }

  /// The pack files at `paths`: files as given, directories' `*.json` entries (schemas and
  /// directories excepted) in name order. Missing directories among the standard paths are simply skipped.
  package func packFiles(in paths: [String], requireExistence: Bool) throws(PackLoaderError) -> [String] {
    var files: [String] = []
    for path in paths {
      switch fileSystem.kind(path) {
      case .file?, .other?: files.append(path)
      case .directory?:
        let names = (try? fileSystem.contents(path)) ?? []
        files += names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") && !$0.hasPrefix(".") }.sorted()
          .map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
          // A FIFO or a link that leads nowhere is kept, to be reported when read.
          .filter { fileSystem.kind($0).map { $0 != .directory } ?? false }
      case nil:
        if requireExistence { throw .notFound(path) }
      }
    }
    return files
  }

  /// Loads each file once, however many ways it was named (the first spelling is kept).
  /// `isCancelled` is asked while packs compile; once it says yes, the load is incomplete (for
  /// a reload a newer one superseded, whose result nobody will read).
  package func load(
    files: [String], precedence: (String) -> Precedence = { _ in .user }, reusing earlier: PackLoad? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) -> PackLoad {
    compiling(files: files, precedence: precedence, reusing: earlier, isCancelled: isCancelled).finish()
  }

  /// The load of `files` begun: other threads may `help` compile its files before `finish`
  /// (on the thread that called this) completes and resolves it, as `load` does alone. A file
  /// `earlier` loaded from the same text is not compiled again (see `reload`).
  package func compiling(
    files: [String], precedence: (String) -> Precedence = { _ in .user }, reusing earlier: PackLoad? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) -> PackCompiling {
    var seen = Set<String>()
    let ranked = files.filter { seen.insert(fileSystem.canonicalPath($0)).inserted }.map { ($0, precedence($0)) }
    let usesCache = [check, userCheck ?? check].contains { if case .sample = $0 { true } else { false } }
    let passedBefore = usesCache ? checked.load() : []
    let reusable = Dictionary(
      (earlier?.packs ?? []).filter { $0.text != nil }.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    let texts = ranked.map { path, _ in PackText(path: path, read: fileSystem.read) }
    let work = SharedWork(Array(ranked.indices)) { [self] index -> (pack: LoadedPack, passed: String?) in
      let (path, rank) = ranked[index]
      let fileCheck = rank == .builtIn ? check : (userCheck ?? check)
      let bytes: [UInt8]
      do {
        bytes = try texts[index].take()
      } catch {
        let compilation = PackCompilation(
          pack: nil, topics: [],
          diagnostics: [Diagnostic(.error, "\(error)", rule: "unreadable-file", at: .fileStart)])
        return (LoadedPack(path: path, compilation: compilation, precedence: rank, check: fileCheck), nil)
      }
      let key = usesCache ? checked.key(path, bytes: bytes) : nil
      let pack: LoadedPack
      if let before = reusable[path], before.precedence == rank, before.text == bytes {
        pack = reload(before, check: fileCheck, isCancelled: isCancelled)
      } else {
        let sampled = if case .sample = fileCheck { true } else { false }
        // Passed before, unchanged since: only its first and last questions are checked again.
        let compilation = PackCompiler.compile(
          bytes, check: sampled && key.map(passedBefore.contains) == true ? .sample(2) : fileCheck,
          isCancelled: isCancelled)
        pack = LoadedPack(
          path: path, compilation: compilation, precedence: rank, check: fileCheck,
          text: rank == .builtIn ? nil : bytes)
      }
      return (pack, pack.compilation.hasErrors ? nil : key)
    }
    return PackCompiling(
      work: work, texts: texts,
      finishing: { loaded in
        let passed = Set(loaded.compactMap(\.passed))
        if usesCache && passed != passedBefore && !isCancelled() { checked.store(passed) }
        return PackLoader.resolve(loaded.map(\.pack))
      })
  }

  /// A file loaded before from the same text, as `check` would load it. One checked as
  /// thoroughly already is kept as it is. One checked less (a server's quick start, checked
  /// again as lint checks) is compiled again for the check's findings, and keeps its compiled
  /// topics that pass: compiling is a pure function of the text, so they are the topics the
  /// new compilation made, and the catalog being served and the one replacing it share them
  /// rather than hold two copies of every topic.
  func reload(
    _ before: LoadedPack, check fileCheck: ReadingCheck, isCancelled: @escaping @Sendable () -> Bool
  ) -> LoadedPack {
    guard !before.check.covers(fileCheck), let text = before.text else { return before }
    let checked = PackCompiler.compile(text, check: fileCheck, isCancelled: isCancelled)
    let passing = Set(checked.topics.map(\.topic.id))
    return before.checkedAgain(
      checked, check: fileCheck, topics: before.compilation.topics.filter { passing.contains($0.topic.id) })
  }

  /// Serves each topic id from one pack: among the packs where the topic compiled, the one with
  /// the highest precedence, and among equals the first loaded. Topic ids begin with the pack id,
  /// so two packs defining one are two versions of one pack: a draft or working copy over the
  /// installed one, or a user's edited copy over the built-in one. The version not used gets a
  /// warning and the one used is not bothered; two files of equal precedence defining one id is
  /// an error in the one not loaded. A copy where the topic fails (a stale `harbour-old.json`
  /// with a typo) never hides one where it compiles: it is told which file serves instead.
  static func resolve(_ packs: [LoadedPack]) -> PackLoad {
    struct Place {
      var pack: Int
      var range: SourceRange
    }
    var owners: [String: [Place]] = [:]
    for (index, pack) in packs.enumerated() {
      guard let defined = pack.defined else { continue }
      for topic in defined.topics where !topic.id.isEmpty {
        owners["\(defined.packID).\(topic.id)", default: []].append(Place(pack: index, range: topic.range))
      }
    }
    var crossPack: [(String, Diagnostic)] = []
    var losers = Set<String>()  // "\(pack index) \(topic id)"
    for (id, places) in owners.sorted(by: { $0.key < $1.key }) where Set(places.map(\.pack)).count > 1 {
      func serves(_ place: Place) -> Bool { packs[place.pack].compilation.topics.contains { $0.topic.id == id } }
      // Stable: the first loaded among the highest precedence, of those where the topic compiled.
      // Where it compiled nowhere, nothing serves and each copy's own errors say why.
      guard
        let winner = places.enumerated().filter({ serves($0.element) }).min(by: { a, b in
          (packs[a.element.pack].precedence, a.offset) < (packs[b.element.pack].precedence, b.offset)
        })?.element
      else { continue }
      let winnerPack = packs[winner.pack]
      let winnerPlace = "\(winnerPack.path):\(winner.range.start)"
      var winnerNotes: [String] = []
      for place in places where place.pack != winner.pack {
        let loser = packs[place.pack]
        losers.insert("\(place.pack) \(id)")
        if loser.precedence < winnerPack.precedence {
          // Only a copy whose topic failed loses to one of lower precedence.
          crossPack.append(
            (
              loser.path,
              Diagnostic(
                .warning,
                "topic id \"\(id)\" does not load from this file, so \(winnerPlace) (\(winnerPack.precedence.what)) is used instead",
                rule: "overridden-topic", at: place.range)
            ))
        } else if loser.precedence == winnerPack.precedence {
          crossPack.append(
            (
              loser.path,
              Diagnostic(
                .error, "topic id \"\(id)\" is also defined at \(winnerPlace), which is loaded instead of this one",
                rule: "duplicate-topic-id", at: place.range)
            ))
          winnerNotes.append("\(loser.path):\(place.range.start)")
        } else {
          crossPack.append(
            (
              loser.path,
              Diagnostic(
                .warning,
                "topic id \"\(id)\" is overridden by \(winnerPlace) (\(winnerPack.precedence.what)), which is used instead",
                rule: "overridden-topic", at: place.range)
            ))
        }
      }
      // A topic of one's own that takes a built-in one's place is worth knowing about: the
      // built-in topic is not served while this file is there.
      if winnerPack.precedence != .builtIn,
        let builtIn = places.first(where: { $0.pack != winner.pack && packs[$0.pack].precedence == .builtIn })
      {
        crossPack.append(
          (
            winnerPack.path,
            Diagnostic(
              .warning,
              "topic id \"\(id)\" is also built into Biki (\(packs[builtIn.pack].path):\(builtIn.range.start)); this one is used instead of it",
              rule: "overridden-topic", at: winner.range)
          ))
      }
      if !winnerNotes.isEmpty {
        crossPack.append(
          (
            winnerPack.path,
            Diagnostic(
              .warning,
              "topic id \"\(id)\" is also defined at \(winnerNotes.joined(separator: ", ")); this one is loaded",
              rule: "duplicate-topic-id", at: winner.range)
          ))
      }
    }
    let topics = packs.enumerated().flatMap { index, pack in
      pack.compilation.topics.filter { !losers.contains("\(index) \($0.topic.id)") }.map {
        (topic: $0, path: pack.path)
      }
    }
    return PackLoad(packs: packs, crossPackDiagnostics: crossPack, topics: topics)
  }
}

extension PackLoad {
  /// What `biki-pack lint` reports for one pack's text, checked against the packs loaded here
  /// (so a topic id another pack defines is caught); the loaded copy of the same file, named by
  /// `isSameFile`, is left out, since the text replaces it.
  func lint(
    path: String, text: [UInt8], check: ReadingCheck = .thorough, isCancelled: @Sendable () -> Bool = { false },
    isSameFile: (String) -> Bool
  ) -> [Diagnostic] {
    lintDocument(path: path, text: text, check: check, isCancelled: isCancelled, isSameFile: isSameFile).diagnostics
  }

  /// `lint`, with the document's own compilation, for an editor to reuse (hover).
  package func lintDocument(
    path: String, text: [UInt8], check: ReadingCheck = .thorough, isCancelled: @Sendable () -> Bool = { false },
    isSameFile: (String) -> Bool
  ) -> (compilation: PackCompilation, diagnostics: [Diagnostic]) {
    let compilation = PackCompiler.compile(text, check: check, isCancelled: isCancelled)
    let document = LoadedPack(path: path, compilation: compilation, precedence: .given, check: check)
    return (
      compilation,
      PackLoader.resolve([document] + packs.filter { !isSameFile($0.path) }).diagnostics(for: path)
    )
  }
}

/// Pack files being compiled (`PackLoader.compiling`): threads with nothing else to do `help`,
/// and `finish` completes the load.
package struct PackCompiling: Sendable {
  let work: SharedWork<Int, (pack: LoadedPack, passed: String?)>
  /// Each file's bytes, read once whichever wants them first: its compilation, or `settling`.
  let texts: [PackText]
  let finishing: @Sendable ([(pack: LoadedPack, passed: String?)]) -> PackLoad

  /// Compiles files until none is left to begin.
  package func help() { work.help() }

  /// The files that could define `topicID`, compiled (here, or waited for where another thread
  /// began one) and settled among themselves, before the rest are. A topic id is its pack's id,
  /// a dot and its own, so only a file whose pack id begins `topicID` can define it; which of
  /// those serves it is what the whole load settles, since every other place of the id is
  /// in them. A file whose pack id cannot be told without parsing it is among them.
  package func settling(_ topicID: String) -> PackLoad {
    let candidates = texts.indices.filter { index in
      guard let packID = texts[index].packID() else { return true }
      return topicID.utf8.count > packID.utf8.count && topicID.hasPrefix(packID + ".")
    }
    return PackLoader.resolve(candidates.map { work.output(at: $0).pack })
  }

  /// Compiles what is left, waits for what other threads are compiling, then records the
  /// files that passed and settles which pack serves each topic.
  package func finish() -> PackLoad { finishing(work.finish()) }
}

/// A pack file's bytes as read once, and the pack id written at its top, found without parsing.
/// The compilation takes the bytes (`take`), and they are not kept here after it: a reload
/// reads every file again, and holding each until the whole load ends held every pack's text a
/// second time (25 MB with 100,000 topics).
final class PackText: Sendable {
  let path: String
  private let read: @Sendable (String) throws -> [UInt8]
  private let state = Locked<(bytes: Bytes, packID: String??)>((.unread, nil))

  private enum Bytes {
    case unread
    case read(Result<[UInt8], Unreadable>)
    /// Given to the compilation, which has the pack's id now.
    case taken
  }

  /// Why the file could not be read, as the file system said it.
  struct Unreadable: Error, CustomStringConvertible, Sendable {
    var description: String
  }

  init(path: String, read: @Sendable @escaping (String) throws -> [UInt8]) {
    self.path = path
    self.read = read
  }

  /// The file's bytes, read now unless `packID` read them first; a failure to read alike.
  /// Called once, by the file's compilation.
  func take() throws -> [UInt8] {
    try state.withLock { state in
      defer { state.bytes = .taken }
      if case .read(let read) = state.bytes { return read }
      return readNow()
    }.get()
  }

  private func readNow() -> Result<[UInt8], Unreadable> {
    Result { () throws(Unreadable) in
      do { return try self.read(path) } catch { throw Unreadable(description: "\(error)") }
    }
  }

  /// The pack id the file's top-level object names first (the one the decoder keeps), or nil
  /// when it cannot be told without parsing: unreadable, escaped, not a string, or the file
  /// given to its compilation already (which costs nothing more to wait for). A file that is
  /// not valid JSON defines no topic whatever this says.
  func packID() -> String? {
    state.withLock { state in
      if let found = state.packID { return found }
      let bytes: [UInt8]?
      switch state.bytes {
      case .taken: return nil
      case .read(let read): bytes = try? read.get()
      case .unread:
        let read = readNow()
        state.bytes = .read(read)
        bytes = try? read.get()
      }
      let found = bytes.flatMap { bytes in bytes.withUnsafeBufferPointer { JSONScan.firstMemberString("id", in: $0) } }
      state.packID = .some(found)
      return found
    }
  }
}
