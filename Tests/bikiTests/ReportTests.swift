import BikiTestSupport
import Foundation
import Testing

/// `biki stats --html`, rendered by headless Chromium as a learner's browser would show it.
@Suite struct ReportTests {
  static let hasChromium = RealClientTests.required || RealClientTests.succeeds("command -v chromium")

  /// A history of answers with forms, written as Biki writes it: 8本 right, then missed a week
  /// later; 3杯 and 20日 right.
  static func history(at path: String) throws {
    let now = Date().timeIntervalSince1970
    func line(
      _ at: Double, _ topic: String, _ question: String, _ expected: String, _ correct: Bool, _ form: String,
      _ rule: String?
    ) -> String {
      let forms = rule.map { #"[{"id":"\#(form)","rule":"\#($0)"}]"# } ?? #"[{"id":"\#(form)"}]"#
      return
        #"{"at":\#(at),"topic":"\#(topic)","seed":"1","skill":"kana","question":"\#(question)","expected":"\#(expected)","given":"x","correct":\#(correct),"skipped":false,"seconds":3.5,"forms":\#(forms)}"#
    }
    let lines = [
      line(now - 10 * 86_400, "counters.hon", "8本", "はっぽん", true, "本/final:8", "final:8:はっ+h→p"),
      line(now - 3 * 86_400, "counters.hon", "8本", "はっぽん", false, "本/final:8", "final:8:はっ+h→p"),
      line(now - 2 * 86_400, "counters.hai", "3杯", "さんばい", true, "杯/final:3", "final:3:さん+h→b"),
      line(now - 86_400, "dates.days", "20日", "はつか", true, "日/date:20", nil),
    ]
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }

  @Test(.needs(hasChromium, "needs Chromium: sudo apt-get install chromium"))
  func theReportRendersWithItsHeatMap() throws {
    let home = NSTemporaryDirectory() + "biki-report-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: home) }
    try Self.history(at: home + "/state/biki/history.jsonl")
    let page = home + "/report.html"
    let stats = try BikiProcess.run(
      ["stats", "--html=" + page],
      environment: ["HOME": home, "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin"])
    #expect(stats.status == 0, "\(stats.standardError)")

    let render = try BikiProcess.run(
      [],
      viaShell:
        "timeout 90 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --dump-dom \"file://$0\" 2>\"$0.log\"; cat \"$0.log\" >&2"
        .replacingOccurrences(of: "$0", with: page), environment: ["HOME": home, "PATH": "/usr/bin:/bin"])
    #expect(render.status == 0)
    let dom = render.standardOutput
    #expect(dom.contains("<h1>Biki progress</h1>"), "\(dom.prefix(300))")
    // No console error of any kind (the page has no script, so there should be none at all).
    #expect(!render.standardError.contains("CONSOLE"), "\(render.standardError)")
    // The heat map shows the forms this history practised, coloured; the rest of the row grey.
    for form in ["本/final:8", "杯/final:3", "日/date:20"] {
      let cell = dom.components(separatedBy: #"data-form="\#(form)""#).dropFirst().first ?? ""
      #expect(cell.hasPrefix(#" style="background:hsl("#), "\(form): \(cell.prefix(80))")
    }
    #expect(dom.contains(#"class="none" data-form="本/final:1""#))
    // 8本 was missed: its cell is redder (a lower hue) than 3杯's, which was right.
    func hue(_ form: String) -> Int? {
      let after = dom.components(separatedBy: #"data-form="\#(form)" style="background:hsl("#).dropFirst().first ?? ""
      return Int(after.prefix { $0.isNumber })
    }
    let missed = try #require(hue("本/final:8"))
    let known = try #require(hue("杯/final:3"))
    #expect(missed < known)
    #expect(dom.contains(#"class="day""#))
    // The colour means what the learner reads it as: the missed form is weak, the form answered
    // right once is not yet known, and every section has something in it.
    #expect(dom.contains(#"<td class="form weak" data-form="本/final:8""#), "\(dom)")
    #expect(!dom.contains(#"<td class="form known" data-form="杯/final:3""#))
    #expect(dom.contains("<h2>Forms to practise next</h2>") && dom.contains(#"<tr class="weak">"#))
    #expect(dom.contains("3.5 s per answer on average, over 4 answers."))
    // 8本 came back after a week and was missed: a young return, failed, in the last 7 days.
    #expect(dom.contains("<h2>True retention</h2>"))
    #expect(
      dom.contains(#"<tr><th>Last 7 days</th><td title="0 right of 1">0% <small>(0/1)</small></td><td>–</td>"#),
      "\(dom)")
    #expect(dom.contains(#"<tr><th>asked for</th><td colspan="3">90%</td></tr>"#))
    #expect(dom.range(of: #"Daily load: about \d+\.\d reviews a day"#, options: .regularExpression) != nil)
    #expect(dom.range(of: #"About <b>\d</b> of the 3 forms you have met"#, options: .regularExpression) != nil)
    for figure in ["Stability", "Difficulty", "Recall now"] {
      #expect(dom.contains(#"data-figure="\#(figure)""#), "\(figure)")
    }
    #expect(dom.components(separatedBy: "<h2>Forms by counter and number</h2>").count == 2)
    #expect(dom.contains("Noto Sans CJK JP"))
    // The forecast counts the three forms: each falls due within two weeks or later.
    #expect(dom.contains("<h2>Reviews due</h2>") && dom.contains(#"class="due""#))
    #expect(
      dom.range(of: #"forms due today, \d+ in the next two weeks, \d+ later\."#, options: .regularExpression) != nil,
      "\(dom)")
    // The day 8本 was missed is drawn as a red stub, not left out as if there was no practice.
    #expect(dom.contains(##"height="3" fill="#c44""##), "\(dom)")
  }

  static let hasJapaneseFont = RealClientTests.required || RealClientTests.succeeds("fc-list :lang=ja | grep -q .")

  /// The report as drawn: Chromium renders it, and the screenshot's pixels are compared with what
  /// each part should show (Tests/clients/render_page.py measures them).
  @Test(
    .enabled(
      if: hasChromium && hasJapaneseFont,
      "needs Chromium and a Japanese font: sudo apt-get install chromium fonts-ipafont-gothic"))
  func theScreenshotShowsEverySectionInColoursThatMeanTheirStateAndKanjiInAJapaneseFont() throws {
    let home = NSTemporaryDirectory() + "biki-report-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: home) }
    try Self.history(at: home + "/state/biki/history.jsonl")
    let page = home + "/report.html"
    let shot = home + "/report.png"
    let stats = try BikiProcess.run(
      ["stats", "--html=" + page],
      environment: ["HOME": home, "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin"])
    #expect(stats.status == 0, "\(stats.standardError)")
    let render = try BikiProcess.run(
      [], viaShell: "timeout 120 python3 Tests/clients/render_page.py \"\(page)\" \"\(shot)\"",
      environment: ["HOME": home, "PATH": "/usr/bin:/bin"], directory: BikiPackTests.repository.path)
    try #require(render.status == 0, "\(render.standardError)")
    let drawn = try #require(try JSONSerialization.jsonObject(with: Data(render.standardOutput.utf8)) as? [String: Any])
    #expect((drawn["console"] as? [Any])?.isEmpty == true, "the page logged: \(drawn["console"] ?? "")")

    // Every section is there, in order, and has ink in it: no empty chart, no collapsed table.
    let sections = drawn["sections"] as? [[String: Any]] ?? []
    #expect(
      sections.map { $0["title"] as? String ?? "" } == [
        "Accuracy over time", "Time per answer", "Reviews due", "True retention", "Memory",
        "Forms by counter and number",
        "Forms to practise next",
      ])
    for section in sections {
      let height = ((section["box"] as? [String: Any])?["height"] as? Double) ?? 0
      let ink = section["ink"] as? Double ?? 0
      #expect(
        height >= 40 && ink >= 0.01,
        "\(section["title"] ?? ""): \(Int(height)) px high, \(Int(ink * 100))% inked (\(shot))")
    }

    // Each coloured cell is drawn in the colour its state names, and the colour reads as that state.
    func rgb(_ text: String) -> [Int] { text.split { !$0.isNumber }.compactMap { Int($0) } }
    let cells = drawn["cells"] as? [[String: Any]] ?? []
    #expect(Set(cells.compactMap { $0["className"] as? String }) == ["form weak", "form fading"])
    for cell in cells {
      let asked = rgb(cell["background"] as? String ?? "")
      let pixel = (cell["drawn"] as? [Int]) ?? []
      #expect(asked.count == 3 && pixel.count == 3 && zip(asked, pixel).allSatisfy { abs($0 - $1) <= 2 }, "\(cell)")
      guard pixel.count == 3 else { continue }
      let (red, green, blue) = (pixel[0], pixel[1], pixel[2])
      switch cell["className"] as? String {
      case "form weak": #expect(red > green + 40 && red > blue + 40, "weak should read as red: \(cell)")
      case "form fading": #expect(red > blue + 60 && green > blue + 40, "fading should read as amber: \(cell)")
      default: #expect(green > red + 20 && green > blue + 20, "known should read as green: \(cell)")
      }
    }

    // The counters' kanji are drawn by a Japanese font the page's font stack names, so they are
    // glyphs, not empty boxes.
    #expect(drawn["label"] as? String == "本")
    let fonts = drawn["fonts"] as? [[String: Any]] ?? []
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(
      !fonts.isEmpty
        && fonts.allSatisfy { font in
          let family = font["familyName"] as? String ?? ""
          return (font["glyphCount"] as? Int ?? 0) > 0 && !family.isEmpty && html.contains("\"\(family)\"")
        }, "本 was drawn with \(fonts)")
  }
}
