import BikiCore
import BikiJapanese
import Foundation

/// `biki stats --html`: one self-contained page (inline CSS and SVG, no script, nothing fetched)
/// with accuracy over time, time per answer, the reviews coming due and the daily load, true
/// retention, how memory is spread over the forms, a heat map of forms coloured weak, fading or
/// known (counters by final digit, the days of the month, the hours), and the forms to practise
/// next.
package struct ProgressReport {
  var summary: HistorySummary
  /// Seconds since 1970, for recall and the dates shown.
  var now: Double
  var catalog: CounterCatalog = .standard

  package init(summary: HistorySummary, now: Double) {
    self.summary = summary
    self.now = now
  }

  /// Each rule practised, for any skill (the weakest when skills differ): its recall a week
  /// from now and its state, as stats and review mode judge it.
  var formsByRule: [String: HistoryStats.FormRecall] {
    var forms: [String: HistoryStats.FormRecall] = [:]
    for form in summary.recall(now: now) where forms[form.rule].map({ form.recallInAWeek < $0.recallInAWeek }) ?? true {
      forms[form.rule] = form
    }
    return forms
  }

  package func html() -> String {
    let stats = summary.stats(now: now)
    var page = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>Biki progress</title>
      <style>
      body{font-family:system-ui,"Hiragino Sans","Hiragino Kaku Gothic ProN","Noto Sans CJK JP","Noto Sans JP","Yu Gothic","Meiryo","IPAexGothic","IPAPGothic","IPAGothic","VL PGothic","TakaoPGothic",sans-serif;margin:2em auto;max-width:60em;color:#222}
      h1,h2{font-weight:600} table{border-collapse:collapse;margin:.5em 0}
      td,th{padding:.25em .5em;text-align:right} th{font-weight:500;color:#555}
      .heat td{width:3.2em;text-align:center;border:1px solid #fff;font-size:.85em}
      .heat th{text-align:left} .none{background:#eee;color:#999}
      .legend span{display:inline-block;padding:.1em .6em;margin-right:.3em}
      svg text{font-size:11px;fill:#555}
      </style></head><body>
      <h1>Biki progress</h1>
      <p>\(stats.total.answers) answers, \(stats.total.correct) correct, \(stats.total.skipped) skipped, as of \(Self.date(now)).</p>

      """
    page += accuracyChart() + timeChart() + forecast() + trueRetention() + memoryDistributions() + heatMap()
    page += "<h2>Forms to practise next</h2>\n"
    if stats.forms.isEmpty {
      page += "<p>No forms practised yet.</p>\n"
    } else {
      page +=
        "<table class=\"forms\"><tr><th>state</th><th>recall in a week</th><th>form</th><th>skill</th><th>reviews</th><th>missed</th></tr>\n"
      for form in stats.forms.prefix(30) {
        page +=
          "<tr class=\"\(form.state.rawValue)\"><td style=\"background:\(Self.colour(form.state))\">\(form.state.rawValue)</td><td>\(Int((form.recallInAWeek * 100).rounded()))%</td><td>\(Self.escape(form.label))</td><td>\(form.skill.rawValue)</td><td>\(form.reviews)</td><td>\(form.lapses)</td></tr>\n"
      }
      page += "</table>\n"
    }
    page += "</body></html>\n"
    return page
  }

  /// The calendar days the charts span: the last 60 up to the latest day with answers, empty
  /// days included, so the distance between bars is time and a gap is a day without practice.
  func chartDays() -> [(day: Int, totals: HistorySummary.Totals?)] {
    guard let last = summary.days.keys.max(), let first = summary.days.keys.min() else { return [] }
    // Checked: a forged history may hold any day number.
    let (start, overflow) = last.subtractingReportingOverflow(59)
    return ((overflow ? first : max(first, start))...last).map { ($0, summary.days[$0]) }
  }

  /// The dates under a day chart: its first day at the left, its last at the right, or both
  /// together when a short span leaves no room for two dates.
  static func dayLabels(_ days: [(day: Int, totals: HistorySummary.Totals?)], width: Int, y: Int) -> String {
    guard let first = days.first?.day, let last = days.last?.day else { return "" }
    let from = date(Double(first) * 86_400)
    let to = date(Double(last) * 86_400)
    if last == first { return "<text x=\"40\" y=\"\(y)\">\(from)</text>\n" }
    // A date takes about 60 px at the chart's 11 px type.
    if days.count * width < 140 { return "<text x=\"40\" y=\"\(y)\">\(from) to \(to)</text>\n" }
    return
      "<text x=\"40\" y=\"\(y)\">\(from)</text><text x=\"\(40 + days.count * width)\" y=\"\(y)\" text-anchor=\"end\">\(to)</text>\n"
  }

  /// Accuracy per day as bars over the last 60 days. A day with answers and none right gets a
  /// red stub, so it reads as a bad day and not as a day off.
  func accuracyChart() -> String {
    let days = chartDays()
    guard !days.isEmpty else { return "<h2>Accuracy over time</h2>\n<p>No answers yet.</p>\n" }
    let width = 12
    let height = 120
    var svg = "<h2>Accuracy over time</h2>\n"
    let practised = days.compactMap { day in day.totals.map { (day.day, $0) } }
    if practised.count == 1, let (day, totals) = practised.first {
      let attempts = totals.answers + totals.skipped
      svg +=
        "<p>\(Self.date(Double(day) * 86_400)): \(totals.correct) right of \(attempts) (\(attempts == 0 ? 0 : Int((Double(totals.correct) / Double(attempts) * 100).rounded()))%). Practise on more days to see a trend.</p>\n"
    }
    svg +=
      "<svg role=\"img\" aria-label=\"accuracy per day\" width=\"\(max(days.count, 14) * width + 60)\" height=\"\(height + 30)\">\n"
    svg += "<text x=\"0\" y=\"12\">100%</text><text x=\"0\" y=\"\(height + 4)\">0%</text>\n"
    for (offset, (day, totals)) in days.enumerated() {
      guard let totals else { continue }
      let attempts = totals.answers + totals.skipped
      let accuracy = attempts == 0 ? 0 : Double(totals.correct) / Double(attempts)
      let bar = max(3, Int((accuracy * Double(height - 10)).rounded()))
      svg +=
        "<rect class=\"day\" data-day=\"\(Self.date(Double(day) * 86_400))\" x=\"\(40 + offset * width)\" y=\"\(height - bar)\" width=\"\(width - 2)\" height=\"\(bar)\" fill=\"\(totals.correct == 0 ? "#c44" : "#4a7")\"><title>\(Self.date(Double(day) * 86_400)): \(totals.correct) right of \(attempts) (\(Int((accuracy * 100).rounded()))%)</title></rect>\n"
    }
    return svg + Self.dayLabels(days, width: width, y: height + 20) + "</svg>\n"
  }

  /// Average seconds per answer on the same days.
  func timeChart() -> String {
    let days = chartDays()
    guard !days.isEmpty else { return "" }
    let averages = days.map { day in day.totals.flatMap { $0.answers == 0 ? nil : $0.seconds / Double($0.answers) } }
    let top = max(averages.compactMap { $0 }.max() ?? 1, 1)
    let width = 12
    let height = 80
    let answers = days.reduce(0) { $0 + ($1.totals?.answers ?? 0) }
    let seconds = days.reduce(0.0) { $0 + ($1.totals?.seconds ?? 0) }
    var svg =
      "<h2>Time per answer</h2>\n<p>\(String(format: "%.1f", answers == 0 ? 0 : seconds / Double(answers))) s per answer on average, over \(answers) \(answers == 1 ? "answer" : "answers").</p>\n"
    svg +=
      "<svg role=\"img\" aria-label=\"seconds per answer\" width=\"\(max(days.count, 14) * width + 60)\" height=\"\(height + 30)\">\n"
    svg += "<text x=\"0\" y=\"12\">\(Int(top.rounded()))s</text>\n"
    for (offset, average) in averages.enumerated() {
      guard let average else { continue }
      let bar = max(1, Int((average / top * Double(height - 10)).rounded()))
      svg +=
        "<rect x=\"\(40 + offset * width)\" y=\"\(height - bar)\" width=\"\(width - 2)\" height=\"\(bar)\" fill=\"#58b\"><title>\(Self.date(Double(days[offset].day) * 86_400)): \(String(format: "%.1f", average)) s</title></rect>\n"
    }
    return svg + Self.dayLabels(days, width: width, y: height + 20) + "</svg>\n"
  }

  /// How many forms fall due each day of the next two weeks (overdue ones today), as Anki's
  /// forecast shows: how much review is coming.
  func forecast() -> String {
    let forms = summary.recall(now: now)
    guard !forms.isEmpty else { return "" }
    let today = (now / 86_400).rounded(.down)
    var counts = [Int](repeating: 0, count: 14)
    for form in forms {
      let day = Int(max(0, (form.due / 86_400).rounded(.down) - today))
      if day < counts.count { counts[day] += 1 }
    }
    let later = forms.count - counts.reduce(0, +)
    let top = max(counts.max() ?? 1, 1)
    let width = 24
    let height = 80
    var html =
      "<h2>Reviews due</h2>\n<p>\(counts[0]) \(counts[0] == 1 ? "form" : "forms") due today, \(counts.reduce(0, +)) in the next two weeks, \(later) later.</p>\n<p class=\"load\">Daily load: about \(String(format: "%.1f", dailyLoad())) reviews a day to keep up the forms met so far (each comes back once per interval).</p>\n"
    html +=
      "<svg role=\"img\" aria-label=\"forms due per day\" width=\"\(counts.count * width + 60)\" height=\"\(height + 30)\">\n"
    for (offset, count) in counts.enumerated() {
      let bar = Int((Double(count) / Double(top) * Double(height - 10)).rounded())
      let label = offset == 0 ? "today" : Self.date((today + Double(offset)) * 86_400)
      html +=
        "<rect class=\"due\" x=\"\(40 + offset * width)\" y=\"\(height - bar)\" width=\"\(width - 4)\" height=\"\(bar)\" fill=\"#b84\"><title>\(label): \(count)</title></rect>\n"
    }
    html +=
      "<text x=\"40\" y=\"\(height + 20)\">today</text><text x=\"\(40 + counts.count * width)\" y=\"\(height + 20)\" text-anchor=\"end\">in 13 days</text>\n"
    return html + "</svg>\n"
  }

  /// Rows of forms (a counter's final digits 1–10, the days of the month, the hours), each cell
  /// met coloured by the recall of its rule; forms never met are grey, as not practised.
  func heatMap() -> String {
    let recall = formsByRule
    var rows: [(label: String, cells: [(key: String, form: ReadingForm?)])] = []
    for counter in catalog.counters where counter.kind == .counter {
      let cells = (1...10).map { value -> (String, ReadingForm?) in
        (String(value), ReadingForms.of(UInt128(value), counter: counter).first)
      }
      // Only counters the learner has met, and only where a form applies.
      guard cells.contains(where: { $0.1.map { summary.metForms.contains($0.id) } ?? false }) else { continue }
      rows.append(("\(counter.symbol)", cells))
    }
    let numbers = [300, 600, 800, 3000, 8000].map { value -> (String, ReadingForm?) in
      (String(value), ReadingForms.of(UInt128(value)).first)
    }
    if numbers.contains(where: { $0.1.map { summary.metForms.contains($0.id) } ?? false }) {
      rows.append(("百 千 (numbers)", numbers))
    }
    let dates = (1...31).map { day -> (String, ReadingForm?) in
      (String(day), ReadingForms.of(UInt128(day), counter: .dayOfMonth).first)
    }
    if dates.contains(where: { $0.1.map { summary.metForms.contains($0.id) } ?? false }) {
      rows.append(("日 (dates)", dates))
    }
    let hours = (0...12).map { hour -> (String, ReadingForm?) in
      (String(hour), ReadingForms.of(UInt128(hour), counter: .hour).first)
    }
    if hours.contains(where: { $0.1.map { summary.metForms.contains($0.id) } ?? false }) {
      rows.append(("時 (hours)", hours))
    }

    var html =
      "<h2>Forms by counter and number</h2>\n<p class=\"legend\"><span style=\"background:\(Self.colour(.weak))\">weak</span><span style=\"background:\(Self.colour(.fading))\">fading</span><span style=\"background:\(Self.colour(.known))\">known</span><span class=\"none\">not practised</span> — by how likely you are to recall each a week from now</p>\n"
    guard !rows.isEmpty else { return html + "<p>No forms practised yet.</p>\n" }
    html += "<table class=\"heat\">\n"
    for row in rows {
      html += "<tr><th>\(Self.escape(row.label))</th>"
      for (key, form) in row.cells {
        // A form never met is new, whatever another form of its rule (6本 for 6杯) shows.
        if let form, summary.metForms.contains(form.id), let known = recall[form.rule] {
          html +=
            "<td class=\"form \(known.state.rawValue)\" data-form=\"\(Self.escape(form.id))\" style=\"background:\(Self.colour(known.state))\" title=\"\(Self.escape(form.id)): \(known.state.rawValue), \(Int((known.recallInAWeek * 100).rounded()))% in a week\">\(key)</td>"
        } else if let form {
          html +=
            "<td class=\"none\" data-form=\"\(Self.escape(form.id))\" title=\"\(Self.escape(form.id)): not practised\">\(key)</td>"
        } else {
          html += "<td></td>"
        }
      }
      html += "</tr>\n"
    }
    return html + "</table>\n"
  }

  /// Red for weak, amber for fading, green for known: what the learner reads the colour as.
  static func colour(_ state: HistoryStats.FormState) -> String {
    switch state {
    case .weak: "hsl(0,70%,75%)"
    case .fading: "hsl(40,85%,70%)"
    case .known: "hsl(120,50%,70%)"
    }
  }

  /// A day as 2026-11-28, in UTC.
  package static func date(_ seconds: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }

  static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
