"""Issue 33's e-mail test: a player whose profile says German gets the pairings e-mail in
German, with the date and time in the event's time zone.

The German words are read from the de catalogue (gettext under `override("de")`), so the
test follows the translators' wording; it fails while those entries are untranslated."""

import datetime as dt
from unittest import mock

import pytest
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from league.models import Player
from matches import services
from notifications.delivery import build_email
from notifications.models import Notification

pytestmark = pytest.mark.django_db

PUBLISHED = dt.datetime(2026, 3, 14, 13, 5, tzinfo=dt.UTC)  # 10:05 in São Paulo (UTC-3)


def german(msgid: str, **params) -> str:
    """The de catalogue's words for `msgid`; fails if the entry is not translated."""
    with translation.override("de"):
        words = gettext(msgid)
    assert words != msgid, f"untranslated in de: {msgid!r}"
    return words % params if params else words


def test_a_german_player_gets_the_pairings_email_in_german_in_the_events_time_zone(
    make_event, staff
):
    event, regs = make_event(players=2, language="en", time_zone="America/Sao_Paulo")
    hans, other = regs
    Player.objects.filter(pk=hans.player_id).update(language="de")
    with mock.patch("django.utils.timezone.now", return_value=PUBLISHED):
        round_ = services.pair_next_round(event=event, by_user=staff)
        services.publish_round(round_=round_, by_user=staff)
    round_.refresh_from_db()
    assert round_.published_at == PUBLISHED
    match = round_.matches.get()
    notice = Notification.objects.get(kind="pairings_published", recipient=hans.player.user)
    message = build_email(notice, hans.player.user.email)
    text, html = message.body, message.alternatives[0][0]

    params = {"number": 1, "event": event.name, "table": match.table}
    assert message.subject == german("%(event)s: round %(number)s pairings", **params)
    assert (
        german(
            "Round %(number)s of %(event)s: table %(table)s against %(opponent)s",
            **params,
            opponent=other.player.name,
        )
        in text
    )
    assert german("Check in at your table before the round clock starts.") in text
    assert german("Hello %(name)s,", name=hans.player.name) in text
    assert '<html lang="de">' in html

    # The date and time: German, in the event's zone (10:05 there, 13:05 UTC).
    local = timezone.localtime(PUBLISHED, timezone=dt.timezone(dt.timedelta(hours=-3)))
    with translation.override("de"):
        day = formats.date_format(local, "DATE_FORMAT")
        time = formats.time_format(local, "TIME_FORMAT")
    assert (day, time) == ("14. März 2026", "10:05")
    assert german("Pairings published on %(date)s at %(time)s.", date=day, time=time) in text
    assert "13:05" not in text

    # The other player, with no language of their own, reads the event's (English).
    theirs = Notification.objects.get(kind="pairings_published", recipient=other.player.user)
    assert theirs.body.startswith("Pairings published on March 14, 2026 at 10:05 a.m.")
