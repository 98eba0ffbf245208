import BikiCLI
import BikiCore
import BikiHost

/// The topic menu of `biki quiz` without a topic: the kinds of topic first, each with how many
/// it has, so the first screen fits any terminal; a kind's number lists its topics, and words
/// list the topics that match them all, as a picker narrows by typing. A list longer than the
/// terminal is shown a screenful at a time. Pure: it is given each line typed and says what to
/// show, so the conversation is tested without a terminal.
struct TopicMenu {
  struct Entry: Sendable, Equatable {
    var id: String
    var title: String
    var category: Topic.Category
    /// Searched too: it says in English what a counter counts (long things, cups, animals).
    var description = ""
  }

  /// The entries whose id, title, kind and description hold every word typed; dashes (1-100,
  /// 1–100, 1〜100) match each other.
  static func matching(_ typed: String, in entries: [Entry]) -> [Int] {
    func folded(_ text: String) -> String {
      String(text.lowercased().map { "–—〜~－".contains($0) ? "-" : $0 })
    }
    // numbers.1-100 is looked for as 1-100 among the numbers pack's topics.
    var text = folded(typed)
    var pack: String?
    if let dot = text.firstIndex(of: "."), entries.contains(where: { $0.id.hasPrefix(text[...dot]) }) {
      pack = String(text[...dot])
      text = String(text[text.index(after: dot)...])
    }
    let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
    guard !words.isEmpty else { return [] }
    return entries.indices.filter { index in
      let entry = entries[index]
      if let pack, !entry.id.hasPrefix(pack) { return false }
      let text = folded("\(entry.id) \(entry.title) \(name(of: entry.category)) \(entry.description)")
      return words.allSatisfy { text.contains($0) }
    }
  }

  /// What to do after a line.
  enum Step: Equatable {
    /// Show these lines and read another.
    case show([String])
    /// The topic at this index of the entries was chosen.
    case chosen(Int)
    /// No topic was chosen.
    case cancelled
  }

  /// Every topic, in the order they are listed.
  let entries: [Entry]
  /// Lines a list may take on the screen; nil to show each list whole (input from a script).
  let rows: Int?
  /// Columns a line may take: a kind's examples are cut to fit.
  let columns: Int
  /// The kinds there are topics of, in menu order, with the entries of each.
  let kinds: [(category: Topic.Category, entries: [Int])]
  /// What a number picks from: the kinds, or the last list of topics shown.
  private var place = Place.kinds
  /// How far the list shown has been shown.
  private var shownUpTo = 0

  private enum Place: Equatable {
    case kinds
    case topics(heading: String, entries: [Int])
  }

  init(entries: [Entry], rows: Int?, columns: Int = 80) {
    self.entries = entries
    self.rows = rows.map { max($0, 8) }
    self.columns = max(columns, 40)
    var kinds: [(Topic.Category, [Int])] = []
    for category in Topic.Category.allCases {
      let members = entries.indices.filter { entries[$0].category == category }
      if !members.isEmpty { kinds.append((category, members)) }
    }
    self.kinds = kinds
  }

  static func name(of category: Topic.Category) -> String {
    switch category {
    case .number: "Numbers"
    case .money: "Money"
    case .duration: "Durations"
    case .dateTime: "Dates and times"
    case .counter: "Counters"
    case .everyday: "Everyday numbers"
    }
  }

  /// The first screen.
  func start() -> [String] {
    // Kinds' names are ASCII: a character is a column.
    let width = kinds.map { "\(Self.name(of: $0.category)) (\($0.entries.count))".count }.max() ?? 0
    var lines = ["Choose a topic: a kind's number, or words to find one (本, hon, 100, dates)."]
    for (number, kind) in kinds.enumerated() {
      let label = "\(Self.name(of: kind.category)) (\(kind.entries.count))"
      let examples = kind.entries.prefix(3).map { entries[$0].title }.joined(separator: ", ")
      let start = "  \(number + 1). \(label)" + String(repeating: " ", count: width - label.count) + "  "
      let room = max(columns - 1 - TerminalText.columns(start), 10)
      let shown = TerminalText.fitting(examples + (kind.entries.count > 3 ? ", …" : ""), width: room)
      lines.append(TerminalText.safe(start + shown))
    }
    lines.append(prompt)
    return lines
  }

  private var prompt: String {
    switch place {
    case .kinds: "Number, words or a topic id (Enter to stop):"
    case .topics(_, let listed):
      shownUpTo < listed.count ? "Number, words, or Enter for more:" : "Number, words, or Enter for the kinds:"
    }
  }

  mutating func answer(_ typed: String) -> Step {
    let line = typed.trimmingCharacters(in: .whitespaces)
    if line.isEmpty {
      switch place {
      case .kinds: return .cancelled
      case .topics(let heading, let listed):
        if shownUpTo < listed.count { return .show(page(heading: heading, listed, continuing: true)) }
        place = .kinds
        return .show(start())
      }
    }
    if line == "q" || line == "quit" { return .cancelled }
    if let number = Int(line) {
      switch place {
      case .kinds:
        guard number >= 1, number <= kinds.count else {
          return .show(["There is no kind \(number); the kinds go from 1 to \(kinds.count).", prompt])
        }
        let kind = kinds[number - 1]
        return .show(list(heading: "\(Self.name(of: kind.category)) (\(kind.entries.count))", kind.entries))
      case .topics(_, let listed):
        guard number >= 1, number <= listed.count else {
          return .show(["There is no topic \(number) here; the list goes from 1 to \(listed.count).", prompt])
        }
        return .chosen(listed[number - 1])
      }
    }
    if let exact = entries.firstIndex(where: { $0.id == line }) { return .chosen(exact) }
    let matching = Self.matching(line, in: entries)
    switch matching.count {
    case 0:
      let hint = Suggestion.didYouMean(line, among: entries.map(\.id))
      return .show([TerminalText.safe("No topic matches “\(line)”.\(hint)"), prompt])
    case 1: return .chosen(matching[0])
    default:
      // A topic's short id (`hon` for counters.hon) picks it, as `biki quiz hon` does.
      let suffixed = matching.filter { entries[$0].id.hasSuffix("." + line) }
      if suffixed.count == 1 { return .chosen(suffixed[0]) }
      return .show(list(heading: TerminalText.safe("Topics matching “\(line)” (\(matching.count))"), matching))
    }
  }

  private mutating func list(heading: String, _ listed: [Int]) -> [String] {
    place = .topics(heading: heading, entries: listed)
    shownUpTo = 0
    return page(heading: heading, listed, continuing: false)
  }

  /// The next screenful of a list: the heading, the topics, how many are left, the prompt.
  private mutating func page(heading: String, _ listed: [Int], continuing: Bool) -> [String] {
    // Besides the topics: the heading, what is left, the prompt, and the line typed after it.
    let room = rows.map { max($0 - 4, 1) } ?? listed.count
    let shown = listed[shownUpTo..<min(listed.count, shownUpTo + room)]
    let digits = String(listed.count).count
    var lines = [continuing ? "\(heading), continued:" : "\(heading):"]
    for (offset, index) in shown.enumerated() {
      let number = String(shownUpTo + offset + 1)
      let entry = entries[index]
      lines.append(
        TerminalText.safe(
          "  \(String(repeating: " ", count: digits - number.count))\(number). \(entry.title)  [\(entry.id)]"))
    }
    shownUpTo += shown.count
    if shownUpTo < listed.count { lines.append("  … \(listed.count - shownUpTo) more") }
    lines.append(prompt)
    return lines
  }
}

extension TopicMenu.Entry {
  init(_ registered: RegisteredTopic) {
    self.init(
      id: registered.topic.id, title: registered.topic.title, category: registered.topic.category,
      description: registered.topic.description)
  }
}
