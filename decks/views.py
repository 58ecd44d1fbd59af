"""Decklist verdicts on pages: every line of a list with the findings that name it.

`verdict_context` is what the deck pages of the league app render with
`templates/decks/_verdict.html`; `deck_check` is a stand-alone page that checks a list
against a format and stores nothing. Nothing here knows about events or registrations.
"""

from __future__ import annotations

from django import forms
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import Throttled

from .findings_text import seeded_name, verdict_record, word_record
from .models import Format
from .parser import MAX_PASTE_CHARS
from .services import check_decklist
from .throttle import AnonymousDeckCheckThrottle


def verdict_dict(verdict) -> dict:
    """A `rules.legality.Verdict` as stored on a submission (each finding with its text to
    word, `decks.findings_text.verdict_record`), with its card count."""
    return {**verdict_record(verdict), "card_count": verdict.card_count}


def split_lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def verdict_context(text: str, verdict: dict, card_count: int | None = None) -> dict:
    """The context `_verdict.html` renders: `lines` (number, text, errors, warnings, state)
    and `deck_wide` findings (no line named, or a line beyond the text). A finding about
    several lines (the Energy count) is said once, under the first, and the others say
    "See line N". Each finding's `message` is worded in the active language."""
    rows = [
        {"number": n, "text": line, "errors": [], "warnings": []}
        for n, line in enumerate(split_lines(text), start=1)
    ]
    while rows and not rows[-1]["text"].strip():
        rows.pop()
    deck_wide = []
    for kind in ("errors", "warnings"):
        for stored in verdict.get(kind, []):
            finding = {
                "code": stored.get("code", ""),
                "lines": stored.get("lines", []),
                "message": word_record(stored),
            }
            named = [n for n in finding["lines"] if 1 <= n <= len(rows)]
            if not named:
                deck_wide.append({**finding, "kind": kind[:-1]})
            named = sorted(set(named))
            if len(named) > 1:  # said once, under its first line; the others point to it
                others = ", ".join(str(n) for n in named[1:])
                finding = {
                    **finding,
                    "message": _("%(message)s (lines %(first)s, %(others)s)")
                    % {"message": finding["message"], "first": named[0], "others": others},
                }
            for n in named:
                rows[n - 1][kind].append(
                    finding
                    if n == named[0]
                    else {
                        "code": finding["code"],
                        "message": _("See line %(line)s.") % {"line": named[0]},
                    }
                )
    for row in rows:
        row["state"] = "err" if row["errors"] else "warn" if row["warnings"] else ""
    errors, warnings = verdict.get("errors", []), verdict.get("warnings", [])
    return {
        "legal": bool(verdict.get("legal")),
        "card_count": card_count if card_count is not None else verdict.get("card_count"),
        "error_count": len(errors),
        "warning_count": len(warnings),
        "lines": rows,
        "deck_wide": deck_wide,
    }


class CheckForm(forms.Form):
    format = forms.ModelChoiceField(
        queryset=Format.objects.all(), empty_label=None, label=gettext_lazy("Format")
    )
    format.label_from_instance = seeded_name
    decklist_text = forms.CharField(
        label=gettext_lazy("Decklist"),
        widget=forms.Textarea(attrs={"spellcheck": "false"}),
        max_length=MAX_PASTE_CHARS,
        strip=False,
        error_messages={"required": gettext_lazy("Paste your decklist: the text is empty.")},
    )


def deck_check(request):
    """Check a list against any format; nothing is stored."""
    form = CheckForm(request.POST or None)
    verdict = None
    if request.method == "POST":
        # The API's limit, counted together with it, by the client's address behind the
        # proxy (`config.client_address`): anonymous checks, page or API, 30 a minute.
        try:
            AnonymousDeckCheckThrottle().allow_request(request, None)
        except Throttled as exc:
            form.add_error(None, exc.detail)
            response = render(request, "decks/check.html", {"form": form, "verdict": None})
            response.status_code = 429
            response["Retry-After"] = str(int(exc.wait or 60))
            return response
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["decklist_text"]
        verdict = verdict_context(
            text, verdict_dict(check_decklist(text=text, fmt=form.cleaned_data["format"]))
        )
    return render(request, "decks/check.html", {"form": form, "verdict": verdict})
