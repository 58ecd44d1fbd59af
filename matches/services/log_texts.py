"""The words matches stores for later readers (event-log summaries, result-change notes),
as `rules.i18n.Text`: a marked template and its parameters, kept beside the English and
worded at display in the reader's language (`decks.findings_text.word_stored`)."""

from __future__ import annotations

from rules.i18n import Text, gettext_noop, ngettext, say

#: A corrected result, one whole sentence per result (the English of before: the result's
#: label in lower case).
CORRECTED = {
    "a": gettext_noop(
        "Round %(round)s, table %(table)s: result corrected to player a won (%(a)s-%(b)s)."
    ),
    "b": gettext_noop(
        "Round %(round)s, table %(table)s: result corrected to player b won (%(a)s-%(b)s)."
    ),
    "tie": gettext_noop("Round %(round)s, table %(table)s: result corrected to tie (%(a)s-%(b)s)."),
    "double_loss": gettext_noop(
        "Round %(round)s, table %(table)s: result corrected to double loss (%(a)s-%(b)s)."
    ),
}


def result_corrected(match) -> Text:
    """The log's summary of a corrected result that stood."""
    return say(
        CORRECTED.get(match.result, CORRECTED["tie"]),
        round=match.round.number,
        table=match.table,
        a=match.a_game_wins,
        b=match.b_game_wins,
    )


def repaired(match) -> Text:
    """The note on a later top-cut match re-paired because `match` was corrected."""
    return say(
        gettext_noop("re-paired: round %(round)s table %(table)s was corrected"),
        round=match.round.number,
        table=match.table,
    )


def both_agreed() -> Text:
    """The note on a result both players reported alike."""
    return say(gettext_noop("both players agreed"))


def round_undone(number: int, tables: int, *, told: bool) -> Text:
    """The log's summary of an undone round (`told`: its pairings were public)."""
    if told:
        message = ngettext(
            "Round %(round)s undone (%(count)s table); players told.",
            "Round %(round)s undone (%(count)s tables); players told.",
            tables,
        )
    else:
        message = ngettext(
            "Round %(round)s undone (%(count)s table).",
            "Round %(round)s undone (%(count)s tables).",
            tables,
        )
    return say(message, round=number, count=tables)


def note_fields(note: Text | str) -> dict:
    """A `ResultChange`'s note: the English, and the template when the site wrote it (a
    `Text`); a note typed by a person is kept as typed."""
    return {
        "note": str(note)[:200],
        "note_text": note.to_dict() if isinstance(note, Text) else None,
    }
