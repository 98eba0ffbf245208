import BikiJSON

/// A request, with the type of its answer. Every method `Dispatcher` routes is one, so a
/// request without a declared answer does not build.
protocol ClientRequest: ClientMessage {
  /// A `biki/*` method's answer is a `WireValue` (Responses/), written straight to bytes and
  /// read back by the tests; a language method's is LSP's own shape, built as `JSON`.
  associatedtype Response
}

// The answer of each method, in one table.
extension TopicsRequest: ClientRequest { typealias Response = TopicListResponse }
extension StartSessionRequest: ClientRequest { typealias Response = StartSessionResponse }
extension AnswerRequest: ClientRequest { typealias Response = AnswerResponse }
extension SkipRequest: ClientRequest { typealias Response = SkipResponse }
extension EndSessionRequest: ClientRequest { typealias Response = EndSessionResponse }
extension GenerateRequest: ClientRequest { typealias Response = GenerateResponse }
extension ReadRequest: ClientRequest { typealias Response = ReadResponse }
extension StatsRequest: ClientRequest { typealias Response = StatsResponse }
extension ReloadPacksRequest: ClientRequest { typealias Response = PacksReport }

extension HoverRequest: ClientRequest { typealias Response = JSON }
extension CodeActionRequest: ClientRequest { typealias Response = JSON }
extension DocumentSymbolRequest: ClientRequest { typealias Response = JSON }
extension DefinitionRequest: ClientRequest { typealias Response = JSON }
extension CompletionRequest: ClientRequest { typealias Response = JSON }
extension FormattingRequest: ClientRequest { typealias Response = JSON }
extension PrepareRenameRequest: ClientRequest { typealias Response = JSON }
extension RenameRequest: ClientRequest { typealias Response = JSON }
extension InlayHintRequest: ClientRequest { typealias Response = JSON }
extension CodeLensRequest: ClientRequest { typealias Response = JSON }
extension ExecuteCommandRequest: ClientRequest { typealias Response = JSON }
