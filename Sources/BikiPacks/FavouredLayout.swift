import BikiCore

/// A topic's questions numbered with the ones it favours first, so a session's order can ask
/// them twice as often (`QuestionOrder`'s `favoured`). Built by naming every question's reading
/// forms, so only topics of at most `maximumSpace` questions may favour some.
struct FavouredLayout: Sendable {
  /// The most questions a topic that favours some may have: its layout is a table.
  static let maximumSpace: UInt64 = 10_000

  /// For each generator index, the program's index: favoured questions first, each group in
  /// the program's order, so the layout is a pure function of the topic and its parameters.
  let programIndex: [UInt32]
  let favouredCount: UInt64

  /// Nil for a space larger than `maximumSpace`.
  init?(_ program: TopicProgram, space: UInt64, favour: TopicDefinition.Favour) {
    guard space <= Self.maximumSpace else { return nil }
    var favoured: [UInt32] = []
    var others: [UInt32] = []
    for index in 0..<UInt32(space) {
      switch favour {
      case .soundChanges:
        if program.forms(index: UInt64(index)).isEmpty { others.append(index) } else { favoured.append(index) }
      }
    }
    programIndex = favoured + others
    favouredCount = UInt64(favoured.count)
  }
}
