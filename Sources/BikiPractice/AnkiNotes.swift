import BikiCore
import BikiJapanese
import Foundation

/// Questions as a text file Anki imports (File › Import): tab-separated, one note per line,
/// its header lines saying how to read it. Each note has a stable id (`biki:TOPIC:SKILL:SEED`),
/// so importing a later export updates the notes already imported instead of adding them twice.
package struct AnkiNotes {
  package struct Note: Equatable, Sendable {
    package var id: String
    /// The question as Biki shows it.
    package var front: String
    /// The answer as Biki reveals it.
    package var back: String
    /// The standard reading, in kana.
    package var reading: String
    /// Every reading Biki accepts, standard first.
    package var accepted: [String]
    package var tags: [String]
  }

  package static let columns = ["id", "Front", "Back", "Reading", "Accepted", "Tags"]

  /// The note for a question asked for `skill`, exercising `forms`.
  package static func note(_ question: Question, skill: Skill, forms: [ReadingForm]) -> Note {
    let accepted = question.reading.all()
    return Note(
      id: "biki:\(question.topicID):\(skill.rawValue):\(question.seed)", front: question.prompt(for: skill),
      back: question.expected(for: skill), reading: question.reading.standard, accepted: accepted,
      tags: ["biki", "biki::topic::\(question.topicID)", "biki::skill::\(skill.rawValue)"]
        + Set(forms.map(\.id)).sorted().map { "biki::form::\($0)" })
  }

  package static func text(_ notes: [Note]) -> String {
    var lines = [
      "#separator:tab", "#html:false", "#guid column:1", "#tags column:\(columns.count)",
      "#columns:" + columns.joined(separator: "\t"),
    ]
    for note in notes {
      let fields = [
        note.id, note.front, note.back, note.reading, note.accepted.joined(separator: "、"),
        note.tags.map(tag).joined(separator: " "),
      ]
      lines.append(fields.map(field).joined(separator: "\t"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A field as Anki's reader takes it back: quoted, with quotes doubled, when it holds a tab,
  /// a line break or a quote (and when it starts with `#`, which would read as a header).
  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\"" }) || text.hasPrefix("#") else {
      return text
    }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// A tag cannot hold white space: each run of it becomes `_`.
  static func tag(_ text: String) -> String {
    String(text.map { $0.isWhitespace ? "_" : $0 })
  }
}
