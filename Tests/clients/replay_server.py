#!/usr/bin/env python3
"""Stands in for `biki serve`, answering from a recording of the real server.

    python3 Tests/clients/replay_server.py [Tests/clients/exchange.json]

Speaks JSON-RPC 2.0 with LSP framing on stdio, as `biki serve` does. Each `biki/*` request is
answered with the next recorded result of its method, in the order they were recorded (the last
one again once they run out), whatever its params: the editor clients' replay tests drive a quiz
through it and check that they show what the server sent. Tests/bikiTests/RecordedExchangeTests
holds the recording to the real server, so a field renamed there fails that test, and once
recorded again, the clients' replay tests.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.rstrip(b"\r\n")
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    if length is None:
        return None
    return json.loads(stream.read(length))


def write_message(stream, message):
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "exchange.json")
    with open(path, encoding="utf-8") as file:
        recording = json.load(file)
    answers = {}
    for step in recording["exchange"]:
        answers.setdefault(step["method"], []).append(step["result"])
    served = {method: 0 for method in answers}
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        message = read_message(stdin)
        if message is None:
            return 0
        method = message.get("method")
        if "id" not in message:
            if method == "exit":
                return 0
            continue
        reply = {"jsonrpc": "2.0", "id": message["id"]}
        if method == "initialize":
            reply["result"] = {"capabilities": {}, "serverInfo": {"name": "biki-replay", "version": "0"}}
        elif method == "shutdown":
            reply["result"] = None
        elif method in answers:
            recorded = answers[method]
            reply["result"] = recorded[min(served[method], len(recorded) - 1)]
            served[method] += 1
        else:
            reply["error"] = {"code": -32601, "message": f"the recording has no {method}"}
        write_message(stdout, reply)


if __name__ == "__main__":
    sys.exit(main())
