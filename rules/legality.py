"""The deck legality engine: `check_deck(lines, index, fmt) -> Verdict`.

Input is the parser's `DeckLine`s (see `decks.parser`), a `CardIndex` and a `FormatSpec`;
the numbers below are today's rules, and a format's `FormatSpec.rules`
(`rules.formats.FormatRules`) sets each of them: the deck size, the copy limit and what it
exempts, whether a Basic Pokémon is required.
Every line is first **resolved** to one printing, or to none, by `rules.resolve`
(set code + number compared with the written name, pseudo-sets of basic Energy, a name
alone; its module docstring says every case and the finding each gives). A line that
names no card is an `unknown-card` error with the closest names ("did you mean", searched
for at most `MAX_SUGGESTED_LINES` lines of a list); its count counts toward the 60 and
toward nothing else: no copy limit, no rule-box limit, and no claim about Basic Pokémon or
the Energy count that the unknown card could make false, so it never adds a second error.

Then the rules (each error names its lines and says what to fix):

* `deck-size`: exactly 60 cards (`deck_size`).
* `too-many-copies`: at most 4 cards with the same normalised name (`rules.names`), except
  basic Energy, decided by the card data (supertype Energy, subtype Basic), never by
  name: a Special "Darkness Energy" counts, a basic one does not. (`copy_limit`; with
  `copy_exempt="energy"`, as in 1996, every Energy card is exempt except the names in
  `limited_energy`.)
* `no-basic-pokemon`: at least one Basic Pokémon (when `require_basic_pokemon`). Baby Pokémon count (they are played as
  Basic Pokémon although the data lacks the subtype); Trainers played as if they were
  Basic Pokémon (Mysterious Fossil, Clefairy Doll) do not.
* `not-legal-in-format`: every card legal in the format, reprints included
  (`CardIndex.is_legal`); banned beats legal.
* `ace-spec-limit`, `radiant-limit`, `star-limit`: at most 1 ACE SPEC card, 1 Radiant
  Pokémon, 1 Pokémon ★ in the deck; `prism-star-limit`: at most 1 copy of each ◇ name.

Warnings: `missing-evolution-basis` when an evolution card's "evolves from" name (owner
included; LV.X cards need a non-LV.X card of the same name; Restored Pokémon need their
fossil Trainer) has no card in the deck (none for a Stage 2 when the deck plays Rare Candy
or Pokémon Breeder and has the Basic Pokémon of its line), and `energy-count` above 30
Energy (judged on the real lists: see `MAX_ENERGY`; half as many in a 30-card deck).
Printings without `evolvesFrom` (me2pt5/mep) borrow it from another printing with the
same name; when none has it the card is not checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from rules.cards import CardIndex, CardRecord, FormatSpec
from rules.decklist import DeckLine
from rules.findings import WARNING_CODES, Finding, lines_text
from rules.formats import CURRENT
from rules.i18n import Text, gettext_noop, ngettext, say, sentences
from rules.resolve import Resolution, resolve_line

__all__ = [
    "DECK_SIZE",
    "MAX_COPIES",
    "DeckLine",
    "Finding",
    "Verdict",
    "check_deck",
]

DECK_SIZE = CURRENT.deck_size
MAX_COPIES = CURRENT.copy_limit
#: The Energy-count warning fires above this many Energy cards only. Judged on the 207 real
#: lists in ../shared/data/real-decklists: they play 0 (a Snorlax stall deck), 1, 3, 4 ...
#: up to 25 Energy, all on purpose, so no lower bound is a sign of a mistake; the 1999
#: rulebook's "most decks need 25 to 30" is the top.
MAX_ENERGY = 30
#: Trainers that evolve a Basic Pokémon straight into its Stage 2 (normalised names).
STAGE_SKIPPERS = frozenset({"rare candy", "pokemon breeder"})
#: "Did you mean" hints are searched for this many unknown lines of one list at most.
MAX_SUGGESTED_LINES = 3
PASTE_LIMIT_CODES = frozenset({"paste-too-long", "too-many-lines"})


@dataclass(frozen=True, slots=True)
class Verdict:
    legal: bool
    errors: tuple[Finding, ...]
    warnings: tuple[Finding, ...]
    card_count: int

    def to_dict(self) -> dict[str, object]:
        return {
            "legal": self.legal,
            "errors": [f.to_dict() for f in self.errors],
            "warnings": [f.to_dict() for f in self.warnings],
        }

    def with_parse_errors(self, parse_errors: Iterable[Finding]) -> Verdict:
        """This verdict with the parser's findings put first (a parse error is an error)."""
        extra = tuple(parse_errors)
        if not extra:
            return self
        return replace(self, legal=False, errors=extra + self.errors)


@dataclass(slots=True)
class _Resolved:
    line: DeckLine
    rec: CardRecord | None  # the printing used for the rules; None when unknown
    key: str  # the name group (normalised name)
    legal: bool
    banned: bool
    by_name: bool


def _label(item: _Resolved) -> str:
    rec = item.rec
    if rec is None:
        return item.line.name
    return rec.name if item.by_name else f"{rec.name} ({rec.printing})"


def _resolve(
    line: DeckLine, index: CardIndex, fmt: FormatSpec, memo: dict[object, object]
) -> Resolution:
    memo_key = (line.name, line.set_code, line.number)
    found = memo.get(memo_key)
    if found is None:
        found = memo[memo_key] = resolve_line(index, fmt, line.name, line.set_code, line.number)
    return found


def _basic_of(index: CardIndex, stage1: str) -> set[str]:
    """The names a Stage 1 name evolves from (the Basic Pokémon a Rare Candy needs)."""
    return {index.evolves_from(rec) for rec in index.by_name(stage1)} - {""}


def _with_suggestions(index: CardIndex, message: Text, name: str, budget: list[int]) -> Text:
    """`message` plus "Did you mean ...?" while the list's suggestion budget lasts."""
    parts = [message]
    if name.strip() and budget[0] > 0:
        budget[0] -= 1
        suggestions = index.suggestions(name)
        if suggestions:
            if len(suggestions) == 1:
                parts.append(say(gettext_noop("Did you mean %(card)s?"), card=suggestions[0]))
            else:
                options = say(
                    gettext_noop("%(cards)s or %(last)s"),
                    cards=", ".join(suggestions[:-1]),
                    last=suggestions[-1],
                )
                parts.append(say(gettext_noop("Did you mean %(options)s?"), options=options))
    parts.append(say(gettext_noop("Fix the name or remove the line.")))
    return sentences(*parts)


def _limit(items: list[_Resolved], code: str, msgid: str, errors: list[Finding]) -> None:
    """`msgid` has the parameters `lines`, `total`, `names` and `remove`."""
    total = sum(i.line.count for i in items)
    if total <= 1:
        return
    names = sorted({i.rec.name if i.rec else i.line.name for i in items})
    errors.append(
        Finding(
            code,
            tuple(sorted({i.line.line_no for i in items})),
            say(
                msgid,
                lines=lines_text(i.line.line_no for i in items),
                total=total,
                names=", ".join(names),
                remove=total - 1,
            ),
        )
    )


def check_deck(
    lines: Sequence[DeckLine],
    index: CardIndex,
    fmt: FormatSpec,
    parse_errors: Iterable[Finding] = (),
) -> Verdict:
    """Check a parsed decklist against `fmt`. Never raises for any parsed input.

    `parse_errors` (the parser's findings) are put first among the errors.
    """
    errors: list[Finding] = list(parse_errors)
    rules = fmt.rules
    deck_size, copy_limit = rules.deck_size, rules.copy_limit
    if any(f.code in PASTE_LIMIT_CODES for f in errors):
        # The paste was not read (over a size limit): that error alone is the verdict.
        return Verdict(legal=False, errors=tuple(errors), warnings=(), card_count=0)
    warnings: list[Finding] = []
    memo = index.format_memo(fmt)
    budget = [MAX_SUGGESTED_LINES]
    resolved: list[_Resolved] = []
    card_count = 0
    all_known = True
    for line in lines:
        if line.count <= 0:
            continue
        card_count += line.count
        found = _resolve(line, index, fmt, memo)
        rec = found.rec
        if rec is not None:
            resolved.append(
                _Resolved(line, rec, rec.norm_name, found.legal, found.banned, found.by_name)
            )
        else:
            # A line that names no card counts toward the 60 and nothing else: no copy
            # limit, no claim about Basic Pokémon or Energy that it could make false.
            all_known = False
        if found.code:
            message = say(
                gettext_noop("Line %(line)s: %(problem)s"), line=line.line_no, problem=found.text
            )
            if found.code in WARNING_CODES:
                warnings.append(Finding(found.code, (line.line_no,), message))
            else:
                if found.suggest_for or found.code == "unknown-card":
                    message = _with_suggestions(index, message, found.suggest_for, budget)
                errors.append(Finding(found.code, (line.line_no,), message))
    any_lines = card_count > 0

    # -- deck size
    if card_count != deck_size:
        if card_count < deck_size:
            short = deck_size - card_count
            fix = say(ngettext("Add %(count)s card.", "Add %(count)s cards.", short), count=short)
        else:
            over = card_count - deck_size
            fix = say(
                ngettext("Remove %(count)s card.", "Remove %(count)s cards.", over), count=over
            )
        has = say(
            ngettext(
                "The deck has %(count)s card; a deck must have exactly %(size)s.",
                "The deck has %(count)s cards; a deck must have exactly %(size)s.",
                card_count,
            ),
            count=card_count,
            size=deck_size,
        )
        errors.append(Finding("deck-size", (), sentences(has, fix)))

    # -- copies by name (basic Energy exempt), and rule-box limits
    groups: dict[str, list[_Resolved]] = {}
    ace: list[_Resolved] = []
    radiant: list[_Resolved] = []
    star: list[_Resolved] = []
    prism: dict[str, list[_Resolved]] = {}
    has_basic = False
    energy_total = 0
    energy_lines: list[int] = []
    for item in resolved:
        rec = item.rec
        if rec is not None:
            if rec.is_energy:
                energy_total += item.line.count
                energy_lines.append(item.line.line_no)
            if rec.is_basic_energy:
                continue
            has_basic = has_basic or rec.is_basic_pokemon
            if rec.is_ace_spec:
                ace.append(item)
            if rec.is_radiant:
                radiant.append(item)
            if rec.is_star:
                star.append(item)
            if rec.is_prism_star:
                prism.setdefault(item.key, []).append(item)
            if rules.copy_exempt_card(
                is_energy=rec.is_energy, is_basic_energy=rec.is_basic_energy, norm_name=item.key
            ):
                continue
        groups.setdefault(item.key, []).append(item)

    for key, items in groups.items():
        total = sum(i.line.count for i in items)
        if total > copy_limit:
            rec = next((i.rec for i in items if i.rec is not None), None)
            shown = index.display_name(key) if rec is not None else items[0].line.name
            errors.append(
                Finding(
                    "too-many-copies",
                    tuple(sorted({i.line.line_no for i in items})),
                    say(
                        gettext_noop(
                            "%(lines)s: %(total)s cards named %(card)s; a deck may hold at most "
                            "%(limit)s. Remove %(remove)s."
                        ),
                        lines=lines_text(i.line.line_no for i in items),
                        total=total,
                        card=shown,
                        limit=copy_limit,
                        remove=total - copy_limit,
                    ),
                )
            )

    _limit(
        ace,
        "ace-spec-limit",
        gettext_noop(
            "%(lines)s: %(total)s ACE SPEC cards (%(names)s); a deck may hold only 1 ACE SPEC "
            "card. Remove %(remove)s."
        ),
        errors,
    )
    _limit(
        radiant,
        "radiant-limit",
        gettext_noop(
            "%(lines)s: %(total)s Radiant Pokémon (%(names)s); a deck may hold only 1 Radiant "
            "Pokémon. Remove %(remove)s."
        ),
        errors,
    )
    _limit(
        star,
        "star-limit",
        gettext_noop(
            "%(lines)s: %(total)s Pokémon ★ (Star) cards (%(names)s); a deck may hold only 1 "
            "Pokémon ★. Remove %(remove)s."
        ),
        errors,
    )
    for key, items in prism.items():
        total = sum(i.line.count for i in items)
        if total > 1:
            errors.append(
                Finding(
                    "prism-star-limit",
                    tuple(sorted({i.line.line_no for i in items})),
                    say(
                        gettext_noop(
                            "%(lines)s: %(total)s copies of %(card)s; a deck may hold only 1 "
                            "copy of each Prism Star (◇) card. Remove %(remove)s."
                        ),
                        lines=lines_text(i.line.line_no for i in items),
                        total=total,
                        card=index.display_name(key),
                        remove=total - 1,
                    ),
                )
            )

    # -- format legality
    for item in resolved:
        if item.rec is None or item.legal:
            continue
        if item.banned:
            msgid = gettext_noop("Line %(line)s: %(card)s is banned in %(format)s. Remove it.")
        elif item.by_name:
            msgid = gettext_noop(
                "Line %(line)s: %(card)s has no printing that is legal in %(format)s. Replace it."
            )
        else:
            msgid = gettext_noop(
                "Line %(line)s: %(card)s is not legal in %(format)s. Replace it with a legal "
                "printing or another card."
            )
        errors.append(
            Finding(
                "not-legal-in-format",
                (item.line.line_no,),
                say(msgid, line=item.line.line_no, card=_label(item), format=fmt.name),
            )
        )

    # -- at least one Basic Pokémon
    if rules.require_basic_pokemon and resolved and all_known and not has_basic:
        errors.append(
            Finding(
                "no-basic-pokemon",
                (),
                say(
                    gettext_noop(
                        "The deck has no Basic Pokémon; it needs at least one. (Trainers played "
                        "as if they were Basic Pokémon, such as Mysterious Fossil, do not "
                        "count.) Add a Basic Pokémon."
                    )
                ),
            )
        )
    elif not any_lines:
        if rules.require_basic_pokemon:
            msgid = gettext_noop(
                "The decklist has no cards; add %(size)s cards, at least one a Basic Pokémon."
            )
        else:
            msgid = gettext_noop("The decklist has no cards; add %(size)s cards.")
        errors.append(Finding("no-basic-pokemon", (), say(msgid, size=deck_size)))

    # -- warnings: evolution bases
    present: set[str] = set()
    present_not_lvx: set[str] = set()
    for item in resolved:
        present.add(item.key)
        if item.rec is None or not item.rec.is_level_up:
            present_not_lvx.add(item.key)
    missing: dict[tuple[str, str], list[_Resolved]] = {}
    skips = bool(present & STAGE_SKIPPERS)
    for item in resolved:
        rec = item.rec
        if rec is None or rec.is_basic_pokemon:
            continue
        basis = index.evolves_from(rec)
        if not basis:
            continue
        pool = present_not_lvx if rec.is_level_up else present
        if any(name in pool for name in index.basis_alternatives(basis)):
            continue
        if skips and "Stage 2" in rec.subtypes and _basic_of(index, basis) & present:
            continue  # Rare Candy (or Pokémon Breeder) puts it on the Basic Pokémon
        missing.setdefault((item.key, basis), []).append(item)
    for (key, basis), items in missing.items():
        first = items[0].rec
        shown = first.name if first is not None and first.is_level_up else index.display_name(key)
        basis_shown = index.display_name(basis) if index.by_name(basis) else basis
        warnings.append(
            Finding(
                "missing-evolution-basis",
                tuple(sorted({i.line.line_no for i in items})),
                say(
                    gettext_noop(
                        "%(lines)s: %(card)s evolves from %(basis)s, but the deck has no "
                        "%(basis)s. Add %(basis)s or check the list."
                    ),
                    lines=lines_text(i.line.line_no for i in items),
                    card=shown,
                    basis=basis_shown,
                ),
            )
        )

    # -- warnings: Energy count (only too many: real lists play 0 to 25, see MAX_ENERGY)
    max_energy = MAX_ENERGY * deck_size // CURRENT.deck_size
    if resolved and all_known and energy_total > max_energy:
        if deck_size == CURRENT.deck_size:
            msgid = ngettext(
                "The deck has %(count)s Energy card, more than %(max)s; even the 1999 "
                "rulebook's advice is 25 to 30.",
                "The deck has %(count)s Energy cards, more than %(max)s; even the 1999 "
                "rulebook's advice is 25 to 30.",
                energy_total,
            )
        else:
            msgid = ngettext(
                "The deck has %(count)s Energy card, more than %(max)s; that is more than "
                "half of a %(size)s-card deck.",
                "The deck has %(count)s Energy cards, more than %(max)s; that is more than "
                "half of a %(size)s-card deck.",
                energy_total,
            )
        too_many = say(msgid, count=energy_total, max=max_energy, size=deck_size)
        warnings.append(
            Finding(
                "energy-count",
                tuple(sorted(set(energy_lines))),
                sentences(too_many, say(gettext_noop("Check the Energy count."))),
            )
        )

    return Verdict(
        legal=not errors,
        errors=tuple(errors),
        warnings=tuple(warnings),
        card_count=card_count,
    )
