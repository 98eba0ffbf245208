"""biki serve driven by pytest-lsp, a language client written elsewhere.

Run from the repository root after `swift build`: python3 -m pytest Tests/clients
(BIKI may name the biki executable; the default is .build/debug/biki).
"""

import pathlib
import tempfile

import pytest
import pytest_lsp
from lsprotocol import types
from lsp_support import server_config
from pytest_lsp import LanguageClient

# Kanji and an emoji before the error, so UTF-16 columns differ from code points and bytes.
BROKEN_PACK = """{
  "format": 1,
  "id": "mine",
  "title": "日本🎌", "version": "1.0.0", "topicz": [],
  "topics": []
}
"""


@pytest_lsp.fixture(config=server_config("basic"))
async def client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities())
    )
    assert result.server_info.name == "biki"
    assert result.capabilities.text_document_sync is not None
    yield
    await lsp_client.shutdown_session()


async def request(client: LanguageClient, method: str, params: dict):
    return await client.protocol.send_request_async(method, params)


def field(value, name):
    """A member of a result, whether pygls gave a dict or an attribute object."""
    return value[name] if isinstance(value, dict) else getattr(value, name)


@pytest.mark.asyncio
async def test_a_broken_pack_gets_a_diagnostic_at_its_utf16_column(client: LanguageClient):
    uri = pathlib.Path(tempfile.mkdtemp(), "mine.json").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="json", version=1, text=BROKEN_PACK)
        )
    )
    await client.wait_for_notification("textDocument/publishDiagnostics")
    diagnostics = client.diagnostics[uri]
    unknown = [d for d in diagnostics if d.code == "unknown-key"]
    assert len(unknown) == 1, diagnostics
    line = BROKEN_PACK.splitlines()[3]
    prefix = line[: line.index('"topicz"')]
    assert unknown[0].range.start == types.Position(line=3, character=len(prefix.encode("utf-16-le")) // 2)
    assert unknown[0].range.start.character == len(prefix) + 1  # 🎌 is two UTF-16 units
    assert unknown[0].source == "biki"
    assert unknown[0].severity in (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)

    # Fix it; after the debounce the diagnostics clear.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=BROKEN_PACK.replace('"topicz": [],', ""))],
        )
    )
    await client.wait_for_notification("textDocument/publishDiagnostics")
    assert [d for d in client.diagnostics[uri] if d.code == "unknown-key"] == []


@pytest.mark.asyncio
async def test_a_quiz_session(client: LanguageClient):
    topics = await request(client, "biki/topics", {})
    ids = [field(topic, "id") for topic in field(topics, "topics")]
    assert "counters.hon" in ids

    generated = await request(client, "biki/generate", {"topicId": "counters.hon", "seed": 3, "count": 1})
    answer = field(field(generated, "questions")[0], "answer")

    started = await request(
        client, "biki/startSession",
        {"topicId": "counters.hon", "seed": 3, "mode": {"kind": "questionLimit", "limit": 1}},
    )
    session = field(started, "sessionId")
    verdict = await request(client, "biki/answer", {"sessionId": session, "answer": str(answer)})
    assert field(verdict, "verdict") == "correct"
    assert field(verdict, "finished") is True
    assert field(field(verdict, "summary"), "correct") == 1


# A pack with a typo that has a suggestion, a declared counter and a variable used by name.
AUTHORED_PACK = """{
  "format": 1, "id": "kitchen", "title": "Kitchen", "version": "1.0.0",
  "counters": [{"id": "sara", "symbols": ["皿"], "reading": "さら", "whole": {"1": "ひとさら", "2": "ふたさら"}, "final": {"1": "いっさら", "8": "はっさら", "10": "じゅっさら"}}],
  "topics": [
    {
      "id": "plates", "titel": "Plates", "description": "Plates.", "category": "counter", "skills": ["kana"],
      "variables": {"n": {"range": {"min": 1, "max": 12}}},
      "question": {"parts": [{"number": "n", "counter": "sara"}], "answer": {"value": "n"}}
    }
  ]
}
"""


def position_of(text: str, needle: str, offset: int = 0) -> types.Position:
    for number, line in enumerate(text.splitlines()):
        if needle in line:
            return types.Position(line=number, character=len(line[: line.index(needle)].encode("utf-16-le")) // 2 + offset)
    raise AssertionError(needle)


@pytest.mark.asyncio
async def test_pack_authoring_features(client: LanguageClient):
    uri = pathlib.Path(tempfile.mkdtemp(), "kitchen.json").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="json", version=1, text=AUTHORED_PACK)
        )
    )
    await client.wait_for_notification("textDocument/publishDiagnostics")
    document = types.TextDocumentIdentifier(uri=uri)

    # The did-you-mean has a quick fix that makes the edit.
    typo = [d for d in client.diagnostics[uri] if d.code == "unknown-key"]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=document, range=typo[0].range, context=types.CodeActionContext(diagnostics=typo))
    )
    assert [a.title for a in actions] == ['Change "titel" to "title"']
    assert actions[0].edit.changes[uri][0].new_text == '"title"'

    # The outline.
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document))
    assert [s.name for s in symbols] == ["plates", "n", "sara"]

    # Definition: from the part's counter to the pack's own counter, from "n" to its variable.
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=document, position=position_of(AUTHORED_PACK, '"counter": "sara"', 13))
    )
    location = found[0] if isinstance(found, list) else found
    assert location.range.start == position_of(AUTHORED_PACK, '{"id": "sara"')
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=document, position=position_of(AUTHORED_PACK, '"value": "n"', 10))
    )
    location = found[0] if isinstance(found, list) else found
    assert location.range.start == position_of(AUTHORED_PACK, '"n": {"range"')

    # Completion of a category, typed halfway.
    typing = AUTHORED_PACK.replace('"category": "counter"', '"category": "mo')
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=typing)],
        )
    )
    completion = await client.text_document_completion_async(
        types.CompletionParams(text_document=document, position=position_of(typing, '"category": "mo', 15))
    )
    items = completion.items if hasattr(completion, "items") else completion
    assert "money" in [item.label for item in items]


@pytest.mark.asyncio
async def test_null_params_read_as_absent(client: LanguageClient):
    topics = await request(client, "biki/topics", None)
    assert len(field(topics, "topics")) > 60


KITCHEN = """{
  "format": 1, "id": "kitchen", "title": "Kitchen", "version": "1.0.0",
  "description": "Cups: 8本 and ¥600.",
  "counters": [{ "id": "sara", "symbols": ["皿"], "reading": "さら", "whole": { "1": ["ひとさら"], "2": ["ふたさら"] }, "final": { "1": ["いっさら"], "8": ["はっさら"], "10": ["じゅっさら"] } }],
  "topics": [{ "id": "plates", "title": "Plates", "description": "Plates.", "category": "counter", "skills": ["reading"],
    "variables": { "n": { "range": { "min": 1, "max": 12 } } },
    "question": { "parts": [{ "number": "n", "counter": "sara" }], "answer": { "value": "n", "postfix": "皿" } } }]
}
"""


@pytest.mark.asyncio
async def test_formatting_rename_inlay_hints_and_lenses_are_typed_lsp(client: LanguageClient):
    uri = pathlib.Path(tempfile.mkdtemp(), "kitchen.json").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="json", version=1, text=KITCHEN))
    )
    await client.wait_for_notification("textDocument/publishDiagnostics")
    document = types.TextDocumentIdentifier(uri=uri)

    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=document, options=types.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    assert len(edits) == 1 and edits[0].range.start == types.Position(line=0, character=0)
    assert edits[0].new_text.startswith('{\n  "format": 1,\n')

    line = KITCHEN.splitlines()[3]
    at = types.Position(line=3, character=line.index('"sara"') + 2)
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=document, position=at))
    assert field(prepared, "placeholder") == "sara"
    renamed = await client.text_document_rename_async(types.RenameParams(text_document=document, position=at, new_name="plate"))
    assert len(renamed.changes[uri]) == 2 and all(edit.new_text == "plate" for edit in renamed.changes[uri])

    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=document, range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=9, character=0)))
    )
    assert [hint.label for hint in hints] == ["‹はっぽん›", "‹ろっぴゃくえん›"]

    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=document))
    assert len(lenses) == 1 and lenses[0].command.command == "biki.sample"
    sample = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="biki.sample", arguments=lenses[0].command.arguments)
    )
    assert len(field(sample, "questions")) == 8
