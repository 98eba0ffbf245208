"""What the pytest-lsp tests of biki serve share: the server to start, in a state directory of
its own, a one-topic pack to add, and waiting for something the server does in its own time.

BIKI may name the biki executable; the default is the checkout's .build/debug/biki.
"""

import asyncio
import os
import pathlib
import tempfile

from pytest_lsp import ClientServerConfig

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIKI = os.environ.get("BIKI", str(ROOT / ".build" / "debug" / "biki"))


def server_config(name: str) -> ClientServerConfig:
    """`biki serve` with its history and user packs in a fresh directory named after `name`."""
    state = tempfile.mkdtemp(prefix=f"biki-pytest-lsp-{name}-")
    return ClientServerConfig(
        server_command=[BIKI, "serve"],
        server_env={**os.environ, "XDG_STATE_HOME": state, "XDG_DATA_HOME": state + "/data"},
    )


def one_topic_pack(pack_id: str) -> str:
    """A pack of one counter topic, `PACK_ID.hon` (本, 1 to 10)."""
    return """{
  "format": 1, "id": "%s", "title": "%s", "version": "1.0.0",
  "topics": [{
    "id": "hon", "title": "本", "description": "Long things.", "category": "counter",
    "skills": ["reading"],
    "variables": { "n": { "range": { "min": 1, "max": 10 } } },
    "question": { "parts": [{ "number": "n", "counter": "本" }], "answer": { "value": "n", "postfix": "本" } }
  }]
}
""" % (pack_id, pack_id.title())


async def eventually(condition, seconds=10.0):
    """Whether `condition` holds within `seconds`, checked every 50 ms."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        await asyncio.sleep(0.05)
    return condition()


def topic_ids(answer) -> list:
    """The ids `biki/topics` lists, whether pygls gave dicts or attribute objects."""
    topics = answer["topics"] if isinstance(answer, dict) else answer.topics
    return [topic["id"] if isinstance(topic, dict) else topic.id for topic in topics]
