import Foundation

/// The report's figures of memory, as Anki's statistics show them: true retention beside the
/// retention asked for, the load of reviews to come, and how stability, difficulty and recall
/// are spread over the forms, with an estimate of how many are known. Each with one line saying,
/// in plain words, what it means.
extension ProgressReport {
  /// The periods of the true-retention table, as Anki's: each the practice days it covers.
  func retentionPeriods() -> [(name: String, days: ClosedRange<Int>)] {
    let today = summary.practiceDay.number(now)
    let first = summary.returns.keys.min() ?? today
    return [
      ("Today", today...today), ("Yesterday", (today - 1)...(today - 1)), ("Last 7 days", (today - 6)...today),
      ("Last 30 days", (today - 29)...today), ("All time", min(first, today)...today),
    ]
  }

  /// Of the forms that came back a day or more after their last review, the share answered
  /// right, young and mature, over each period.
  func trueRetention() -> String {
    let desired = Int((summary.scheduler.desiredRetention * 100).rounded())
    var html = "<h2>True retention</h2>\n"
    html +=
      "<p>Of the forms that came back a day or more after you last answered them, how many you got right. Young forms were last due in under \(HistorySummary.Returns.matureInterval) days; mature ones in \(HistorySummary.Returns.matureInterval) or more. Biki schedules reviews for \(desired)% recall: much lower and reviews come too late, much higher and they come sooner than you need.</p>\n"
    guard !summary.returns.isEmpty else {
      return html + "<p>No form has come back yet: answer again tomorrow what you practised today.</p>\n"
    }
    func cell(_ passed: Int, _ failed: Int) -> String {
      let total = passed &+ failed
      guard total > 0 else { return "<td>–</td>" }
      let share = Double(passed) / Double(total)
      return
        "<td title=\"\(passed) right of \(total)\">\(Int((share * 100).rounded()))% <small>(\(passed)/\(total))</small></td>"
    }
    html += "<table class=\"retention\"><tr><th></th><th>young</th><th>mature</th><th>all</th></tr>\n"
    for (name, days) in retentionPeriods() {
      let counts = summary.returns.filter { days.contains($0.key) }.values.reduce(HistorySummary.Returns(), +)
      html +=
        "<tr><th>\(name)</th>\(cell(counts.youngPassed, counts.youngFailed))\(cell(counts.maturePassed, counts.matureFailed))\(cell(counts.youngPassed &+ counts.maturePassed, counts.youngFailed &+ counts.matureFailed))</tr>\n"
    }
    return html + "<tr><th>asked for</th><td colspan=\"3\">\(desired)%</td></tr></table>\n"
  }

  /// About how many reviews a day the forms met so far will ask for from now on: each form
  /// comes back once per interval.
  func dailyLoad() -> Double {
    summary.recall(now: now).reduce(0) { load, form in
      load + 1 / Double(max(1, summary.scheduler.interval(form.memory)))
    }
  }

  /// How stability, difficulty and recall now are spread over the forms met, and how many of
  /// them would be recalled if all were asked now.
  func memoryDistributions() -> String {
    let forms = summary.recall(now: now)
    var html = "<h2>Memory</h2>\n"
    guard !forms.isEmpty else { return html + "<p>No forms practised yet.</p>\n" }
    let known = forms.reduce(0) { $0 + $1.recall }
    html +=
      "<p class=\"known\">About <b>\(Int(known.rounded()))</b> of the \(forms.count) forms you have met would come to you if you were asked them all now (the sum of how likely you are to recall each).</p>\n"
    html += distribution(
      "Stability",
      "how many days until the chance of recalling a form falls to 90%: it grows with each review you get right.",
      forms.map(\.memory.stability),
      buckets: [
        ("under a day", 0), ("1–3 days", 1), ("3–7 days", 3), ("1–3 weeks", 7), ("3 weeks–3 months", 21),
        ("3–12 months", 90), ("a year or more", 365),
      ])
    html += distribution(
      "Difficulty",
      "from 1 (easy) to 10 (hard), how hard a form is for you: it rises when you miss it and falls back slowly.",
      forms.map(\.memory.difficulty), buckets: (1...9).map { ("\($0)–\($0 + 1)", Double($0)) })
    html += distribution(
      "Recall now", "how likely you are to recall each form today; a form is due when this falls to 90%.",
      forms.map(\.recall), buckets: stride(from: 0, to: 100, by: 10).map { ("\($0)–\($0 + 10)%", Double($0) / 100) })
    return html
  }

  private func distribution(
    _ title: String, _ meaning: String, _ values: [Double], buckets: [(label: String, from: Double)]
  ) -> String {
    // Each value in the last bucket that starts at or below it; below the first, in the first.
    var counts = [Int](repeating: 0, count: buckets.count)
    for value in values {
      counts[max(0, (buckets.lastIndex { $0.from <= value }) ?? 0)] += 1
    }
    let top = max(counts.max() ?? 1, 1)
    var html =
      "<h3>\(title)</h3>\n<p>\(title): \(meaning)</p>\n<table class=\"distribution\" data-figure=\"\(title)\">\n"
    for ((label, _), count) in zip(buckets, counts) {
      let width = Int((Double(count) / Double(top) * 200).rounded())
      html +=
        "<tr><th>\(label)</th><td>\(count)</td><td style=\"text-align:left\"><span class=\"bar\" style=\"display:inline-block;height:.8em;width:\(width)px;background:#58b\"></span></td></tr>\n"
    }
    return html + "</table>\n"
  }
}
