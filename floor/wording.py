"""The penalty catalogue's words in the reader's language: `rules.penalties` keeps the codes
and the English labels (rules/ has no Django), this module gives each code its
translatable label for the forms, the model's choices, the pages and the notifications."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from rules import penalties as rules

_INFRACTION_LABELS = {
    "tardiness": gettext_lazy("Tardiness"),
    "procedural-minor": gettext_lazy("Procedural Error – Minor"),
    "procedural-major": gettext_lazy("Procedural Error – Major"),
    "deck-decklist": gettext_lazy("Deck/Decklist problem"),
    "marked-cards": gettext_lazy("Marked cards"),
    "slow-play": gettext_lazy("Slow play"),
    "unsporting-minor": gettext_lazy("Unsporting Conduct – Minor"),
    "unsporting-major": gettext_lazy("Unsporting Conduct – Major"),
    "unsporting-severe": gettext_lazy("Unsporting Conduct – Severe"),
    "cheating": gettext_lazy("Cheating"),
}

_PENALTY_LABELS = {
    rules.CAUTION: pgettext_lazy("penalty", "Caution"),
    rules.WARNING: pgettext_lazy("penalty", "Warning"),
    # Translators: a penalty where the opponent takes Prize cards (official TCG term).
    rules.PRIZE: gettext_lazy("Prize penalty"),
    # Translators: "game loss" is the official Play! Pokémon penalty term.
    rules.GAME_LOSS: gettext_lazy("Game loss"),
    # Translators: "match loss" is the official Play! Pokémon penalty term.
    rules.MATCH_LOSS: gettext_lazy("Match loss"),
    rules.DISQUALIFICATION: gettext_lazy("Disqualification"),
}

#: (code, label) as in `rules.penalties`, the label translatable (a code added there
#: without a label here keeps its English label).
INFRACTIONS = tuple(
    (code, _INFRACTION_LABELS.get(code, label)) for code, label in rules.INFRACTIONS
)
PENALTIES = tuple((code, _PENALTY_LABELS.get(code, label)) for code, label in rules.PENALTIES)


def infraction_label(infraction: str) -> str:
    return str(
        _INFRACTION_LABELS.get(infraction, rules.INFRACTION_LABELS.get(infraction, infraction))
    )


def penalty_label(penalty: str, prizes: int | None = None) -> str:
    """As `rules.penalties.penalty_label`, in the active language."""
    if penalty == rules.PRIZE and prizes:
        # Translators: "Prize" is the official TCG term for a Prize card.
        return ngettext(
            "Prize penalty (%(count)s Prize)", "Prize penalty (%(count)s Prizes)", prizes
        ) % {"count": prizes}
    return str(_PENALTY_LABELS.get(penalty, rules.PENALTY_LABELS.get(penalty, penalty)))
