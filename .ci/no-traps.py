#!/usr/bin/env python3
"""Fails when a trap a message could reach is written in the server's modules: a force-unwrap
(`x!`, `x!.y`), `try!`, `as!`, `fatalError`, `preconditionFailure` or `precondition`. Invariants
there are types ("a started session has a question"), not `!`.

Strings and comments are blanked before the search, so prose and literals never match; `!=`
and prefix `!` (negation) are not traps."""
import pathlib
import re
import sys

MODULES = ["Sources/BikiServer", "Sources/BikiProtocol"]
TRAPS = [
    (re.compile(r"[\w)\]}>](?<!\btry)(?<!\bas)!(?!=)"), "a force-unwrap"),
    (re.compile(r"\btry!"), "try!"),
    (re.compile(r"\bas!"), "as!"),
    (re.compile(r"\b(fatalError|preconditionFailure|precondition|assertionFailure)\s*\("), "a trap"),
]


def blank(source: str) -> str:
    """The source with comments and string literals replaced by spaces (lines kept)."""
    out = []
    i, n = 0, len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        elif source.startswith('"""', i):
            j = source.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        elif source[i] == '"':
            j = i + 1
            while j < n and source[j] not in '"\n':
                j += 2 if source[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    found = 0
    for module in MODULES:
        for path in sorted((root / module).rglob("*.swift")):
            text = blank(path.read_text(encoding="utf-8"))
            for number, line in enumerate(text.splitlines(), 1):
                for pattern, what in TRAPS:
                    if pattern.search(line):
                        print(f"{path.relative_to(root)}:{number}: error: {what} in a module that handles client messages")
                        found += 1
    if found:
        print(f"{found} trap(s): make the invariant a type, or handle the case")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
