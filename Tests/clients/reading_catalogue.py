#!/usr/bin/env python3
"""Compares Biki's standard readings with an independent reader, pyopenjtalk-plus.

Input: a TSV of questions (topic, seed, display, standard reading, every accepted reading),
as CatalogueCheckTests writes it from every built-in topic. Each display is read by
pyopenjtalk-plus; both readings are put in one spelling (hiragana, long vowels written out,
えい as ええ, おう as おお) and compared.

A disagreement is known when reading_adjudications.tsv lists it: a class of readings where
both are right and Biki keeps the order docs/readings.md gives (8 はっ|はち), or a topic or
display the independent reader reads otherwise for a reason written beside it. Any other
disagreement is new: it is printed, and the exit status is 1 until someone adjudicates it.

Marks the independent reader does not read (¥, 16:05, 1/3, 3対1, a minus sign) are first
written as words it reads (1,500円, 16時05分, 3分の1, 3たい1, マイナス, 〜 から, $100 100ドル, M7.3
マグニチュード7.3, A4 エー4); the number is the same.
"""

import collections
import csv
import os
import re
import sys

import pyopenjtalk

HERE = os.path.dirname(os.path.abspath(__file__))

VOWELS = {}
for kana, vowel in [
    ("あかさたなはまやらわがざだばぱぁゃ", "あ"),
    ("いきしちにひみりぎじぢびぴぃ", "い"),
    ("うくすつぬふむゆるぐずづぶぷぅゅ", "う"),
    ("えけせてねへめれげぜでべぺぇ", "え"),
    ("おこそとのほもよろをごぞどぼぽぉょ", "お"),
]:
    for scalar in kana:
        VOWELS[scalar] = vowel


def spelled(kana):
    """One spelling for comparing: hiragana, ー written as its vowel, えい as ええ, おう as おお."""
    text = "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in kana)
    out = []
    for c in text:
        if c == "ー" and out:
            out.append(VOWELS.get(out[-1], ""))
        elif c in "、。 　()（）":
            continue
        else:
            out.append(c)
    result = []
    for i, c in enumerate(out):
        before = VOWELS.get(out[i - 1]) if i > 0 else None
        if before == "え" and c == "い":
            result.append("え")
        elif before == "お" and c == "う":
            result.append("お")
        else:
            result.append(c)
    return "".join(result)


def for_the_reader(display):
    """The display with the marks the independent reader skips written as words."""
    text = display.replace(",", "")
    text = re.sub(r"[¥￥](\d+)", r"\1円", text)
    text = re.sub(r"(\d{1,2})[:：]00", r"\1時", text)
    text = re.sub(r"(\d{1,2})[:：]0?(\d+)", r"\1時\2分", text)
    text = re.sub(r"(\d+)/(\d+)", r"\2分の\1", text)
    text = re.sub(r"[-−－](?=\d)", "マイナス", text) if not re.search(r"\d[-−－]\d", text) else text
    text = text.replace("対", "たい")
    text = re.sub(r"[$＄](\d+)", r"\1ドル", text)
    text = re.sub(r"€(\d+)", r"\1ユーロ", text)
    text = re.sub(r"[£￡](\d+)", r"\1ポンド", text)
    text = re.sub(r"(時|分)[-−－](?=\d)", r"\1から", text)
    text = re.sub(r"[〜～~]", "から", text)
    text = re.sub(r"^M(?=\d)", "マグニチュード", text)
    text = re.sub(r"^([AＡ])(?=\d)", "エー", text)
    text = re.sub(r"^([BＢ])(?=\d)", "ビー", text)
    text = re.sub(r"(\d)[FＦ]$", r"\1階", text)
    # Phone numbers and other digit groups: each digit said alone, the groups joined by の.
    if re.fullmatch(r"\d+([-−]\d+)+", text):
        text = "の".join("、".join(group) for group in re.split(r"[-−]", text))
    return text


def load_adjudications(path):
    """Classes (`class` rows: Biki's spelling, the reader's, why) and exceptions (`topic` and
    `display` rows: a topic or one display, and why)."""
    classes, topics, displays = [], {}, {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "class" and len(fields) >= 4:
                classes.append((spelled(fields[1]), spelled(fields[2]), fields[3]))
            elif fields[0] == "topic" and len(fields) >= 3:
                topics[fields[1]] = fields[2]
            elif fields[0] == "display" and len(fields) >= 4:
                displays[(fields[1], fields[2])] = fields[3]
            else:
                raise SystemExit(f"{path}: a line that is not class, topic or display: {line!r}")
    return classes, topics, displays


def variants(reading, classes, limit=64):
    """Biki's reading with every adjudicated class applied anywhere, in both directions."""
    seen = {reading}
    frontier = [reading]
    while frontier and len(seen) < limit:
        text = frontier.pop()
        for biki, reader, _ in classes:
            for a, b in ((biki, reader), (reader, biki)):
                start = text.find(a)
                while start != -1:
                    changed = text[:start] + b + text[start + len(a) :]
                    if changed not in seen:
                        seen.add(changed)
                        frontier.append(changed)
                    start = text.find(a, start + 1)
    return seen


def main():
    questions, adjudications = sys.argv[1], os.path.join(HERE, "reading_adjudications.tsv")
    classes, topics, displays = load_adjudications(adjudications)
    counts = collections.Counter()
    new = []
    with open(questions, encoding="utf-8") as file:
        for topic, seed, display, standard, _accepted in csv.reader(file, delimiter="\t"):
            if topic in topics or (topic, display) in displays:
                counts["adjudicated"] += 1
                continue
            reader = spelled(pyopenjtalk.g2p(for_the_reader(display), kana=True))
            biki = spelled(standard)
            if reader == biki:
                counts["agree"] += 1
            elif reader in variants(biki, classes):
                counts["known class"] += 1
            else:
                new.append(f"{topic}\t{seed}\t{display}\tBiki {standard}\treader {reader}")
    total = sum(counts.values()) + len(new)
    print(
        f"{total} questions: {counts['agree']} agree, {counts['known class']} differ in a known class, "
        f"{counts['adjudicated']} adjudicated by topic or display, {len(new)} new disagreements"
    )
    for line in new:
        print(line)
    if new:
        print(f"\nAdjudicate each in {adjudications} (with the reference that decides it), or fix the reading.")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
