/// A tiny integer expression language for derived values: `hour + 12 * meridiem`,
/// `gregorian(y)`, `(n - 1) / 10`. Integers, the four operators plus `%`, parentheses,
/// variable names and the functions below. This is the syntax; `SlotExpression` evaluates it,
/// checked: overflow and division by zero are errors, never traps.
public indirect enum Expression: Hashable, Sendable {
  case literal(Int64)
  case variable(String)
  case unary(negate: Expression)
  case binary(Operator, Expression, Expression)
  case call(Function, Expression)

  public enum Operator: Character, Hashable, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
  }

  public enum Function: String, Hashable, Sendable, CaseIterable {
    /// The Gregorian year of an `eraYear` variable.
    case gregorian
    /// The era year (1 for 元年) of an `eraYear` variable.
    case eraYear
  }

  /// Every variable the expression reads.
  public var variables: [String] {
    switch self {
    case .literal: []
    case .variable(let name): [name]
    case .unary(let operand): operand.variables
    case .binary(_, let left, let right): left.variables + right.variables
    case .call(_, let argument): argument.variables
    }
  }
}

public enum ExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
  case syntax(String, offset: Int)
  case undefined(String)
  case overflow
  case divisionByZero
  case notAnEraYear(String)

  public var description: String {
    switch self {
    case .syntax(let message, _): message
    case .undefined(let name): "'\(name)' is not a variable of this topic"
    case .overflow: "the value overflows a 64-bit integer"
    case .divisionByZero: "division by zero"
    case .notAnEraYear(let function): "\(function)() takes the name of an eraYear variable"
    }
  }
}

extension Expression {
  /// Parses an expression; errors carry the character offset where they occur.
  public static func parse(_ text: String) throws(ExpressionError) -> Expression {
    var parser = ExpressionParser(characters: Array(text))
    let expression = try parser.parseSum()
    parser.skipSpaces()
    guard parser.index == parser.characters.count else {
      throw .syntax("unexpected '\(parser.characters[parser.index])'", offset: parser.index)
    }
    return expression
  }
}

private struct ExpressionParser {
  let characters: [Character]
  var index = 0
  var depth = 0

  mutating func skipSpaces() {
    while index < characters.count, characters[index] == " " { index += 1 }
  }

  mutating func parseSum() throws(ExpressionError) -> Expression {
    var left = try parseProduct()
    while true {
      skipSpaces()
      guard index < characters.count, let op = Expression.Operator(rawValue: characters[index]),
        op == .add || op == .subtract
      else { return left }
      index += 1
      left = .binary(op, left, try parseProduct())
    }
  }

  mutating func parseProduct() throws(ExpressionError) -> Expression {
    var left = try parseFactor()
    while true {
      skipSpaces()
      guard index < characters.count, let op = Expression.Operator(rawValue: characters[index]),
        op == .multiply || op == .divide || op == .remainder
      else { return left }
      index += 1
      left = .binary(op, left, try parseFactor())
    }
  }

  mutating func parseFactor() throws(ExpressionError) -> Expression {
    skipSpaces()
    guard index < characters.count else { throw .syntax("expected a number, a name or '(' at the end", offset: index) }
    let character = characters[index]
    if character == "-" {
      index += 1
      return .unary(negate: try parseFactor())
    }
    if character == "(" {
      depth += 1
      guard depth < 64 else { throw .syntax("parentheses nested too deeply", offset: index) }
      index += 1
      let inner = try parseSum()
      skipSpaces()
      guard index < characters.count, characters[index] == ")" else { throw .syntax("expected ')'", offset: index) }
      index += 1
      depth -= 1
      return inner
    }
    if character.isASCII, character.isNumber {
      let start = index
      while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
      guard let number = Int64(String(characters[start..<index])) else {
        throw .syntax("the number is too large", offset: start)
      }
      return .literal(number)
    }
    if character.isLetter || character == "_" {
      let start = index
      while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
        index += 1
      }
      let name = String(characters[start..<index])
      skipSpaces()
      if index < characters.count, characters[index] == "(" {
        guard let function = Expression.Function(rawValue: name) else {
          throw .syntax("unknown function '\(name)'; known: \(Expression.Function.allCases.map(\.rawValue).joined(separator: ", "))", offset: start)
        }
        index += 1
        let argument = try parseSum()
        skipSpaces()
        guard index < characters.count, characters[index] == ")" else { throw .syntax("expected ')'", offset: index) }
        index += 1
        return .call(function, argument)
      }
      return .variable(name)
    }
    throw .syntax("unexpected '\(character)'", offset: index)
  }
}
