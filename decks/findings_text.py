"""Deck findings in the reader's language.

The engine (`rules/`, and `decks.parser`) says a finding as a `rules.i18n.Text`: a msgid
marked for the catalogues and its parameters. Here the site words it with Django's
`gettext`/`ngettext` in the active language. Every place that shows a finding goes through
`word` (a `Finding`) or `word_record` (a finding as stored on a submission,
`Finding.to_record()`; an old one without its text keeps its English).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext, ngettext

from rules.findings import Finding
from rules.i18n import Text


def word(finding: Finding | Text) -> str:
    """A finding (or any engine `Text`) in the active language."""
    text = finding.text if isinstance(finding, Finding) else finding
    return text.render(gettext, ngettext)


def word_record(record: Mapping) -> str:
    """A stored finding (`Finding.to_record()` / `to_dict()`) in the active language."""
    return word(Finding.from_record(record))


def worded_findings(records) -> list[dict]:
    """Stored findings as the API and pages show them: `code`, `lines` and `message` in the
    active language (the stored template and parameters left out)."""
    return [
        {"code": r.get("code", ""), "lines": list(r.get("lines", [])), "message": word_record(r)}
        for r in records or []
    ]


def worded_verdict(verdict: Mapping | None) -> dict:
    """A stored verdict with its findings worded in the active language."""
    verdict = dict(verdict or {})
    for kind in ("errors", "warnings"):
        if kind in verdict:
            verdict[kind] = worded_findings(verdict[kind])
    return verdict


def verdict_record(verdict) -> dict:
    """A `rules.legality.Verdict` as a submission stores it: `to_dict()` with each finding's
    text (template and parameters), to word it again in a later reader's language."""
    return {
        **verdict.to_dict(),
        "errors": [f.to_record() for f in verdict.errors],
        "warnings": [f.to_record() for f in verdict.warnings],
    }


def word_stored(record: Mapping | None, english: str = "") -> str:
    """Any stored `Text` (its JSON form, `Text.to_dict()`: an event-log summary, a result
    note, a refusal kept with a save) in the active language; `english`, the text stored
    beside it, when there is no template (rows written before templates were kept)."""
    if not record:
        return english
    return word(Text.from_dict(record))


def seeded_name(row) -> str:
    """A seeded row's name (a preset format, a rule edition), whose English is a msgid, in
    the reader's language; a name an organiser typed has no entry and stays as typed. The
    choice lists of formats and editions label their options with it."""
    return gettext(str(row))
