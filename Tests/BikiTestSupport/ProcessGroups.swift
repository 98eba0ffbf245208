import Foundation

/// What is left of a process group, read from /proc: the tests of what a plugin forks.
public enum ProcessGroups {
  /// The processes of group `group` that are still running (zombies, which only wait to be
  /// reaped, are not counted).
  public static func living(_ group: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
      // "pid (comm) state ppid pgrp …": the command may hold spaces and parentheses, so the
      // fields are counted from the last ')'.
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 2 && fields[0] != "Z" && fields[0] != "X" && Int32(fields[2]) == group
    }
  }

  /// Waits up to `seconds` for group `group` to end; the processes still living then.
  public static func waitForEnd(of group: Int32, seconds: Double = 3) -> [Int32] {
    let deadline = Date().addingTimeInterval(seconds)
    var left = living(group)
    while !left.isEmpty && Date() < deadline {
      usleep(20_000)
      left = living(group)
    }
    return left
  }

  /// The forked child's pid and its process group, as the FORKS fixture writes them.
  public static func forkMark(_ path: String, seconds: Double = 10) -> (child: Int32, group: Int32)? {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
      if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n") {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int32($0) }
        if numbers.count == 2 { return (numbers[0], numbers[1]) }
      }
      usleep(20_000)
    } while Date() < deadline
    return nil
  }
}
