"""The real decklists and the worst-case paste, measured the way a player meets them.

    .venv/bin/python benchmarks/bench_real_lists.py [--format unlimited] [--verbose]

Reads `../shared/data/real-decklists/lists.jsonl` (207 lists written by people) and the card
data in `../shared/data/pokemon-tcg`, and checks every list exactly as the `check_decks`
command and `POST /api/decks/check/` do (`decks.services.check_decklist` is
`parse_decklist` + `check_deck` on one shared `CardIndex`; here the index is built from the
JSON instead of the database, so no Django is needed). Prints:

* how many lists come out legal, and the rejected ones by error code (a list counts once
  per code it has), with how many lists have an `unknown-card` error although every line
  has a set code or a card id;
* with `--verbose`, every error message of every rejected list;
* the worst-case paste: the largest accepted text (the API's 20,000 characters) made of
  lines that name no card, checked in-process (median and max of 5 runs, first run
  included: a cold "did you mean" cache is what an attacker gets).

Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import string
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from decks.parser import parse_decklist  # noqa: E402
from rules.cards import FORMATS, load_index  # noqa: E402
from rules.legality import check_deck  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
CARDS = SHARED / "pokemon-tcg"
LISTS = SHARED / "real-decklists" / "lists.jsonl"
PASTE_CHARS = 20_000


def check(text: str, index, fmt):
    parsed = parse_decklist(text)
    return check_deck(parsed.lines, index, fmt).with_parse_errors(parsed.errors)


def garbage_paste(chars: int = PASTE_CHARS, seed: int = 3) -> str:
    """Card-like lines (`4 Xqzvb Wrtpl`) that name no card, up to `chars` characters."""
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while True:
        words = " ".join(
            "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(4, 9)))
            for _ in range(rng.randint(1, 3))
        )
        line = f"{rng.randint(1, 4)} {words}"
        if size + len(line) + 1 > chars:
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


_ID_RE = re.compile(r"\s[a-z][a-z0-9]*-[A-Za-z0-9_]+$")


def _has_set_codes(text: str) -> bool:
    """Most card lines end in a set code + number or a pokemontcg.io id."""
    lines = parse_decklist(text).lines
    marked = sum(1 for line in lines if line.set_code or _ID_RE.search(" " + line.name))
    return bool(lines) and marked * 2 > len(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", default="unlimited", choices=sorted(FORMATS))
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--skip-paste", action="store_true")
    args = parser.parse_args()

    start = time.perf_counter()
    index = load_index(str(CARDS))
    print(f"card index: {len(index)} cards in {time.perf_counter() - start:.1f} s")
    fmt = FORMATS[args.format]
    lists = [json.loads(line) for line in LISTS.read_text(encoding="utf-8").splitlines() if line]

    legal = 0
    codes: Counter[str] = Counter()
    unknown_with_sets = []
    unknown_findings = 0
    start = time.perf_counter()
    for item in lists:
        verdict = check(item["decklist_text"], index, fmt)
        if verdict.legal:
            legal += 1
            continue
        for code in sorted({e.code for e in verdict.errors}):
            codes[code] += 1
        unknown = [e for e in verdict.errors if e.code == "unknown-card"]
        unknown_findings += len(unknown)
        if unknown and _has_set_codes(item["decklist_text"]):
            unknown_with_sets.append(item["id"])
        if args.verbose:
            print(f"\n{item['id']}:")
            for e in verdict.errors:
                print(f"  {e.code}: {e.message}")
    took = time.perf_counter() - start
    print(f"real lists in {fmt.name}: {legal} of {len(lists)} legal ({took * 1000:.0f} ms)")
    for code, n in codes.most_common():
        print(f"  rejected with {code}: {n} lists")
    print(f"unknown-card errors: {unknown_findings}; lists written with set codes or card ids "
          f"that get one: {len(unknown_with_sets)}")  # fmt: skip

    if not args.skip_paste:
        text = garbage_paste()
        times = []
        for _ in range(5):
            start = time.perf_counter()
            verdict = check(text, index, fmt)
            times.append(time.perf_counter() - start)
        print(
            f"worst-case paste ({len(text)} chars, {text.count(chr(10)) + 1} lines of unknown "
            f"names): first {times[0] * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f}"
            f" ms, max {max(times) * 1000:.0f} ms; {len(verdict.errors)} errors"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
