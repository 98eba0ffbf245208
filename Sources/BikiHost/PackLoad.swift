import BikiJSON
import BikiPacks

/// One pack file as loaded: where it came from and what compiling it produced. The definition
/// the compiler decoded (every field with its place in the text, about 1.8 KB a topic) is not
/// kept: a server holds every pack for as long as it runs, and what settling which pack serves
/// a topic needs of it is in `defined`, some 80 bytes a topic.
package struct LoadedPack: Sendable {
  package var path: String
  /// The compilation, its `pack` left out (see `defined`).
  package private(set) var compilation: PackCompilation
  /// The pack's id and its topics' ids and places; nil for a file that is no pack.
  package let defined: DefinedTopics?
  package var precedence: Precedence
  /// How its readings were checked.
  package private(set) var check: ReadingCheck
  /// The bytes read, for a pack not built into Biki: a client that pulls the workspace's
  /// diagnostics gets a closed pack's in the columns it counts, which need the text, and a
  /// reload compares them to know the file unchanged.
  package var text: [UInt8]?

  package init(
    path: String, compilation: PackCompilation, precedence: Precedence, check: ReadingCheck, text: [UInt8]? = nil
  ) {
    self.path = path
    self.defined = compilation.pack.map(DefinedTopics.init)
    self.compilation = compilation
    self.compilation.pack = nil
    self.precedence = precedence
    self.check = check
    self.text = text
  }

  /// The same file checked again (as `check`): what the new check found, and `topics`.
  func checkedAgain(_ found: PackCompilation, check: ReadingCheck, topics: [CompiledTopic]) -> LoadedPack {
    var again = self
    again.compilation = found
    again.compilation.pack = nil
    again.compilation.topics = topics
    again.check = check
    return again
  }
}

/// Which topics a pack defines, and where each id is written.
package struct DefinedTopics: Sendable {
  package let packID: String
  package let topics: [(id: String, range: SourceRange)]

  init(_ pack: PackDefinition) {
    packID = pack.id.value
    topics = pack.topics.map { ($0.id.value, $0.id.range) }
  }
}

/// Everything loaded from a set of paths: each file's result and the topics that serve. A
/// topic id defined twice is settled by precedence and reported, never silently overridden.
package struct PackLoad: Sendable {
  package var packs: [LoadedPack]
  /// Diagnostics across files (the same topic id in two packs), by the path they belong to.
  var crossPackDiagnostics: [(path: String, diagnostic: Diagnostic)]

  /// Serving topics, each id once: where several packs define it, the one that takes precedence.
  package var topics: [(topic: CompiledTopic, path: String)]

  package init(
    packs: [LoadedPack], crossPackDiagnostics: [(path: String, diagnostic: Diagnostic)],
    topics: [(topic: CompiledTopic, path: String)]
  ) {
    self.packs = packs
    self.crossPackDiagnostics = crossPackDiagnostics
    self.topics = topics
  }

  package func diagnostics(for path: String) -> [Diagnostic] {
    let own = packs.first { $0.path == path }?.compilation.diagnostics ?? []
    return (own + crossPackDiagnostics.filter { $0.path == path }.map(\.diagnostic)).sorted {
      ($0.range.start, $0.rule) < ($1.range.start, $1.rule)
    }
  }
}
