import BikiProtocol

/// Every method the server handles, mapped once to its handler: a request's params are decoded
/// into its type (`Requests/`), and the handler gets the typed value. Built on first use and
/// kept, so a request costs one lookup.
enum Dispatcher {
  typealias RequestHandler =
    @Sendable (inout BikiServer, RequestID, Params, inout [OutgoingMessage]) throws(ResponseError) -> Reply
  typealias NotificationHandler = @Sendable (inout BikiServer, Params, inout [OutgoingMessage]) -> Void

  /// The handler of `method`. `biki/generate`, the request a quiz tool sends by the thousand,
  /// is told by comparing its name, which costs less than hashing it.
  static func handler(for method: String) -> RequestHandler? {
    method == GenerateRequest.method ? generate : requests[method]
  }

  static let requests: [String: RequestHandler] = table([
    on(TopicsRequest.self) { server, _, request, _ in
      .result(server.quiz.topicList().answer(previousResultID: request.previousResultID))
    },
    on(StartSessionRequest.self) { server, id, request, outbox throws(ResponseError) in
      try server.quiz.startSession(id, request, open: &server.open, outbox: &outbox)
    },
    on(AnswerRequest.self) { server, id, request, outbox throws(ResponseError) in
      try server.quiz.answer(id, request, open: &server.open, outbox: &outbox)
    },
    on(SkipRequest.self) { server, id, request, outbox throws(ResponseError) in
      try server.quiz.skip(id, request, open: &server.open, outbox: &outbox)
    },
    answering(EndSessionRequest.self) { server, _, request, outbox throws(ResponseError) in
      try server.quiz.endSession(request, open: &server.open, outbox: &outbox)
    },
    // Its fields are read with the catalog's judgement between them: see `GenerateRequest.decode`.
    (GenerateRequest.method, generate),
    answering(ReadRequest.self) { server, _, request, _ throws(ResponseError) in try server.quiz.read(request) },
    answering(StatsRequest.self) { server, _, request, outbox in server.quiz.stats(request, outbox: &outbox) },
    on(ReloadPacksRequest.self) { server, id, _, outbox in server.reloadPacks(id, outbox: &outbox) },
    on(HoverRequest.self) { server, _, request, _ in .result(server.language.hover(request)) },
    on(CodeActionRequest.self) { server, _, request, _ in .result(server.language.codeActions(request)) },
    on(DocumentSymbolRequest.self) { server, _, request, _ in .result(server.language.documentSymbols(request)) },
    on(DefinitionRequest.self) { server, _, request, _ in .result(server.language.definition(request)) },
    on(CompletionRequest.self) { server, _, request, _ in .result(server.language.completion(request)) },
    on(FormattingRequest.self) { server, _, request, _ throws(ResponseError) in
      .result(try server.language.formatting(request))
    },
    on(PrepareRenameRequest.self) { server, _, request, _ in .result(server.language.prepareRename(request)) },
    on(RenameRequest.self) { server, _, request, _ throws(ResponseError) in .result(try server.language.rename(request))
    },
    on(InlayHintRequest.self) { server, _, request, _ in .result(server.language.inlayHints(request)) },
    on(CodeLensRequest.self) { server, _, request, _ in .result(server.language.codeLenses(request)) },
    on(ExecuteCommandRequest.self) { server, _, request, outbox throws(ResponseError) in
      .result(try server.language.executeCommand(request, outbox: &outbox))
    },
    on(DocumentDiagnosticRequest.self) { server, id, request, _ in server.pullDiagnostics(id, request) },
    on(WorkspaceDiagnosticRequest.self) { server, _, request, _ in .result(server.language.workspaceReport(request)) },
  ])

  /// A notification whose params do not decode is its handler's to report or ignore: the
  /// handler gets nil.
  static let notifications: [String: NotificationHandler] = table([
    on(DidOpenNotification.self) { server, notification, outbox in
      server.language.didOpen(notification, outbox: &outbox)
    },
    on(DidChangeNotification.self) { server, notification, outbox in
      server.language.didChange(notification, outbox: &outbox)
    },
    on(DidCloseNotification.self) { server, notification, outbox in
      server.language.didClose(notification, outbox: &outbox)
    },
  ])

  /// A request's handler behind the decoding of its params.
  private static func on<Request: ClientRequest>(
    _: Request.Type,
    _ handle:
      @escaping @Sendable (inout BikiServer, RequestID, Request, inout [OutgoingMessage]) throws(ResponseError) -> Reply
  ) -> (String, RequestHandler) {
    (
      Request.method,
      { server, id, params, outbox throws(ResponseError) in
        let request = try Request(params)
        return try handle(&server, id, request, &outbox)
      }
    )
  }

  /// A handler that answers at once with its request's declared answer, which is written here.
  private static func answering<Request: ClientRequest>(
    _: Request.Type,
    _ handle:
      @escaping @Sendable (inout BikiServer, RequestID, Request, inout [OutgoingMessage]) throws(ResponseError) ->
      Request.Response
  ) -> (String, RequestHandler) where Request.Response: WireValue {
    on(Request.self) { server, id, request, outbox throws(ResponseError) in
      .result(try handle(&server, id, request, &outbox).json)
    }
  }

  private static func on<Notification: ClientMessage>(
    _: Notification.Type,
    _ handle: @escaping @Sendable (inout BikiServer, Notification?, inout [OutgoingMessage]) -> Void
  ) -> (String, NotificationHandler) {
    (Notification.method, { server, params, outbox in handle(&server, try? Notification(params), &outbox) })
  }

  private static func generate(
    _ server: inout BikiServer, _ id: RequestID, _ params: Params, _: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    try server.quiz.generate(id, params, open: &server.open)
  }

  /// A method named twice keeps its first handler; the round-trip tests check every method
  /// reaches its own.
  private static func table<Handler>(_ entries: [(String, Handler)]) -> [String: Handler] {
    Dictionary(entries, uniquingKeysWith: { first, _ in first })
  }
}
