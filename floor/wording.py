"""The penalty catalogue's words in the reader's language: `rules.penalties` keeps the codes
and the English labels (rules/ has no Django), this module gives each code its
translatable label for the forms, the model's choices, the pages and the notifications."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from rules import i18n as words
from rules import penalties as rules
from rules.i18n import Text

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


# --- words stored for later readers ---------------------------------------------------
# The floor's event-log summaries and the notes it leaves on a penalty and on the match
# result, as `rules.i18n.Text` (a marked template and its parameters): kept beside their
# English and worded at display in the reader's language (`decks.findings_text.word_stored`).

#: "<penalty> for <player> (<infraction code>).", one whole sentence per penalty.
_PENALTY_FOR = {
    rules.CAUTION: words.gettext_noop("Caution for %(player)s (%(infraction)s)."),
    rules.WARNING: words.gettext_noop("Warning for %(player)s (%(infraction)s)."),
    rules.PRIZE: words.gettext_noop("Prize penalty for %(player)s (%(infraction)s)."),
    rules.GAME_LOSS: words.gettext_noop("Game loss for %(player)s (%(infraction)s)."),
    rules.MATCH_LOSS: words.gettext_noop("Match loss for %(player)s (%(infraction)s)."),
    rules.DISQUALIFICATION: words.gettext_noop("Disqualification for %(player)s (%(infraction)s)."),
}

#: The note a penalty that costs games leaves on the match result.
_RESULT_NOTE = {
    rules.GAME_LOSS: words.gettext_noop("Game loss for %(player)s: %(note)s"),
    rules.MATCH_LOSS: words.gettext_noop("Match loss for %(player)s: %(note)s"),
    rules.DISQUALIFICATION: words.gettext_noop("Disqualification for %(player)s: %(note)s"),
}

_DECK_CHECKED = {
    "ok": words.gettext_noop("%(player)s's deck checked: ok: matches the registered list."),
    "mismatch": words.gettext_noop("%(player)s's deck checked: mismatch."),
}


def at_table(match, what: Text) -> Text:
    """An event-log summary of something at one table."""
    return words.say(
        words.gettext_noop("Round %(round)s, table %(table)s: %(what)s"),
        round=match.round.number,
        table=match.table,
        what=what,
    )


def more_minutes(minutes: int) -> Text:
    return words.say(
        words.ngettext("%(count)s more minute.", "%(count)s more minutes.", minutes),
        count=minutes,
    )


def penalty_for(penalty: str, player: str, infraction: str) -> Text:
    return words.say(_PENALTY_FOR[penalty], player=player, infraction=infraction)


def result_note(penalty: str, player: str, note: Text | str) -> Text:
    return words.say(_RESULT_NOTE[penalty], player=player, note=note)


def deck_checked(outcome: str, player: str) -> Text:
    return words.say(_DECK_CHECKED[outcome], player=player)


def tardiness_note(minutes: int, *, never_arrived: bool) -> Text:
    """The note a tardiness penalty keeps ("12 minutes late; never arrived")."""
    if never_arrived:
        message = words.ngettext(
            "%(count)s minute late; never arrived", "%(count)s minutes late; never arrived", minutes
        )
    else:
        message = words.ngettext("%(count)s minute late", "%(count)s minutes late", minutes)
    return words.say(message, count=minutes)
