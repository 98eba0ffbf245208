import BikiCLI
import BikiCore
import Testing

@testable import biki

/// The topic menu as a conversation: each line typed, and what is shown or chosen.
@Suite struct TopicMenuTests {
  /// Six kinds as the built-in packs have them, with 40 counters: more than a 24-line terminal shows.
  static let entries: [TopicMenu.Entry] =
    [
      .init(id: "numbers.beginner", title: "1–10", category: .number),
      .init(id: "numbers.hundreds", title: "1–100", category: .number),
      .init(id: "money.conbini", title: "Conbini (¥100–1,500)", category: .money),
      .init(id: "durations.hours", title: "Hours (1–48 時間)", category: .duration),
      .init(id: "dates.days", title: "Days of the month (1日–31日)", category: .dateTime),
    ]
    + (0..<20).flatMap { index in
      [
        TopicMenu.Entry(id: "counters.c\(index)", title: "数\(index) (1–10)", category: .counter),
        TopicMenu.Entry(id: "counters.c\(index)-100", title: "数\(index) (1–100)", category: .counter),
      ]
    } + [.init(id: "everyday.temperatures", title: "Temperatures (-10度–35度)", category: .everyday)]

  func chosen(_ step: TopicMenu.Step) -> String? {
    if case .chosen(let index) = step { return Self.entries[index].id }
    return nil
  }

  func shown(_ step: TopicMenu.Step) -> [String] {
    if case .show(let lines) = step { return lines }
    return []
  }

  @Test func theFirstScreenIsTheKindsWithHowManyEachHas() {
    let menu = TopicMenu(entries: Self.entries, rows: 24, columns: 80)
    #expect(
      menu.start() == [
        "Choose a topic: a kind's number, or words to find one (本, hon, 100, dates).",
        "  1. Numbers (2)           1–10, 1–100",
        "  2. Money (1)             Conbini (¥100–1,500)",
        "  3. Durations (1)         Hours (1–48 時間)",
        "  4. Dates and times (1)   Days of the month (1日–31日)",
        "  5. Counters (40)         数0 (1–10), 数0 (1–100), 数1 (1–10), …",
        "  6. Everyday numbers (1)  Temperatures (-10度–35度)",
        "Number, words or a topic id (Enter to stop):",
      ])
    #expect(menu.start().allSatisfy { TerminalText.columns($0) < 80 })
  }

  /// A kind longer than the terminal is shown a screenful at a time; Enter shows the rest, then
  /// goes back to the kinds.
  @Test func aLongKindIsShownAScreenfulAtATime() {
    var menu = TopicMenu(entries: Self.entries, rows: 10, columns: 80)
    let first = shown(menu.answer("5"))
    #expect(first.first == "Counters (40):")
    #expect(first.count == 9)  // and the line typed after it
    #expect(first[1] == "   1. 数0 (1–10)  [counters.c0]")
    #expect(first.suffix(2) == ["  … 34 more", "Number, words, or Enter for more:"])
    let second = shown(menu.answer(""))
    #expect(second.first == "Counters (40), continued:")
    #expect(second[1] == "   7. 数3 (1–10)  [counters.c3]")
    for _ in 0..<4 { _ = menu.answer("") }
    let last = shown(menu.answer(""))
    #expect(last.last == "Number, words, or Enter for the kinds:")
    #expect(shown(menu.answer("")).first == menu.start().first)
    #expect(chosen(menu.answer("quit")) == nil)
  }

  @Test func aNumberInAListPicksFromThatList() {
    var menu = TopicMenu(entries: Self.entries, rows: nil)
    #expect(shown(menu.answer("5")).count == 42)  // a script sees the whole list
    #expect(chosen(menu.answer("40")) == "counters.c19-100")
  }

  /// Words narrow to the topics that have them all, in id, title or kind; one match is chosen.
  @Test func wordsNarrowTheListAndOneMatchIsChosen() {
    var menu = TopicMenu(entries: Self.entries, rows: nil)
    #expect(
      shown(menu.answer("数1 100")) == [
        "Topics matching “数1 100” (11):",
        "   1. 数1 (1–100)  [counters.c1-100]",
        "   2. 数10 (1–100)  [counters.c10-100]",
      ]
        + (11...19).enumerated().map {
          "  \(String($0.offset + 3).count == 1 ? " " : "")\($0.offset + 3). 数\($0.element) (1–100)  [counters.c\($0.element)-100]"
        }
        + ["Number, words, or Enter for the kinds:"])
    #expect(chosen(menu.answer("2")) == "counters.c10-100")
    var again = TopicMenu(entries: Self.entries, rows: nil)
    #expect(chosen(again.answer("temperatures")) == "everyday.temperatures")
    #expect(chosen(again.answer("CONBINI")) == "money.conbini")
    #expect(chosen(again.answer("c7")) == "counters.c7")  // a short id, as `biki quiz c7`
    #expect(chosen(again.answer("numbers.hundreds")) == "numbers.hundreds")
  }

  static let mistakes: [(String, [String])] = [
    ("9", ["There is no kind 9; the kinds go from 1 to 6.", "Number, words or a topic id (Enter to stop):"]),
    (
      "numbers.beginer",
      [
        "No topic matches “numbers.beginer”. Did you mean 'numbers.beginner'?",
        "Number, words or a topic id (Enter to stop):",
      ]
    ),
    ("\u{1B}]0;x\u{7}", ["No topic matches “\\u{1B}]0;x\\u{7}”.", "Number, words or a topic id (Enter to stop):"]),
  ]

  @Test(arguments: mistakes)
  func aMistakeSaysWhatIsWrongAndAsksAgain(typed: String, lines: [String]) {
    var menu = TopicMenu(entries: Self.entries, rows: 24)
    #expect(shown(menu.answer(typed)) == lines)
  }

  @Test func aNumberOutsideAListIsRefused() {
    var menu = TopicMenu(entries: Self.entries, rows: 24)
    _ = menu.answer("1")
    #expect(
      shown(menu.answer("3")) == [
        "There is no topic 3 here; the list goes from 1 to 2.", "Number, words, or Enter for the kinds:",
      ])
  }

  /// Words are looked for in descriptions too, which say in English what a counter counts;
  /// dashes match each other, and a pack id before a dot narrows to that pack.
  @Test func wordsFindTopicsByWhatTheyCount() {
    let described: [TopicMenu.Entry] = [
      .init(
        id: "counters.hai", title: "杯 (1–10)", category: .counter, description: "Counting cups and glasses with 杯."),
      .init(id: "counters.hiki", title: "匹 (1–10)", category: .counter, description: "Counting small animals with 匹."),
      .init(id: "counters.nin", title: "人 (1–10)", category: .counter, description: "Counting people with 人."),
      .init(id: "numbers.tens", title: "1–100", category: .number),
      .init(id: "money.tens", title: "¥1–100", category: .money),
    ]
    func ids(_ typed: String) -> [String] { TopicMenu.matching(typed, in: described).map { described[$0].id } }
    #expect(ids("cups") == ["counters.hai"])
    #expect(ids("Animals") == ["counters.hiki"])
    #expect(ids("people") == ["counters.nin"])
    #expect(ids("1-100") == ["numbers.tens", "money.tens"])
    #expect(ids("numbers.1-100") == ["numbers.tens"])
    #expect(ids("1〜100") == ["numbers.tens", "money.tens"])
    #expect(ids("  ").isEmpty)
  }

  @Test func anEmptyLineAtTheKindsStops() {
    var menu = TopicMenu(entries: Self.entries, rows: 24)
    #expect(menu.answer("") == .cancelled)
  }
}
