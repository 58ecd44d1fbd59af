"""The rulebook formats every site starts with, as the field values of `decks.Format`.

The rules come from `rules.formats` (each preset's docstring quotes its rulebook); the card
pools are chosen here:

* "Original rules (1996)": Base Set only (the 1996 starter deck's cards), the six basic
  Energy types of the time.
* "Advanced rules (1999)" and "Basic game (1999, 30 cards, 3 Prizes)": the sets released by
  the end of 1999 (Base Set, Jungle, the Wizards promos, Fossil); Base Set 2 reprints of those
  cards count as the same cards.
* "2011 rules": every set released by the end of 2011, with the eight basic Energy types of
  then (no Fairy).

Organisers edit them in the admin like any format. Used by the data migration
`0003_format_rules` and by `decks.services.ensure_default_formats`.
"""

from __future__ import annotations

import datetime

from django.utils.translation import gettext_noop

from rules.formats import ADVANCED_1999, BASIC_1999, ORIGINAL_1996, RULES_2011, FormatRules

SIX_TYPES = "Grass,Fire,Water,Lightning,Psychic,Fighting"
EIGHT_TYPES = SIX_TYPES + ",Darkness,Metal"


def _fields(rules: FormatRules) -> dict:
    return {
        "deck_size": rules.deck_size,
        "prizes": rules.prizes,
        "require_basic_pokemon": rules.require_basic_pokemon,
        "copy_limit": rules.copy_limit,
        "copy_exempt": rules.copy_exempt,
        "limited_energy": "\n".join(
            "Double Colorless Energy" if n == "double colorless energy" else n
            for n in sorted(rules.limited_energy)
        ),
        "win_both_ways": rules.win_both_ways,
        "play_notes": "\n".join(rules.play_notes),
    }


PRESET_FORMATS: list[dict] = [
    {
        "key": "original-1996",
        "name": gettext_noop("Original rules (1996)"),
        "sets_released_by": datetime.date(1999, 1, 9),
        "basic_energy_types": SIX_TYPES,
        **_fields(ORIGINAL_1996),
    },
    {
        "key": "advanced-1999",
        "name": gettext_noop("Advanced rules (1999)"),
        "sets_released_by": datetime.date(1999, 12, 31),
        "basic_energy_types": SIX_TYPES,
        **_fields(ADVANCED_1999),
    },
    {
        "key": "basic-1999",
        "name": gettext_noop("Basic game (1999, 30 cards, 3 Prizes)"),
        "sets_released_by": datetime.date(1999, 12, 31),
        "basic_energy_types": SIX_TYPES,
        **_fields(BASIC_1999),
    },
    {
        "key": "rules-2011",
        "name": gettext_noop("2011 rules"),
        "sets_released_by": datetime.date(2011, 12, 31),
        "basic_energy_types": EIGHT_TYPES,
        **_fields(RULES_2011),
    },
]
