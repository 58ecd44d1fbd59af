"""Texts the site stores and people read later are kept as a message template and its
parameters (`rules.i18n.Text.to_dict()`) beside their English, and worded at display in the
reader's language: event-log summaries (every app's), the notes a penalty and a re-pairing
leave on a result, the tardiness penalty's note, a TOM refusal the worker kept, a webhook's
last error and pause reason. Rows written before keep their English. One wording of the
penalty catalogue (floor/wording.py), none in rules/.

A small in-test catalogue stands in for the .po files (which translators are still
filling): it knows a few msgids in French and leaves the rest English, as gettext does."""

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from decks import findings_text
from floor import services as floor
from floor import tardiness, wording
from floor.models import Penalty
from league import services as league_services
from league.event_log import EventLogEntry
from matches import services
from rules import penalties
from rules.i18n import gettext_noop, say
from tom.models import TomSave
from tom.services import common as tom_common
from tom.services import saves as tom_saves
from webhooks import sending
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

FRENCH = {
    "%(player)s dropped after round %(round)s.": "%(player)s a abandonné après la ronde %(round)s.",
    "Round %(round)s, table %(table)s: %(what)s": "Ronde %(round)s, table %(table)s : %(what)s",
    "Match loss for %(player)s (%(infraction)s).": "Défaite de match pour %(player)s (%(infraction)s).",
    "Match loss for %(player)s: %(note)s": "Défaite de match pour %(player)s : %(note)s",
    "Feature tables: %(tables)s.": "Tables vedettes : %(tables)s.",
    "this save is tournament %(save)s, the event mirrors %(event)s.": (
        "cette sauvegarde est le tournoi %(save)s, l'événement reflète %(event)s."
    ),
    "HTTP %(status)s (redirects are not followed)": "HTTP %(status)s (redirections non suivies)",
}
FRENCH_PLURALS = {
    ("%(count)s minute late", "%(count)s minutes late"): (
        "%(count)s minute de retard",
        "%(count)s minutes de retard",
    ),
    ("%(count)s more minute.", "%(count)s more minutes."): (
        "%(count)s minute de plus.",
        "%(count)s minutes de plus.",
    ),
    (
        "%(count)s failed attempt in a row; the last: %(error)s",
        "%(count)s failed attempts in a row; the last: %(error)s",
    ): (
        "%(count)s échec de suite ; le dernier : %(error)s",
        "%(count)s échecs de suite ; le dernier : %(error)s",
    ),
}


@pytest.fixture
def french(monkeypatch):
    """The catalogue above for "fr" (English in any other language), where the site words
    stored texts (`decks.findings_text`)."""

    def gettext(message):
        return FRENCH.get(message, message) if translation.get_language() == "fr" else message

    def ngettext(singular, plural, n):
        forms = (singular, plural)
        if translation.get_language() == "fr":
            forms = FRENCH_PLURALS.get(forms, forms)
        return forms[0] if n == 1 else forms[1]

    monkeypatch.setattr(findings_text, "gettext", gettext)
    monkeypatch.setattr(findings_text, "ngettext", ngettext)


def test_an_event_log_summary_is_worded_for_each_reader(client, make_event, staff, french):
    event, regs = make_event(players=4)
    services.pair_next_round(event=event, by_user=staff)
    league_services.drop(registration=regs[0], by_user=staff)
    entry = EventLogEntry.objects.get(event=event, kind=EventLogEntry.Kind.DROP)
    name = regs[0].player.name
    # The row keeps today's English and the template with its parameters.
    assert entry.summary == f"{name} dropped after round 1."
    assert entry.summary_text == {
        "msgid": "%(player)s dropped after round %(round)s.",
        "params": {"player": name, "round": 1},
    }
    with translation.override("fr"):
        assert entry.worded_summary == f"{name} a abandonné après la ronde 1."
    with translation.override("de"):  # a language the catalogue does not know: English
        assert entry.worded_summary == entry.summary
    client.force_login(staff)
    page = client.get(reverse("event-log", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert f"{name} a abandonné après la ronde 1." in page.content.decode()
    english = client.get(reverse("event-log", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert f"{name} dropped after round 1." in english.content.decode()


def test_a_row_written_before_keeps_its_english(make_event, french):
    event, _ = make_event()
    old = EventLogEntry.objects.create(event=event, kind="seating", summary="Feature tables: 3.")
    with translation.override("fr"):
        assert old.worded_summary == "Feature tables: 3."


def test_every_summary_written_by_the_services_keeps_a_template(make_event, staff):
    """League (seating), matches (pairing edits, undo), floor: each log row has a template
    that words back to its English."""
    event, _regs = make_event(players=4)
    league_services.set_feature_tables(event=event, by_user=staff, tables=[3, 1])
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round_, by_user=staff)
    match = round_.matches.filter(player_b__isnull=False).first()
    floor.extend_time(match=match, by_user=staff, minutes=1, reason="judge call")
    services.undo_round(round_=round_, by_user=staff, reason="paired by mistake")
    rows = list(EventLogEntry.objects.filter(event=event).order_by("pk"))
    assert len(rows) == 3
    for row in rows:
        assert row.summary_text, row.summary
        with translation.override("en"):
            assert row.worded_summary == row.summary
    assert rows[0].summary == "Feature tables: 1, 3."
    assert rows[1].summary.endswith(": 1 more minute.")  # the English of 1 is right now
    assert rows[2].summary.startswith("Round 1 undone (2 tables)")


def test_the_tardiness_note_and_the_match_loss_note_are_worded_at_display(running, staff, french):
    _, round_ = running(players=2)
    match = round_.matches.select_related("round", "player_a__player", "player_b__player").get()
    now = match.round.clock_started_at + dt.timedelta(minutes=12)
    penalty = tardiness.mark_late(match=match, side="b", by_user=staff, now=now)
    name = match.player_b.player.name
    penalty = Penalty.objects.get(pk=penalty.pk)
    assert penalty.note == "12 minutes late"  # today's English
    change = match.changes.get()
    assert change.note == f"Match loss for {name}: 12 minutes late"
    entry = EventLogEntry.objects.get(kind=EventLogEntry.Kind.PENALTY)
    assert entry.summary == f"Round 1, table {match.table}: Match loss for {name} (tardiness)."
    with translation.override("fr"):
        assert penalty.worded_note == "12 minutes de retard"
        assert change.worded_note == f"Défaite de match pour {name} : 12 minutes de retard"
        assert entry.worded_summary == (
            f"Ronde 1, table {match.table} : Défaite de match pour {name} (tardiness)."
        )


def test_a_judges_own_note_stays_as_typed(running, staff, french):
    _, round_ = running(players=2)
    match = round_.matches.get()
    floor.issue_penalty(
        match=match,
        side="a",
        by_user=staff,
        infraction="slow-play",
        penalty="match-loss",
        note="trop lent",
    )
    penalty = Penalty.objects.get()
    assert penalty.note_text is None
    with translation.override("fr"):
        assert penalty.worded_note == "trop lent"
        name = match.player_a.player.name
        assert match.changes.get().worded_note == f"Défaite de match pour {name} : trop lent"


def test_a_tom_refusal_kept_by_the_worker_is_worded_for_the_organiser(make_event, french):
    event, _ = make_event()
    exc = tom_common.contradicts(
        "tournament/data/id",
        say(
            gettext_noop("this save is tournament %(save)s, the event mirrors %(event)s."),
            save="1",
            event="2",
        ),
    )
    assert exc.message == "tournament/data/id: this save is tournament 1, the event mirrors 2."
    save = TomSave(event=event, sha256="0" * 64, outcome=tom_saves._refusal(exc))
    with translation.override("fr"):
        assert save.worded_detail == (
            "tournament/data/id: cette sauvegarde est le tournoi 1, l'événement reflète 2."
        )
    old = TomSave(event=event, sha256="0" * 64, outcome={"code": "x", "detail": "As stored."})
    assert old.worded_detail == "As stored."


def test_a_webhook_error_and_its_pause_reason_are_worded_for_the_organiser(
    league, settings, french
):
    settings.WEBHOOK_PAUSE_AFTER_FAILURES = 1
    endpoint = WebhookEndpoint.objects.create(league=league, url="https://example.org/hook")
    error = say(gettext_noop("HTTP %(status)s (redirects are not followed)"), status=301)
    assert sending.count_failure(endpoint, error)
    endpoint.refresh_from_db()
    assert endpoint.paused_reason == (
        "1 failed attempt in a row; the last: HTTP 301 (redirects are not followed)"
    )
    with translation.override("fr"):
        assert endpoint.worded_pause == (
            "1 échec de suite ; le dernier : HTTP 301 (redirections non suivies)"
        )


def test_the_penalty_catalogue_is_worded_once_in_floor_wording():
    """rules/penalties.py keeps codes and English labels with no translation marker; each
    code has its one translatable label in floor/wording.py (its pgettext context kept)."""
    source = (ROOT / "rules" / "penalties.py").read_text()
    calls = {
        node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
    }
    assert not calls & {"gettext_noop", "ngettext", "_"}
    assert set(wording._PENALTY_LABELS) == set(penalties.PENALTY_LABELS)
    assert set(wording._INFRACTION_LABELS) == set(penalties.INFRACTION_LABELS)
    assert set(wording._PENALTY_FOR) == set(penalties.PENALTY_LABELS)
    with translation.override("en"):
        for code, english in penalties.PENALTIES:
            assert wording.penalty_label(code) == english
        assert wording.penalty_label("prize", 2) == penalties.penalty_label("prize", 2)
