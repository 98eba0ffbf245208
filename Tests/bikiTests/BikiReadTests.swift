import Foundation
import Testing

/// Runs the built `biki` executable and captures what a user would see.
struct BikiProcess {
  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  /// An executable built next to this test bundle.
  static func executable(_ name: String = "biki") -> URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
  }

  static var executable: URL { executable() }

  static func run(
    _ arguments: [String], viaShell: String? = nil, program: String = "biki", environment: [String: String]? = nil,
    directory: String? = nil
  ) throws -> Result {
    let process = Process()
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let script = viaShell {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", script, executable(program).path]
    } else {
      process.executableURL = executable(program)
      process.arguments = arguments
    }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
      standardError: String(decoding: errData, as: UTF8.self))
  }
}

@Suite struct BikiReadTests {
  /// The everyday numbers README.md lists, through the real binary: standard reading first.
  @Test func readsTheEverydayNumbersTheReadmeLists() throws {
    let texts = [
      "16:00", "紀元前300年", "3.14", "36.5度", "1.2億円", "マイナス5度", "-3", "氷点下10度", "3分の1", "1と2分の1", "090-1234-5678",
      "1-2-3",
      "2対0", "第1位", "国道1号線", "8×8=64", "110番", "1日半", "4畳半",
    ]
    let result = try BikiProcess.run(["read"] + texts)
    #expect(result.status == 0, "\(result.standardError)")
    let standard = result.standardOutput.split(separator: "\n").map { line in
      line.split(separator: "\t").last.map { String($0.split(separator: "|")[0]) } ?? ""
    }
    #expect(
      standard == [
        "じゅうろくじ", "きげんぜんさんびゃくねん", "さんてんいちよん", "さんじゅうろくてんごど", "いちてんにおくえん", "まいなすごど", "まいなすさん",
        "ひょうてんかじゅうど", "さんぶんのいち", "いちとにぶんのいち", "ぜろきゅうぜろのいちにさんよんのごろくななはち", "いちのにのさん", "にたいれい",
        "だいいちい", "こくどういちごうせん", "はっぱろくじゅうし", "ひゃくとおばん", "いちにちはん", "よじょうはん",
      ])
  }

  @Test func readsTheReadmeExamples() throws {
    let result = try BikiProcess.run(["read", "8本", "令和元年", "600円", "午後4時", "3,000"])
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        8本\tはっぽん|はちほん
        令和元年\tれいわがんねん
        600円\tろっぴゃくえん
        午後4時\tごごよじ
        3,000\tさんぜん

        """)
    #expect(result.standardError.isEmpty)
  }

  @Test func asDateReadsTheDayOfTheMonth() throws {
    #expect(try BikiProcess.run(["read", "1日"]).standardOutput == "1日\tいちにち\n")
    #expect(try BikiProcess.run(["read", "--as", "date", "1日"]).standardOutput == "1日\tついたち\n")
    #expect(try BikiProcess.run(["read", "--as=date", "20日"]).standardOutput == "20日\tはつか\n")
  }

  /// README: `1組` is one set unless `--as name` asks for class 1; km is said short or in full.
  @Test func asNameReadsAClassAndUnitsAreSaidShortOrInFull() throws {
    #expect(try BikiProcess.run(["read", "1組"]).standardOutput == "1組\tひとくみ\n")
    #expect(try BikiProcess.run(["read", "--as", "name", "1組"]).standardOutput == "1組\tいちくみ\n")
    #expect(
      try BikiProcess.run(["read", "3km", "3キロメートル"]).standardOutput == "3km\tさんきろ|さんきろめーとる\n3キロメートル\tさんきろめーとる\n")
    #expect(try BikiProcess.run(["read", "--help"]).standardOutput.contains("'--as name 1組' is いちくみ"))
  }

  @Test func unreadableTextIsReportedAndTheRestStillPrinted() throws {
    let result = try BikiProcess.run(["read", "8本", "x12", "平成32年", "600円"])
    #expect(result.status == 65)
    #expect(result.standardOutput == "8本\tはっぽん|はちほん\n600円\tろっぴゃくえん\n")
    #expect(result.standardError.contains("cannot read 'x12'"))
    #expect(result.standardError.contains("平成32年 did not exist"))
  }

  @Test func invalidUTF8InAnArgumentIsReportedNotFatal() throws {
    let result = try BikiProcess.run([], viaShell: #""$0" read "$(printf '\377')" 8本"#)
    #expect(result.status == 65)
    #expect(result.standardOutput.hasSuffix("8本\tはっぽん|はちほん\n"))
    #expect(result.standardError.contains("is not a number"))
  }

  /// After `--`, a text that starts with a dash is text, not an option: here a negative number.
  @Test func negativeNumbersAndDashesAreText() throws {
    let result = try BikiProcess.run(["read", "--", "-5"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == "-5\tまいなすご\n")
    let dash = try BikiProcess.run(["read", "--", "-"])
    #expect(dash.status == 65)
    #expect(dash.standardError.contains("- must be followed by a number"), "\(dash.standardError)")
  }

  @Test func usageErrorsExitWith64AndSayWhatToDo() throws {
    let missing = try BikiProcess.run(["read"])
    #expect(missing.status == 64)
    #expect(missing.standardError.contains("Error: Missing expected argument '<text> ...'."))
    #expect(missing.standardError.contains("See 'biki read --help'"))

    let typo = try BikiProcess.run(["read", "--as", "dat", "1日"])
    #expect(typo.status == 64)
    #expect(typo.standardError.contains("Did you mean 'date'?"))

    let unknownOption = try BikiProcess.run(["read", "--ass", "date", "1日"])
    #expect(unknownOption.status == 64)
    #expect(unknownOption.standardError.contains("Unknown option '--ass'. Did you mean '--as'?"))

    let unknownCommand = try BikiProcess.run(["raed", "8本"])
    #expect(unknownCommand.status == 64)
    #expect(unknownCommand.standardError.contains("Did you mean 'read'?"))
    #expect(unknownCommand.standardOutput.isEmpty)
  }

  @Test func helpAndVersionGoToStandardOutput() throws {
    for arguments in [["--help"], ["-h"], ["help"]] {
      let result = try BikiProcess.run(arguments)
      #expect(result.status == 0)
      #expect(result.standardOutput.contains("USAGE: biki <subcommand>"))
    }
    let readHelp = try BikiProcess.run(["help", "read"])
    #expect(readHelp.standardOutput == (try BikiProcess.run(["read", "--help"])).standardOutput)
    #expect(readHelp.standardOutput.contains("--as <kind>"))
    let version = try BikiProcess.run(["--version"])
    #expect(version.status == 0)
    #expect(version.standardOutput.first?.isNumber == true)
  }
}
