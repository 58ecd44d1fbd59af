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
* the worst-case pastes, checked in-process (first run, median and max of 5 runs; the
  first run has a cold "did you mean" cache, which is what an attacker gets, and each run
  uses new names so the cache never helps): 20,000 characters of short lines that name no
  card (over the line limit since the limits exist: refused at once), and the largest
  paste still read, `MAX_PASTE_LINES` lines of unknown names up to `MAX_PASTE_CHARS`.

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

import decks.parser  # noqa: E402
from decks.parser import parse_decklist  # noqa: E402
from rules.cards import FORMATS, load_index  # noqa: E402
from rules.legality import check_deck  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
CARDS = SHARED / "pokemon-tcg"
LISTS = SHARED / "real-decklists" / "lists.jsonl"
PASTE_CHARS = 20_000
MAX_PASTE_LINES = getattr(decks.parser, "MAX_PASTE_LINES", None)  # absent before the limits


def check(text: str, index, fmt):
    parsed = parse_decklist(text)
    return check_deck(parsed.lines, index, fmt, parsed.errors)


def garbage_paste(
    chars: int = PASTE_CHARS,
    seed: int = 3,
    max_lines: int | None = None,
    words: tuple[int, int] = (1, 3),
) -> str:
    """Card-like lines (`4 Xqzvb Wrtpl`) that name no card, up to `chars` characters (and
    `max_lines` lines); a name has between `words[0]` and `words[1]` words."""
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while max_lines is None or len(out) < max_lines:
        name = " ".join(
            "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(4, 9)))
            for _ in range(rng.randint(*words))
        )
        line = f"{rng.randint(1, 4)} {name}"
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
    print(
        f"unknown-card errors: {unknown_findings}; lists written with set codes or card ids "
        f"that get one: {len(unknown_with_sets)}"
    )

    if not args.skip_paste:
        pastes = [("20,000 characters of short lines", {})]
        if MAX_PASTE_LINES is not None:
            pastes.append(
                ("the largest paste still read", {"max_lines": MAX_PASTE_LINES, "words": (8, 11)})
            )
            pastes.append(("the most short names still read", {"max_lines": MAX_PASTE_LINES}))
        for label, options in pastes:
            times = []
            for run in range(5):
                text = garbage_paste(seed=100 * run + 3, **options)
                start = time.perf_counter()
                verdict = check(text, index, fmt)
                times.append(time.perf_counter() - start)
            codes = Counter(e.code for e in verdict.errors)
            print(
                f"worst-case paste, {label} ({len(text)} chars, {text.count(chr(10)) + 1} "
                f"lines of unknown names): first {times[0] * 1000:.0f} ms, median "
                f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; "
                f"errors {dict(codes)}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
