"""Benchmark of the decklist parser and the legality engine against the real card data.

    .venv/bin/python benchmarks/bench_decks.py [--data PATH] [--lists 10000] [--seed 7]

Prints: the time to read the upstream JSON and build the `CardIndex`; the median time of
`parse_decklist` and of `check_deck` on parsed 60-card lists (target: check < 0.5 ms);
and the time to parse and check N lists (default 10,000) in one process (target < 10 s).
The lists are the real theme/precon decks of the data (written as TCG Live exports) and
seeded random Standard-legal-ish lists (evolution lines, Trainers, basic Energy; a third
of them written without set codes).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from decks.parser import parse_decklist  # noqa: E402
from rules.cards import FORMATS, STANDARD, CardIndex, CardRecord, load_upstream  # noqa: E402
from rules.legality import check_deck  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "pokemon-tcg"


def _line(count: int, rec: CardRecord, with_set: bool) -> str:
    if not with_set:
        return f"{count} {rec.name}"
    if rec.is_basic_energy and rec.set_id == "sve":
        symbol = {
            "Grass": "G",
            "Fire": "R",
            "Water": "W",
            "Lightning": "L",
            "Psychic": "P",
            "Fighting": "F",
            "Darkness": "D",
            "Metal": "M",
        }
        kind = rec.name.split()[1]
        return f"{count} Basic {{{symbol.get(kind, 'C')}}} Energy {rec.set_code} {rec.number}"
    return f"{count} {rec.name} {rec.set_code or rec.set_id} {rec.number}"


def _export(cards: list[tuple[int, CardRecord]], with_set: bool) -> str:
    sections = {"Pokémon": [], "Trainer": [], "Energy": []}
    for count, rec in cards:
        sections[rec.supertype].append(_line(count, rec, with_set))
    out = []
    for title, lines in sections.items():
        out.append(f"{title}: {len(lines)}")
        out.extend(lines)
        out.append("")
    out.append(f"Total Cards: {sum(c for c, _ in cards)}")
    return "\n".join(out)


def precon_texts(data: Path, index: CardIndex) -> list[str]:
    texts = []
    for path in sorted((data / "decks" / "en").glob("*.json")):
        for deck in json.loads(path.read_text(encoding="utf-8")):
            counts: Counter[str] = Counter()
            names: dict[str, str] = {}
            for entry in deck["cards"]:
                counts[entry["id"]] += int(entry["count"])
                names[entry["id"]] = entry["name"]
            cards = []
            extra = []
            for card_id, count in counts.items():
                rec = index.get(card_id)
                if rec is None:  # the swsh1-0 placeholder basic Energy
                    extra.append(f"{count} {names[card_id]}")
                else:
                    cards.append((count, rec))
            texts.append(_export(cards, with_set=True) + "\n" + "\n".join(extra))
    return texts


def random_texts(index: CardIndex, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    legal = [r for r in index if index.is_legal(r, STANDARD)]
    basics = [r for r in legal if r.is_basic_pokemon and not (r.is_radiant or r.is_ace_spec)]
    basic_names = {r.norm_name for r in basics}
    stage1 = [r for r in legal if "Stage 1" in r.subtypes and index.evolves_from(r) in basic_names]
    by_norm: dict[str, list[CardRecord]] = {}
    for r in basics:
        by_norm.setdefault(r.norm_name, []).append(r)
    trainers = [r for r in legal if r.supertype == "Trainer" and not r.is_ace_spec]
    energy = [r for r in legal if r.is_basic_energy]
    texts = []
    for _ in range(n):
        cards: list[tuple[int, CardRecord]] = []
        for evo in rng.sample(stage1, 2):
            cards.append((4, rng.choice(by_norm[index.evolves_from(evo)])))
            cards.append((3, evo))
        for basic in rng.sample(basics, 2):
            cards.append((1, basic))
        energy_count = rng.randint(9, 14)
        room = 60 - sum(c for c, _ in cards) - energy_count
        seen: set[str] = {r.norm_name for _, r in cards}
        while room > 0:
            rec = rng.choice(trainers)
            if rec.norm_name in seen:
                continue
            seen.add(rec.norm_name)
            count = min(room, rng.choice((1, 2, 3, 4)))
            cards.append((count, rec))
            room -= count
        for i, rec in enumerate(rng.sample(energy, 2)):
            cards.append((energy_count // 2 + (energy_count % 2 if i else 0), rec))
        texts.append(_export(cards, with_set=rng.random() > 0.33))
    return texts


def _median_us(func, items, repeat: int) -> float:
    times = []
    for item in items:
        for _ in range(repeat):
            start = time.perf_counter()
            func(item)
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--lists", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not (args.data / "sets" / "en.json").exists():
        print(f"no card data at {args.data}", file=sys.stderr)
        return 2

    start = time.perf_counter()
    records = list(load_upstream(args.data))
    read_s = time.perf_counter() - start
    start = time.perf_counter()
    index = CardIndex(records)
    build_s = time.perf_counter() - start
    print(f"cards: {len(index)}")
    print(f"read + convert upstream JSON: {read_s * 1000:8.1f} ms")
    print(f"build CardIndex:              {build_s * 1000:8.1f} ms")

    precons = precon_texts(args.data, index)
    randoms = random_texts(index, 500, args.seed)
    corpus = precons + randoms
    parsed = [parse_decklist(t) for t in corpus]
    sixty = [p for p in parsed if p.card_count == 60]

    fmt = FORMATS["unlimited"]
    for p in sixty:  # warm the caches as a long-running server would be
        check_deck(p.lines, index, fmt)
        check_deck(p.lines, index, STANDARD)
    gc.collect()
    parse_us = _median_us(parse_decklist, corpus, 5)
    check_us = _median_us(lambda p: check_deck(p.lines, index, fmt), sixty, 5)
    check_std_us = _median_us(lambda p: check_deck(p.lines, index, STANDARD), sixty, 5)
    print(f"lists: {len(precons)} precons + {len(randoms)} random; {len(sixty)} of 60 cards")
    print(f"parse_decklist median:        {parse_us:8.1f} µs")
    print(f"check_deck median (Unlimited):{check_us:8.1f} µs   (target < 500 µs)")
    print(f"check_deck median (Standard): {check_std_us:8.1f} µs   (target < 500 µs)")

    rng = random.Random(args.seed)
    extra = random_texts(index, max(0, min(args.lists, 3000) - len(corpus)), args.seed + 1)
    pool = corpus + extra
    batch = [rng.choice(pool) for _ in range(args.lists)]
    verdicts = Counter()
    start = time.perf_counter()
    for text in batch:
        p = parse_decklist(text)
        verdict = check_deck(p.lines, index, STANDARD, p.errors)
        verdicts[verdict.legal] += 1
    total_s = time.perf_counter() - start
    print(
        f"parse + check {args.lists} lists:  {total_s:8.2f} s     (target < 10 s; "
        f"{verdicts[True]} legal in Standard, {verdicts[False]} not)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
