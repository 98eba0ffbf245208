"""biki serve with a client that says it can do what LSP 3.17 clients do (pytest-lsp): pull
diagnostics, give settings by workspace/configuration, watch files, show progress.

Run from the repository root after `swift build`: python3 -m pytest Tests/clients
(BIKI may name the biki executable; the default is .build/debug/biki).
"""

import asyncio
import pathlib
import tempfile

import pytest
import pytest_lsp
from lsp_support import eventually, one_topic_pack, server_config, topic_ids
from lsprotocol import types
from pytest_lsp import LanguageClient

EXTRA_PACKS = tempfile.mkdtemp(prefix="biki-pytest-lsp-packs-")

BROKEN_PACK = """{
  "format": 1,
  "id": "mine",
  "title": "日本", "version": "1.0.0", "topicz": [],
  "topics": []
}
"""

REGISTERED: list = []


@pytest_lsp.fixture(config=server_config("capabilities"))
async def client(lsp_client: LanguageClient):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        REGISTERED.extend(params.registrations)

    @lsp_client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(params: types.UnregistrationParams):
        gone = {u.id for u in params.unregisterations}
        REGISTERED[:] = [r for r in REGISTERED if r.id not in gone]

    lsp_client.set_configuration({"inlayHints": False}, section="biki")
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            configuration=True,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
        ),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False)
        ),
        window=types.WindowClientCapabilities(work_done_progress=True),
    )
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    assert result.capabilities.diagnostic_provider is not None
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_diagnostics_are_pulled_and_never_pushed(client: LanguageClient):
    uri = pathlib.Path(tempfile.mkdtemp(), "mine.json").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="json", version=1, text=BROKEN_PACK)
        )
    )
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert report.kind == "full"
    assert "unknown-key" in [d.code for d in report.items]
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=report.result_id
        )
    )
    assert again.kind == "unchanged" and again.result_id == report.result_id
    workspace = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    assert [item.uri for item in workspace.items] == [uri]
    assert uri not in client.diagnostics  # nothing pushed


@pytest.mark.asyncio
async def test_settings_come_from_workspace_configuration(client: LanguageClient):
    uri = pathlib.Path(tempfile.mkdtemp(), "hinted.json").as_uri()
    text = BROKEN_PACK.replace('"日本"', '"8本 and 3本"')
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="json", version=1, text=text)
        )
    )
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=9, character=0))
    params = types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=whole)
    # The settings are given in answer to the server's request, which may still be on its way.
    for _ in range(100):
        if not await client.text_document_inlay_hint_async(params):
            break
        await asyncio.sleep(0.05)
    assert not await client.text_document_inlay_hint_async(params), [m.message for m in client.log_messages]
    # The settings change: the server asks again, and new pack directories load their packs.
    pathlib.Path(EXTRA_PACKS, "extra.json").write_text(one_topic_pack("extra"))
    client.set_configuration({"inlayHints": True, "packDirectories": [EXTRA_PACKS]}, section="biki")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await client.wait_for_notification("biki/packsChanged")
    hints = await client.text_document_inlay_hint_async(params)
    assert hints and len(hints) >= 2
    topics = await client.protocol.send_request_async("biki/topics", {})
    assert "extra.hon" in topic_ids(topics)


@pytest.mark.asyncio
async def test_files_are_watched_by_the_client_and_reloads_show_progress(client: LanguageClient):
    assert await eventually(lambda: len(REGISTERED) >= 1)
    registration = REGISTERED[-1]
    assert registration.method == "workspace/didChangeWatchedFiles"
    patterns = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in registration.register_options["watchers"]]
    assert any(p.endswith("/biki/packs/**/*") for p in patterns), patterns
    await client.protocol.send_request_async("biki/reloadPacks", {})
    ended = [
        reports
        for reports in client.progress_reports.values()
        if reports and reports[0].title == "Biki: loading packs" and reports[-1].kind == "end"
    ]
    assert ended, client.progress_reports
