import BikiCore
import BikiJSON
import BikiPacks

/// One pack file as loaded: where it came from and what compiling it produced.
public struct LoadedPack: Sendable {
  public var path: String
  public var compilation: PackCompilation
}

/// Everything loaded from a set of paths: each file's result and the topics that serve,
/// with topic ids defined twice reported, never silently overridden.
public struct PackLoad: Sendable {
  public var packs: [LoadedPack]
  /// Diagnostics across files (the same topic id in two packs), by the path they belong to.
  public var crossPackDiagnostics: [(path: String, diagnostic: Diagnostic)]

  /// Serving topics by id; a topic whose id another pack also defines is left out of both.
  public var topics: [(topic: CompiledTopic, path: String)]

  public init(packs: [LoadedPack], crossPackDiagnostics: [(path: String, diagnostic: Diagnostic)], topics: [(topic: CompiledTopic, path: String)]) {
    self.packs = packs
    self.crossPackDiagnostics = crossPackDiagnostics
    self.topics = topics
  }

  public func diagnostics(for path: String) -> [Diagnostic] {
    let own = packs.first { $0.path == path }?.compilation.diagnostics ?? []
    return (own + crossPackDiagnostics.filter { $0.path == path }.map(\.diagnostic)).sorted {
      ($0.range.start, $0.rule) < ($1.range.start, $1.rule)
    }
  }
}

public enum PackLoaderError: Error, Equatable, CustomStringConvertible, Sendable {
  case notFound(String)

  public var description: String {
    switch self {
    case .notFound(let path): "\(path): no such file or directory"
    }
  }
}

public struct PackLoader: Sendable {
  public var fileSystem: FileSystem
  public var check: ReadingCheck

  public init(fileSystem: FileSystem, check: ReadingCheck = .sample(64)) {
    self.fileSystem = fileSystem
    self.check = check
  }

  /// The pack files at `paths`: files as given, directories' `*.json` files (schemas excepted)
  /// in name order. Missing directories among the standard paths are simply skipped.
  public func packFiles(in paths: [String], requireExistence: Bool) throws(PackLoaderError) -> [String] {
    var files: [String] = []
    for path in paths {
      switch fileSystem.kind(path) {
      case .file?: files.append(path)
      case .directory?:
        let names = (try? fileSystem.contents(path)) ?? []
        files += names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") && !$0.hasPrefix(".") }.sorted()
          .map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
          .filter { fileSystem.kind($0) == .file }
      case nil:
        if requireExistence { throw .notFound(path) }
      }
    }
    return files
  }

  /// Loads each file once, however many ways it was named (the first spelling is kept).
  public func load(files: [String]) -> PackLoad {
    var packs: [LoadedPack] = []
    var seen = Set<String>()
    for path in files where seen.insert(fileSystem.canonicalPath(path)).inserted {
      let compilation: PackCompilation
      do {
        compilation = PackCompiler.compile(try fileSystem.read(path), check: check)
      } catch {
        compilation = PackCompilation(
          pack: nil, topics: [], diagnostics: [Diagnostic(.error, "cannot read the pack: \(error)", rule: "unreadable-file", at: .fileStart)])
      }
      packs.append(LoadedPack(path: path, compilation: compilation))
    }
    return PackLoader.resolve(packs)
  }

  /// Reports topic ids defined in more than one pack and serves the rest.
  static func resolve(_ packs: [LoadedPack]) -> PackLoad {
    var owners: [String: [(path: String, range: SourceRange)]] = [:]
    for pack in packs {
      guard let definition = pack.compilation.pack else { continue }
      for topic in definition.topics where !topic.id.value.isEmpty {
        owners["\(definition.id.value).\(topic.id.value)", default: []].append((pack.path, topic.id.range))
      }
    }
    var crossPack: [(String, Diagnostic)] = []
    var clashing = Set<String>()
    for (id, places) in owners.sorted(by: { $0.key < $1.key }) {
      let files = Set(places.map(\.path))
      guard files.count > 1 else { continue }
      clashing.insert(id)
      for place in places {
        let others = places.filter { $0.path != place.path }.map { "\($0.path):\($0.range.start)" }
        crossPack.append(
          (place.path, Diagnostic(.error, "topic id \"\(id)\" is also defined at \(others.joined(separator: ", ")); neither is loaded", rule: "duplicate-topic-id", at: place.range)))
      }
    }
    let topics = packs.flatMap { pack in pack.compilation.topics.map { (topic: $0, path: pack.path) } }
      .filter { !clashing.contains($0.topic.topic.id) }
    return PackLoad(packs: packs, crossPackDiagnostics: crossPack, topics: topics)
  }
}

extension PackLoad {
  /// What `biki-pack lint` reports for one pack's text, checked against the packs loaded here
  /// (so a topic id another pack defines is caught); the loaded copy of the same file, named by
  /// `isSameFile`, is left out, since the text replaces it.
  public func lint(
    path: String, text: [UInt8], check: ReadingCheck = .thorough, isCancelled: @Sendable () -> Bool = { false },
    isSameFile: (String) -> Bool
  ) -> [Diagnostic] {
    lintDocument(path: path, text: text, check: check, isCancelled: isCancelled, isSameFile: isSameFile).diagnostics
  }

  /// `lint`, with the document's own compilation, for an editor to reuse (hover).
  public func lintDocument(
    path: String, text: [UInt8], check: ReadingCheck = .thorough, isCancelled: @Sendable () -> Bool = { false },
    isSameFile: (String) -> Bool
  ) -> (compilation: PackCompilation, diagnostics: [Diagnostic]) {
    let document = LoadedPack(path: path, compilation: PackCompiler.compile(text, check: check, isCancelled: isCancelled))
    return (document.compilation, PackLoader.resolve([document] + packs.filter { !isSameFile($0.path) }).diagnostics(for: path))
  }
}
