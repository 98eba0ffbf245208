import Foundation
import Testing

/// docs/architecture.md's module map is the one a newcomer reads first: every module under
/// Sources has its row, the modules each row says it uses are the ones Package.swift gives it,
/// and no module imports one of Biki's it does not declare.
@Suite struct ArchitectureMapTests {
  static let repository = BikiPackTests.repository

  /// The library targets under Sources and their dependencies, as Package.swift declares them.
  static func declaredTargets() throws -> [String: Set<String>] {
    let manifest = try String(contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8)
    var targets: [String: Set<String>] = [:]
    var rest = manifest[...]
    while let start = rest.range(of: ".target(") {
      // The call's text, up to its matching parenthesis.
      var depth = 0
      var end = start.upperBound
      var index = start.lowerBound
      while index < rest.endIndex {
        if rest[index] == "(" { depth += 1 }
        if rest[index] == ")" {
          depth -= 1
          if depth == 0 {
            end = rest.index(after: index)
            break
          }
        }
        index = rest.index(after: index)
      }
      let call = String(rest[start.lowerBound..<end])
      rest = rest[end...]
      guard !call.contains("path:"), let name = quoted(in: call, after: "name:").first else { continue }
      targets[name] = Set(quoted(in: call, after: "dependencies:"))
    }
    return targets
  }

  /// The quoted strings of the argument after `label`: one string, or a `[…]` list of them.
  static func quoted(in call: String, after label: String) -> [String] {
    guard let found = call.range(of: label) else { return [] }
    let tail = call[found.upperBound...].drop { $0 == " " || $0 == "\n" }
    let argument = tail.first == "[" ? tail.prefix { $0 != "]" } : tail.prefix { $0 != "," && $0 != ")" }
    return argument.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  /// The map's rows: module → the modules it says it uses.
  static func mappedModules() throws -> [String: Set<String>] {
    let document = try String(
      contentsOf: repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    var rows: [String: Set<String>] = [:]
    for line in document.split(separator: "\n") where line.hasPrefix("| `Biki") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 3 else { continue }
      let module = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      let uses = cells[2] == "—" ? [] : cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      rows[module] = Set(uses)
    }
    return rows
  }

  @Test func everyModuleHasItsRowAndItsDependencies() throws {
    let declared = try Self.declaredTargets()
    let mapped = try Self.mappedModules()
    let sources = try FileManager.default.contentsOfDirectory(
      atPath: Self.repository.appendingPathComponent("Sources").path
    ).filter { $0.hasPrefix("Biki") }
    #expect(Set(sources) == Set(declared.keys), "Package.swift's library targets against Sources/")
    #expect(Set(mapped.keys) == Set(declared.keys), "the map's rows against Package.swift's library targets")
    for (module, dependencies) in declared {
      #expect(
        mapped[module] == dependencies, "\(module): the map says \(mapped[module] ?? []), Package.swift \(dependencies)"
      )
    }
  }

  @Test func noModuleImportsOneItDoesNotDeclare() throws {
    let declared = try Self.declaredTargets()
    for (module, dependencies) in declared {
      let directory = Self.repository.appendingPathComponent("Sources/" + module).path
      let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
      var imported = Set<String>()
      for file in files where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("import Biki") {
          imported.insert(String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces))
        }
      }
      #expect(imported.isSubset(of: dependencies), "\(module) imports \(imported.subtracting(dependencies).sorted())")
    }
  }
}
