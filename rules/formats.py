"""The rules a format plays by, as data: `FormatRules`, and the rulebook presets.

A format is two things: the cards it allows (`rules.cards.FormatSpec`: a legality column,
sets, regulation marks, bans, basic Energy types) and the rules of building a deck and of a
game (`FormatRules`, carried by the spec as `FormatSpec.rules`). The legality engine
(`rules.legality`) and the result rules (`rules.results`) read them instead of constants.

`CURRENT` is today's rules, what every format had before formats carried rules: 60 cards,
6 Prize cards, at least one Basic Pokémon, 4 copies of a name with basic Energy exempt, and
"won both ways" (1999 and 2011 rulebooks). The presets follow the rulebooks in
`../shared/rulebooks/` (each field's docstring quotes its sentence):

* `ORIGINAL_1996`: the first Japanese rulebook (Base Set). "1. The number of cards in a
  deck must be exactly 60. 2. You may put as many of any colors of Energy you like in your
  deck. Only "Double Colorless Energy" is limited to 4 copies per deck." It states no Basic
  Pokémon rule ("If you try 3 times and still don't draw any Pokémon on the third attempt,
  you lose the game"), no "won both ways", and its sudden death goes on in the same game.
* `ADVANCED_1999`: WotC's Advanced Rulebook: "Your deck has to have exactly 60 cards, and
  you can't have more than 4 of any one card other than basic Energy cards".
* `BASIC_1999`: the basic game the Advanced Rulebook builds on: "Instead of each player
  playing with a 30-card deck, now each of you must play with a 60-card deck" and "Each of
  you puts down 6 Prizes instead of 3."
* `RULES_2011`: "your deck must be exactly 60 cards ... Lastly, your deck must have at
  least one Basic Pokémon in it."

The card pools of the presets (which sets, which basic Energy types) are stored with the
formats in the database (`decks.Format`, migration `0003_format_rules`), not here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.i18n import gettext_noop

__all__ = [
    "ADVANCED_1999",
    "BASIC_1999",
    "COPY_EXEMPT",
    "CURRENT",
    "ORIGINAL_1996",
    "PRESETS",
    "RULES_2011",
    "FormatRules",
]

#: What the copy limit does not count: basic Energy (1999, 2011, today), or every Energy
#: card except the names in `FormatRules.limited_energy` (1996).
COPY_EXEMPT = ("basic_energy", "energy")


@dataclass(frozen=True)
class FormatRules:
    """How a deck is built and a game is played in a format.

    * `deck_size`: a deck has exactly this many cards.
    * `prizes`: Prize cards each player sets out in a regular game.
    * `require_basic_pokemon`: a deck must hold at least one Basic Pokémon.
    * `copy_limit`: cards with the same name a deck may hold, except the exempt ones.
    * `copy_exempt`: "basic_energy" (basic Energy cards are exempt) or "energy" (every
      Energy card is exempt except the names in `limited_energy`, normalised names).
    * `win_both_ways`: "if you win in both ways and your opponent wins in only one way, you
      win" decides a game both players won at once (else it always goes to sudden death).
    * `play_notes`: what a deck checker cannot check (mulligans, setup, the first turn),
      shown to players on the event and deck pages (the presets' notes are marked with
      `gettext_noop`; the site translates a note at display by its English).
    """

    deck_size: int = 60
    prizes: int = 6
    require_basic_pokemon: bool = True
    copy_limit: int = 4
    copy_exempt: str = "basic_energy"
    limited_energy: frozenset[str] = frozenset()
    win_both_ways: bool = True
    play_notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.copy_exempt not in COPY_EXEMPT:
            raise ValueError(f"copy_exempt must be one of {COPY_EXEMPT}, not {self.copy_exempt!r}")
        if not 1 <= self.deck_size <= 200:
            raise ValueError(f"deck_size must be 1 to 200, not {self.deck_size}")
        if not 1 <= self.prizes <= 6:
            raise ValueError(f"prizes must be 1 to 6, not {self.prizes}")
        if self.copy_limit < 1:
            raise ValueError(f"copy_limit must be at least 1, not {self.copy_limit}")
        if not isinstance(self.limited_energy, frozenset):
            object.__setattr__(self, "limited_energy", frozenset(self.limited_energy))
        if not isinstance(self.play_notes, tuple):
            object.__setattr__(self, "play_notes", tuple(self.play_notes))

    def copy_exempt_card(self, *, is_energy: bool, is_basic_energy: bool, norm_name: str) -> bool:
        """Whether the copy limit leaves this card out."""
        if self.copy_exempt == "energy":
            return is_energy and norm_name not in self.limited_energy
        return is_basic_energy


CURRENT = FormatRules()

ORIGINAL_1996 = FormatRules(
    require_basic_pokemon=False,
    copy_exempt="energy",
    limited_energy=frozenset({"double colorless energy"}),
    win_both_ways=False,
    play_notes=(
        gettext_noop(
            "Mulligan: with no Pokémon in your 7 cards, show your hand, shuffle it back and draw "
            "7 again; your opponent draws nothing extra. After 3 tries without one, you lose."
        ),
        gettext_noop(
            "Setup: only your Active Pokémon is put down face down; no Pokémon go on the Bench "
            "before the game starts. 6 Prize cards."
        ),
        gettext_noop(
            "Rock-paper-scissors decides who goes first; the first player does not draw on the "
            "first turn."
        ),
        gettext_noop(
            "Sudden death: if both players' 6th Pokémon are Knocked Out at once, the game goes on "
            "with a 7th Pokémon; if neither has one, the game is a draw."
        ),
    ),
)

ADVANCED_1999 = FormatRules(
    play_notes=(
        gettext_noop(
            "Mulligan: with no Basic Pokémon in your 7 cards, show your hand, shuffle and draw 7 "
            "again; your opponent may draw up to 2 extra cards each time."
        ),
        gettext_noop(
            "Setup: an Active Pokémon and up to 5 Benched Basic Pokémon face down, 6 Prize cards; "
            "flip a coin to decide who goes first."
        ),
        gettext_noop("Nobody evolves a Pokémon on the first turn."),
        gettext_noop(
            "If you win in both ways and your opponent wins in only one way, you win; otherwise "
            "a game both players win at once goes to sudden death (a new game, 1 Prize each)."
        ),
    ),
)

BASIC_1999 = FormatRules(
    deck_size=30,
    prizes=3,
    play_notes=(
        gettext_noop("The basic game of the starter set: 30-card decks and 3 Prize cards each."),
        gettext_noop(
            "Mulligan: with no Basic Pokémon in your 7 cards, show your hand, shuffle and draw 7 "
            "again; your opponent may draw up to 2 extra cards each time."
        ),
        gettext_noop(
            "Flip a coin to decide who goes first. Nobody evolves a Pokémon on the first turn."
        ),
        gettext_noop("If you win in both ways and your opponent wins in only one way, you win."),
    ),
)

RULES_2011 = FormatRules(
    play_notes=(
        gettext_noop(
            "Mulligan: with no Basic Pokémon in your 7 cards, reveal your hand, shuffle it back "
            "and draw 7 more; your opponent draws an extra card each time."
        ),
        gettext_noop(
            "Setup: an Active Pokémon and up to 5 Benched Basic Pokémon face down, 6 Prize cards; "
            "flip a coin to decide who goes first."
        ),
        gettext_noop("Neither player can evolve a Pokémon on his or her first turn."),
        gettext_noop(
            "If you win in both ways and your opponent wins in only one way, you are the victor; "
            "otherwise sudden death: a new game with 1 Prize card each."
        ),
    ),
)

#: The presets by the key their stored format has.
PRESETS: dict[str, FormatRules] = {
    "original-1996": ORIGINAL_1996,
    "advanced-1999": ADVANCED_1999,
    "basic-1999": BASIC_1999,
    "rules-2011": RULES_2011,
}


#: A play note's own words for sudden death: a whole note ("Sudden death: …"), or the
#: clause after "otherwise" in the note on winning both ways.
_SUDDEN_DEATH_NOTE = re.compile(r"^sudden death\b", re.IGNORECASE)
_SUDDEN_DEATH_CLAUSE = re.compile(r"[;,]\s*otherwise\b[^.]*sudden death.*$", re.IGNORECASE)


#: The notes as `notes_apart_from_sudden_death` leaves them, marked for the catalogues too
#: (the site translates a note at display, by its English).
TRIMMED_NOTES = (
    gettext_noop("If you win in both ways and your opponent wins in only one way, you win."),
    gettext_noop(
        "If you win in both ways and your opponent wins in only one way, you are the victor."
    ),
)


def notes_apart_from_sudden_death(notes: tuple[str, ...] | list[str]) -> list[str]:
    """The play notes without what they say about sudden death. An event says how its
    sudden death is played (`Event.sudden_death_style`: a new game, or the 1996 game that
    goes on), and that is what its results follow; a format's note saying otherwise would
    contradict it on the same page."""
    kept = []
    for note in notes:
        if _SUDDEN_DEATH_NOTE.match(note):
            continue
        trimmed = _SUDDEN_DEATH_CLAUSE.sub(".", note)
        kept.append(trimmed)
    return kept
