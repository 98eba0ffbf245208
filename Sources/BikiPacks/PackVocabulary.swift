import BikiCore
import BikiJapanese

/// Every key and every fixed value the pack format has, in one place: the decoder checks packs
/// against it and the language server completes from it, so the two cannot disagree.
package enum PackVocabulary {
  /// The kinds of object a pack holds.
  package enum Object: Sendable, CaseIterable {
    case pack, counter, counterValues, thing, topic, variable, range, choice, eraYear, parameter, question, part, answer
  }

  /// An object's keys: those it must have, then those it may have.
  package static func keys(of object: Object) -> (required: [String], optional: [String]) {
    switch object {
    case .pack: (["format", "id", "title", "version", "topics"], ["$schema", "description", "counters", "objects"])
    case .thing: (["name", "reading", "counters"], ["meaning", "uncommon"])
    case .counter: (["id", "symbols", "reading"], ["kind", "whole", "final", "zero", "values", "note"])
    case .counterValues: (["min", "max"], [])
    case .topic:
      (["id", "title", "category", "skills", "variables", "question"], ["description", "parameters", "favour"])
    case .variable: ([], variableKinds)
    case .range: (["min", "max"], ["step"])
    case .choice: (["text", "reading", "value"], [])
    case .eraYear: (["eras"], ["through"])
    case .parameter: (["target", "min", "max"], ["description"])
    case .question: (["parts", "answer"], [])
    case .part: ([], partKinds + ["reading", "counter", "style", "width", "decimals", "denominator"])
    case .answer: (["value"], ["prefix", "postfix", "accept", "style", "decimals", "denominator"])
    }
  }

  static let variableKinds = ["range", "choice", "eraYear", "derive", "counters", "objects"]
  static let partKinds = ["text", "number", "money", "choice", "eraYear", "clock"]
  package static let numberStyles = ["grouped", "plain", "kanjiDigits", "digits", "slash"]
  package static let answerStyles = ["grouped", "plain", "slash", "clock"]
  package static var categories: [String] { Topic.Category.allCases.map(\.rawValue) }
  package static var favours: [String] { TopicDefinition.Favour.allCases.map(\.rawValue) }
  package static var skills: [String] { Skill.allCases.map(\.rawValue) }
  package static var counterKinds: [String] { BikiJapanese.Counter.Kind.allCases.map(\.rawValue) }
  package static var eras: [String] { Era.all.map(\.name) }

  /// One step down into a pack: a key of an object, or any element of an array.
  package enum Step: Hashable, Sendable {
    case key(String)
    case element
  }

  /// Which object sits at a path from the pack's root, if the format puts one there. Keys under
  /// `variables` and `parameters` are names the author chooses.
  package static func object(at path: [Step]) -> Object? {
    /// Under a key: the object, and what comes between (an array's element, or a chosen name).
    enum Between { case nothing, element, name }
    let children: [Object: [String: (Between, Object)]] = [
      .pack: ["counters": (.element, .counter), "objects": (.element, .thing), "topics": (.element, .topic)],
      .counter: ["values": (.nothing, .counterValues)],
      .topic: ["variables": (.name, .variable), "parameters": (.name, .parameter), "question": (.nothing, .question)],
      .variable: ["range": (.nothing, .range), "eraYear": (.nothing, .eraYear), "choice": (.element, .choice)],
      .question: ["parts": (.element, .part), "answer": (.nothing, .answer)],
    ]
    var object = Object.pack
    var index = 0
    while index < path.count {
      guard case .key(let key) = path[index], let (between, child) = children[object]?[key] else { return nil }
      index += 1
      switch between {
      case .nothing: break
      case .element:
        guard index < path.count, path[index] == .element else { return nil }
        index += 1
      case .name:
        guard index < path.count, case .key = path[index] else { return nil }
        index += 1
      }
      object = child
    }
    return object
  }
}
