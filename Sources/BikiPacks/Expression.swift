/// A tiny integer expression language for derived values: `hour + 12 * meridiem`,
/// `gregorian(y)`, `(n - 1) / 10`. Integers, the four operators plus `%`, parentheses,
/// variable names and the functions below. This is the syntax; `SlotExpression` evaluates it,
/// checked: overflow and division by zero are errors, never traps.
///
/// A tree is at most `maximumDepth` deep, so everything that walks one recursively (the
/// parser, `variables`, evaluation, even releasing it) uses a small, fixed amount of stack
/// whatever a pack author writes.
indirect enum Expression: Hashable, Sendable {
  case literal(Int64)
  case variable(String)
  case unary(negate: Expression)
  case binary(Operator, Expression, Expression)
  /// A function applied to a variable: every function takes exactly one variable name.
  case call(Function, String)

  enum Operator: Character, Hashable, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
  }

  enum Function: String, Hashable, Sendable, CaseIterable {
    /// The Gregorian year of an `eraYear` variable.
    case gregorian
    /// The era year (1 for 元年) of an `eraYear` variable.
    case eraYear
  }

  /// Every variable the expression reads.
  var variables: [String] {
    switch self {
    case .literal: []
    case .variable(let name): [name]
    case .unary(let operand): operand.variables
    case .binary(_, let left, let right): left.variables + right.variables
    case .call(_, let name): [name]
    }
  }

  /// The variables the expression reads as numbers: every one but a function's argument.
  var numberVariables: [String] {
    switch self {
    case .literal, .call: []
    case .variable(let name): [name]
    case .unary(let operand): operand.numberVariables
    case .binary(_, let left, let right): left.numberVariables + right.numberVariables
    }
  }

  /// The functions called, with the variable each is applied to.
  var calls: [(Function, String)] {
    switch self {
    case .literal, .variable: []
    case .unary(let operand): operand.calls
    case .binary(_, let left, let right): left.calls + right.calls
    case .call(let function, let name): [(function, name)]
    }
  }

  /// Operators deep, counting the leaves: `n` is 1, `a + b * c` is 3.
  static let maximumDepth = 100
}

enum ExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
  case syntax(String, offset: Int)
  case undefined(String)
  case overflow
  case divisionByZero
  case notAnEraYear(String)
  case notACounter
  case notAChoice

  var description: String {
    switch self {
    case .syntax(let message, _): message
    case .undefined(let name): "'\(name)' is not a variable of this topic"
    case .overflow: "the value overflows a 64-bit integer"
    case .divisionByZero: "division by zero"
    case .notAnEraYear(let function): "\(function)() takes the name of an eraYear variable"
    case .notACounter: "the counter is not a counters variable"
    case .notAChoice: "a choice part needs a choice variable"
    }
  }
}

extension Expression {
  /// Parses an expression; errors carry the character offset where they occur.
  static func parse(_ text: String) throws(ExpressionError) -> Expression {
    var parser = ExpressionParser(characters: Array(text))
    let expression = try parser.parseSum().expression
    parser.skipSpaces()
    guard parser.index == parser.characters.count else {
      throw .syntax("unexpected '\(parser.characters[parser.index])'", offset: parser.index)
    }
    return expression
  }
}

/// Recursive descent that tracks the depth of the tree it builds and stops at
/// `Expression.maximumDepth`; a sum of many terms is built in a loop, so only the depth it
/// produces, not the parser's own recursion, decides when to stop.
private struct ExpressionParser {
  let characters: [Character]
  var index = 0

  typealias Node = (expression: Expression, depth: Int)

  mutating func skipSpaces() {
    while index < characters.count, characters[index] == " " { index += 1 }
  }

  func deeper(_ depth: Int, at offset: Int) throws(ExpressionError) -> Int {
    guard depth <= Expression.maximumDepth else {
      throw .syntax(
        "the expression is more than \(Expression.maximumDepth) operations deep; split it into derived variables",
        offset: offset)
    }
    return depth
  }

  /// `nesting` counts the unary minus signs and parentheses around this part, so a run of
  /// them stops the recursion before the tree is built.
  mutating func parseSum(nesting: Int = 0) throws(ExpressionError) -> Node {
    var left = try parseProduct(nesting: nesting)
    while true {
      skipSpaces()
      guard index < characters.count, let op = Expression.Operator(rawValue: characters[index]),
        op == .add || op == .subtract
      else { return left }
      let offset = index
      index += 1
      let right = try parseProduct(nesting: nesting)
      left = (.binary(op, left.expression, right.expression), try deeper(max(left.depth, right.depth) + 1, at: offset))
    }
  }

  mutating func parseProduct(nesting: Int) throws(ExpressionError) -> Node {
    var left = try parseFactor(nesting: nesting)
    while true {
      skipSpaces()
      guard index < characters.count, let op = Expression.Operator(rawValue: characters[index]),
        op == .multiply || op == .divide || op == .remainder
      else { return left }
      let offset = index
      index += 1
      let right = try parseFactor(nesting: nesting)
      left = (.binary(op, left.expression, right.expression), try deeper(max(left.depth, right.depth) + 1, at: offset))
    }
  }

  mutating func parseFactor(nesting: Int) throws(ExpressionError) -> Node {
    skipSpaces()
    guard index < characters.count else { throw .syntax("expected a number, a name or '(' at the end", offset: index) }
    _ = try deeper(nesting + 1, at: index)
    let character = characters[index]
    if character == "-" {
      let offset = index
      index += 1
      let operand = try parseFactor(nesting: nesting + 1)
      return (.unary(negate: operand.expression), try deeper(operand.depth + 1, at: offset))
    }
    if character == "(" {
      index += 1
      let inner = try parseSum(nesting: nesting + 1)
      skipSpaces()
      guard index < characters.count, characters[index] == ")" else { throw .syntax("expected ')'", offset: index) }
      index += 1
      return inner
    }
    if character.isASCII, character.isNumber {
      let start = index
      while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
      guard index - start <= 19, let number = Int64(String(characters[start..<index])) else {
        throw .syntax("the number is too large for a 64-bit integer", offset: start)
      }
      return (.literal(number), 1)
    }
    if let name = parseName() {
      skipSpaces()
      guard index < characters.count, characters[index] == "(" else { return (.variable(name.text), 1) }
      guard let function = Expression.Function(rawValue: name.text) else {
        throw .syntax(
          "unknown function '\(name.text.prefix(40))'; known: \(Expression.Function.allCases.map(\.rawValue).joined(separator: ", "))",
          offset: name.start)
      }
      index += 1
      skipSpaces()
      let argument = parseName()
      skipSpaces()
      guard let argument, index < characters.count, characters[index] == ")" else {
        throw .syntax("\(function.rawValue)() takes one argument: the name of an eraYear variable", offset: name.start)
      }
      index += 1
      return (.call(function, argument.text), 1)
    }
    throw .syntax("unexpected '\(character)'", offset: index)
  }

  mutating func parseName() -> (text: String, start: Int)? {
    guard index < characters.count, characters[index].isLetter || characters[index] == "_" else { return nil }
    let start = index
    while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
    {
      index += 1
    }
    return (String(characters[start..<index]), start)
  }
}
