import Foundation

/// What every report starts with, so a figure can be traced to the code and the machine that
/// gave it: the commit (with `+changes` when the tree differs from it) and the CPU.
enum BenchStamp {
  static func line(repository: String?) -> String {
    "biki-bench at \(commit(repository)) on \(cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) CPUs"
  }

  /// The checkout's commit, or "an unknown commit" for a build outside one (or without git).
  static func commit(_ repository: String?) -> String {
    guard let repository, let head = git(["rev-parse", "--short", "HEAD"], in: repository), !head.isEmpty else {
      return "an unknown commit"
    }
    let changed = git(["status", "--porcelain", "--untracked-files=no"], in: repository).map { !$0.isEmpty } ?? false
    return head + (changed ? "+changes" : "")
  }

  static func cpuModel() -> String {
    let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) }
      ?? "an unknown CPU"
  }

  private static func git(_ arguments: [String], in directory: String) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", directory] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// A median with the spread it came from, as every figure is reported. Of no measurements at
/// all, every figure is NaN (printed "nan"), not a crash.
struct Spread {
  let values: [Double]
  init(_ values: [Double]) { self.values = values.sorted() }
  var median: Double { values.isEmpty ? .nan : values[values.count / 2] }
  var low: Double { values.first ?? .nan }
  var high: Double { values.last ?? .nan }
  /// The value 95 % of the measurements are at or under (nearest rank).
  var p95: Double {
    values.isEmpty ? .nan : values[min(values.count - 1, max(0, Int((0.95 * Double(values.count)).rounded(.up)) - 1))]
  }
}
