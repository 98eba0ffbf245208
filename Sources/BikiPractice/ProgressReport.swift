import BikiCore
import BikiJapanese
import Foundation

/// `biki stats --html`: one self-contained page (inline CSS and SVG, no script, nothing fetched)
/// with accuracy over time, time per answer, and a heat map of forms coloured by recall:
/// counters by final digit, the days of the month, the hours.
package struct ProgressReport {
  package var summary: HistorySummary
  /// Seconds since 1970, for recall and the dates shown.
  package var now: Double
  package var catalog: CounterCatalog = .standard

  package init(summary: HistorySummary, now: Double) {
    self.summary = summary
    self.now = now
  }

  /// The recall of each rule practised, for any skill (the weakest when skills differ).
  var recallByRule: [String: Double] {
    var recall: [String: Double] = [:]
    for form in summary.recall(now: now) { recall[form.rule] = min(recall[form.rule] ?? 1, form.recall) }
    return recall
  }

  package func html() -> String {
    let stats = summary.stats(now: now)
    var page = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>Biki progress</title>
      <style>
      body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222}
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
    page += accuracyChart() + timeChart() + heatMap()
    page += "<h2>Forms by recall</h2>\n<table><tr><th>recall</th><th>form</th><th>skill</th><th>reviews</th><th>missed</th></tr>\n"
    for form in stats.forms.prefix(30) {
      page += "<tr><td>\(Int((form.recall * 100).rounded()))%</td><td>\(Self.escape(form.example))</td><td>\(form.skill.rawValue)</td><td>\(form.reviews)</td><td>\(form.lapses)</td></tr>\n"
    }
    page += "</table>\n</body></html>\n"
    return page
  }

  /// The last 60 days with answers: accuracy as bars.
  func accuracyChart() -> String {
    let days = summary.days.sorted { $0.key < $1.key }.suffix(60)
    guard !days.isEmpty else { return "<h2>Accuracy over time</h2>\n<p>No answers yet.</p>\n" }
    let width = 12, height = 120
    var svg = "<h2>Accuracy over time</h2>\n<svg role=\"img\" aria-label=\"accuracy per day\" width=\"\(days.count * width + 40)\" height=\"\(height + 30)\">\n"
    svg += "<text x=\"0\" y=\"12\">100%</text><text x=\"0\" y=\"\(height + 4)\">0%</text>\n"
    for (offset, (day, totals)) in days.enumerated() {
      let attempts = totals.answers + totals.skipped
      let accuracy = attempts == 0 ? 0 : Double(totals.correct) / Double(attempts)
      let bar = Int((accuracy * Double(height - 10)).rounded())
      svg += "<rect class=\"day\" data-day=\"\(Self.date(Double(day) * 86_400))\" x=\"\(40 + offset * width)\" y=\"\(height - bar)\" width=\"\(width - 2)\" height=\"\(bar)\" fill=\"#4a7\"><title>\(Self.date(Double(day) * 86_400)): \(Int((accuracy * 100).rounded()))% of \(attempts)</title></rect>\n"
    }
    return svg + "</svg>\n"
  }

  /// Average seconds per answer on those days.
  func timeChart() -> String {
    let days = summary.days.sorted { $0.key < $1.key }.suffix(60)
    guard !days.isEmpty else { return "" }
    let averages = days.map { _, totals in totals.answers == 0 ? 0 : totals.seconds / Double(totals.answers) }
    let top = max(averages.max() ?? 1, 1)
    let width = 12, height = 80
    var svg = "<h2>Time per answer</h2>\n<svg role=\"img\" aria-label=\"seconds per answer\" width=\"\(days.count * width + 40)\" height=\"\(height + 20)\">\n"
    svg += "<text x=\"0\" y=\"12\">\(Int(top.rounded()))s</text>\n"
    for (offset, average) in averages.enumerated() {
      let bar = Int((average / top * Double(height - 10)).rounded())
      svg += "<rect x=\"\(40 + offset * width)\" y=\"\(height - bar)\" width=\"\(width - 2)\" height=\"\(bar)\" fill=\"#58b\"><title>\(String(format: "%.1f", average)) s</title></rect>\n"
    }
    return svg + "</svg>\n"
  }

  /// Rows of forms (a counter's final digits 1–10, the days of the month, the hours), each cell
  /// coloured by the recall of its rule; forms never practised are grey.
  func heatMap() -> String {
    let recall = recallByRule
    var rows: [(label: String, cells: [(key: String, form: ReadingForm?)])] = []
    for counter in catalog.counters where counter.kind == .counter {
      let cells = (1...10).map { value -> (String, ReadingForm?) in (String(value), ReadingForms.of(UInt128(value), counter: counter).first) }
      // Only counters the learner has met, and only where a form applies.
      guard cells.contains(where: { $0.1.map { recall[$0.rule] != nil } ?? false }) else { continue }
      rows.append(("\(counter.symbol)", cells))
    }
    let numbers = [300, 600, 800, 3000, 8000].map { value -> (String, ReadingForm?) in (String(value), ReadingForms.of(UInt128(value)).first) }
    if numbers.contains(where: { $0.1.map { recall[$0.rule] != nil } ?? false }) { rows.append(("百 千 (numbers)", numbers)) }
    let dates = (1...31).map { day -> (String, ReadingForm?) in (String(day), ReadingForms.of(UInt128(day), counter: .dayOfMonth).first) }
    if dates.contains(where: { $0.1.map { recall[$0.rule] != nil } ?? false }) { rows.append(("日 (dates)", dates)) }
    let hours = (0...12).map { hour -> (String, ReadingForm?) in (String(hour), ReadingForms.of(UInt128(hour), counter: .hour).first) }
    if hours.contains(where: { $0.1.map { recall[$0.rule] != nil } ?? false }) { rows.append(("時 (hours)", hours)) }

    var html = "<h2>Forms by recall</h2>\n<p class=\"legend\"><span style=\"background:\(Self.colour(0.3))\">weak</span><span style=\"background:\(Self.colour(0.7))\">fading</span><span style=\"background:\(Self.colour(0.97))\">known</span><span class=\"none\">not practised</span></p>\n"
    guard !rows.isEmpty else { return html + "<p>No forms practised yet.</p>\n" }
    html += "<table class=\"heat\">\n"
    for row in rows {
      html += "<tr><th>\(Self.escape(row.label))</th>"
      for (key, form) in row.cells {
        if let form, let value = recall[form.rule] {
          html += "<td class=\"form\" data-form=\"\(Self.escape(form.id))\" style=\"background:\(Self.colour(value))\" title=\"\(Self.escape(form.id)): \(Int((value * 100).rounded()))%\">\(key)</td>"
        } else if let form {
          html += "<td class=\"none\" data-form=\"\(Self.escape(form.id))\" title=\"\(Self.escape(form.id)): not practised\">\(key)</td>"
        } else {
          html += "<td></td>"
        }
      }
      html += "</tr>\n"
    }
    return html + "</table>\n"
  }

  /// Red (forgotten) through amber to green (known).
  static func colour(_ recall: Double) -> String {
    let hue = Int((max(0, min(1, recall)) * 120).rounded())
    return "hsl(\(hue),70%,75%)"
  }

  static func date(_ seconds: Double) -> String {
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
