#!/usr/bin/env python3
"""Renders a page in headless Chromium as a browser shows it, and reports what was drawn.

    render_page.py PAGE.html SCREENSHOT.png

Drives Chromium over its DevTools pipe (fds 3 and 4, NUL-separated JSON) with the standard
library only, so a test can judge the pixels a learner sees, not only the DOM:

- every console message, uncaught exception and log entry the page caused;
- each section (an h2 and what follows it up to the next h2): its box and how much of it the
  screenshot has ink in, so an empty or collapsed section shows up;
- each coloured cell (a `td` with an inline background): the colour its style asks for and the
  colour the screenshot has at its centre;
- the fonts Chromium drew the heat map's kanji with (CSS.getPlatformFontsForNode), so kanji
  drawn as empty boxes by a font that lacks them are caught.

Prints one JSON object; exits non-zero when Chromium cannot render the page.
"""
import json
import os
import struct
import subprocess
import sys
import time
import zlib


class DevTools:
    def __init__(self, arguments):
        to_chromium_read, self._to_chromium = os.pipe()
        self._from_chromium, from_chromium_write = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4. Both ends are first moved
        # above 4, so placing one cannot close the other; 3 and 4 are then kept open.
        def wire():
            reads, writes = os.dup(to_chromium_read) + 10, os.dup(from_chromium_write) + 10
            os.dup2(to_chromium_read, reads)
            os.dup2(from_chromium_write, writes)
            os.dup2(reads, 3)
            os.dup2(writes, 4)
        self.process = subprocess.Popen(
            arguments, preexec_fn=wire, pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chromium_read)
        os.close(from_chromium_write)
        self._buffer = b""
        self._next = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._from_chromium, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=60):
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_chromium, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, timeout=60):
        deadline = time.monotonic() + timeout
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._read_message(deadline)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def decode_png(data):
    """Width, height and rows of RGB triples of an 8-bit RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, compressed = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"unexpected PNG format: depth {depth}, colour type {colour}")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            compressed += body
        position += 12 + length
    raw = zlib.decompress(compressed)
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


# The page's own measurements: sections by their h2, and the coloured cells.
MEASURE = r"""
(() => {
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; };
  const sections = [];
  for (const heading of document.querySelectorAll('h2')) {
    let top = Infinity, bottom = -Infinity, left = Infinity, right = -Infinity, text = '';
    for (let e = heading.nextElementSibling; e && e.tagName !== 'H2'; e = e.nextElementSibling) {
      const b = box(e);
      if (b.width === 0 || b.height === 0) continue;
      top = Math.min(top, b.y); bottom = Math.max(bottom, b.y + b.height);
      left = Math.min(left, b.x); right = Math.max(right, b.x + b.width);
      text += e.innerText;
    }
    sections.push({title: heading.innerText, box: top === Infinity ? null : {x: left, y: top, width: right - left, height: bottom - top}, text: text.trim().slice(0, 200)});
  }
  const cells = [...document.querySelectorAll('td[data-form][style]')].map(c => ({
    form: c.dataset.form, className: c.className, background: getComputedStyle(c).backgroundColor, box: box(c)}));
  return JSON.stringify({title: document.title, width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight, sections, cells});
})()
"""


def main():
    page, screenshot = os.path.abspath(sys.argv[1]), sys.argv[2]
    devtools = DevTools(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         "--remote-debugging-pipe", "--window-size=1000,800", "about:blank"])
    try:
        target = next(t for t in devtools.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        session = devtools.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "DOM", "CSS"):
            devtools.call(f"{domain}.enable", session=session)
        devtools.call("Page.navigate", {"url": "file://" + page}, session=session)
        devtools.wait_for("Page.loadEventFired")
        measured = json.loads(devtools.call("Runtime.evaluate", {"expression": MEASURE, "returnByValue": True}, session=session)["result"]["value"])
        shot = devtools.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": measured["width"], "height": measured["height"], "scale": 1}}, session=session)
        import base64
        png = base64.b64decode(shot["data"])
        with open(screenshot, "wb") as file:
            file.write(png)
        # The fonts the first heat-map row's label (a counter in kanji) was drawn with.
        document = devtools.call("DOM.getDocument", session=session)["root"]["nodeId"]
        label = devtools.call("DOM.querySelector", {"nodeId": document, "selector": "table.heat th"}, session=session)["nodeId"]
        fonts = devtools.call("CSS.getPlatformFontsForNode", {"nodeId": label}, session=session)["fonts"] if label else []
        label_text = devtools.call("Runtime.evaluate", {"expression": "document.querySelector('table.heat th')?.innerText ?? ''", "returnByValue": True}, session=session)["result"]["value"]
        # Anything the page said or threw, including a resource that failed to load.
        time.sleep(0.2)
        devtools.call("Runtime.evaluate", {"expression": "0"}, session=session)
        console = [e["params"] for e in devtools.events if e.get("method") in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded")]
    finally:
        devtools.close()

    width, height, rows = decode_png(png)
    background = rows[0][0]

    def ink(box):
        """The share of the box's pixels that differ from the page's background."""
        x0, y0 = max(0, int(box["x"])), max(0, int(box["y"]))
        x1, y1 = min(width, int(box["x"] + box["width"])), min(height, int(box["y"] + box["height"]))
        total = max(1, (x1 - x0) * (y1 - y0))
        inked = sum(1 for y in range(y0, y1) for x in range(x0, x1) if max(abs(a - b) for a, b in zip(rows[y][x], background)) > 32)
        return inked / total

    for section in measured["sections"]:
        section["ink"] = ink(section["box"]) if section["box"] else 0.0
    for cell in measured["cells"]:
        b = cell["box"]
        x, y = int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)
        # The centre of a cell may hold its text; the corner just inside the border holds its colour.
        cell["drawn"] = list(rows[min(height - 1, int(b["y"]) + 2)][min(width - 1, int(b["x"]) + 2)])
        cell["centre"] = list(rows[min(height - 1, y)][min(width - 1, x)])
    print(json.dumps({
        "screenshot": {"path": screenshot, "width": width, "height": height, "background": list(background)},
        "title": measured["title"], "sections": measured["sections"], "cells": measured["cells"],
        "label": label_text, "fonts": fonts, "console": console,
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
