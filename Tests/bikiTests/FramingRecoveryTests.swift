import Foundation
import Testing

/// `biki serve` over real pipes after bytes that are not a well-formed frame: the client gets
/// one error for them and every request after them is answered.
@Suite(.serialized) struct FramingRecoveryTests {
  static let twentyReads = (1...20).flatMap { ServeRun.request($0, "biki/read", #"{"text":"8本"}"#) }

  /// The null-id errors the client got, with their messages.
  static func nullIDErrors(_ run: ServeRun) -> [(code: Int?, message: String?)] {
    run.messages.filter { $0["id"] is NSNull }.map { message in
      let error = message["error"] as? [String: Any]
      return (error?["code"] as? Int, error?["message"] as? String)
    }
  }

  static func expectAllTwentyAnswered(_ run: ServeRun) {
    for id in 1...20 { #expect(run.result(id)?["reading"] as? String == "はっぽん", "request \(id)") }
    #expect(run.response(999)?["result"] is NSNull)
    #expect(run.status == 0)
    #expect(!run.terminatedBySignal)
  }

  @Test func anLFOnlyHeaderIsAFrameAndTheRequestsAfterItAreAnswered() throws {
    let run = try ServeRun.run(
      ServeRun.initialize + Array("Content-Length: 2\n\n{}".utf8) + Self.twentyReads + ServeRun.shutdownAndExit)
    Self.expectAllTwentyAnswered(run)
    // The header is understood, so `{}` is a message: an invalid request, not a malformed header.
    let errors = Self.nullIDErrors(run)
    #expect(errors.count == 1)
    #expect(errors.first?.code == -32600)
    #expect(errors.first?.message == #""jsonrpc" must be "2.0""#)
  }

  @Test func aHundredKilobyteHeaderLineIsOneErrorAndTheRequestsAfterItAreAnswered() throws {
    let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 100_000)
    let run = try ServeRun.run(ServeRun.initialize + junk + Self.twentyReads + ServeRun.shutdownAndExit)
    Self.expectAllTwentyAnswered(run)
    let errors = Self.nullIDErrors(run)
    #expect(errors.count == 1)
    #expect(errors.first?.code == -32600)
    #expect(errors.first?.message == "malformed header: a header block longer than 8192 bytes")
  }

  @Test func aMalformedBlockAndWhatFollowsItUpToTheNextContentLengthAreOneError() throws {
    let run = try ServeRun.run(
      ServeRun.initialize
        + Array("Content-Length: twelve\r\n\r\n".utf8)
        + Array("X-Nonsense\r\n\r\n".utf8)
        + Array(#"{"jsonrpc":"2.0","id":98,"method":"biki/topics"} and more junk"#.utf8)
        + Self.twentyReads + ServeRun.shutdownAndExit)
    Self.expectAllTwentyAnswered(run)
    let errors = Self.nullIDErrors(run)
    #expect(errors.count == 1)
    #expect(errors.first?.message == #"malformed header: Content-Length "twelve" is not a non-negative integer"#)
    // The discarded body was not taken for a request.
    #expect(run.response(98) == nil)
  }
}
