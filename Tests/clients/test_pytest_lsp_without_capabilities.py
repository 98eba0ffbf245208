"""biki serve with a client that advertises none of LSP 3.17's optional capabilities
(pytest-lsp): diagnostics are pushed, settings come from initializationOptions, the server
watches the pack directories itself, and nothing is asked of the client that it did not offer.

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

EXTRA_PACKS = tempfile.mkdtemp(prefix="biki-pytest-lsp-bare-packs-")

BROKEN_PACK = """{
  "format": 1,
  "id": "mine",
  "title": "8本 and 3本", "version": "1.0.0", "topicz": [],
  "topics": []
}
"""

# What the server asked of the client, by method: it must ask nothing it was not offered.
ASKED: list = []


@pytest_lsp.fixture(config=server_config("bare"))
async def client(lsp_client: LanguageClient):
    handle = lsp_client.protocol._handle_request

    def noting(msg_id, method_name, params):
        ASKED.append(method_name)
        return handle(msg_id, method_name, params)

    lsp_client.protocol._handle_request = noting
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            initialization_options={"biki": {"inlayHints": False, "packDirectories": [EXTRA_PACKS]}},
        )
    )
    assert result.server_info.name == "biki"
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_diagnostics_are_pushed_and_settings_come_from_initialization_options(client: LanguageClient):
    uri = pathlib.Path(tempfile.mkdtemp(), "mine.json").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="json", version=1, text=BROKEN_PACK)
        )
    )
    assert await eventually(lambda: uri in client.diagnostics)
    assert "unknown-key" in [d.code for d in client.diagnostics[uri]]
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=9, character=0))
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=whole)
    )
    assert not hints  # inlayHints: false, from initializationOptions


@pytest.mark.asyncio
async def test_the_server_watches_the_packs_itself_and_shows_no_progress(client: LanguageClient):
    # The pack directory from initializationOptions is read, and polled by the server itself.
    assert "watched.hon" not in topic_ids(await client.protocol.send_request_async("biki/topics", {}))
    pathlib.Path(EXTRA_PACKS, "watched.json").write_text(one_topic_pack("watched"))
    seen = False
    for _ in range(150):  # the server polls every 2 s
        if "watched.hon" in topic_ids(await client.protocol.send_request_async("biki/topics", {})):
            seen = True
            break
        await asyncio.sleep(0.1)
    assert seen
    await client.protocol.send_request_async("biki/reloadPacks", {})
    assert not client.progress_reports
    assert ASKED == [], ASKED
