"""The notifications a round or a result sends. Each builds its items and calls
`notifications.services.notify` once; keys make every call safe to repeat."""

from __future__ import annotations

from types import SimpleNamespace

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from decks.findings_text import word
from league.models import Event, Registration
from league.notify import notify_staff
from league.public_record import public_name
from league.wording import full_stop
from notifications.language import for_each_recipient, in_recipients_language
from notifications.services import NotificationItem, notify
from rules.i18n import Text

from .models import Match, Round
from .presenters import match_result_text


def pairings_key_prefix(round_: Round) -> str:
    """The start of every key of a round's pairings e-mails (one per player)."""
    return f"pairings:round:{round_.pk}:"


def standings_key_prefix(event_id: int, round_number: int) -> str:
    """The start of every key of the "standings are up" e-mails of one round."""
    return f"standings:event:{event_id}:round:{round_number}:"


def round_mail_key_prefixes(round_: Round) -> list[str]:
    """Keys of a round's e-mails to players: its pairings and its standings."""
    return [pairings_key_prefix(round_), standings_key_prefix(round_.event_id, round_.number)]


def _name(reg) -> str:
    """A player as another player reads them (a minor's first name and initial)."""
    return public_name(reg.player) if reg else pgettext("no opponent", "BYE")


def _full_name(reg) -> str:
    """A player as the staff read them."""
    return reg.player.name if reg else pgettext("no opponent", "BYE")


def pairings_published(round_: Round) -> int:
    """One notification per player with an account: opponent and table."""
    matches = round_.matches.select_related("player_a__player", "player_b__player")
    event = round_.event
    url = reverse("round-pairings", args=[event.pk, round_.number])
    items = []
    for m in matches:
        for me, other in ((m.player_a, m.player_b), (m.player_b, m.player_a)):
            if me is None or me.player.user_id is None:
                continue
            params = {"number": round_.number, "event": event.name, "table": m.table}
            with in_recipients_language(me.player, event):
                if other is None:
                    body = (
                        _("You have a bye in round %(number)s of %(event)s: it counts as a win.")
                        % params
                    )
                else:
                    body = full_stop(
                        _("Round %(number)s of %(event)s: table %(table)s against %(opponent)s")
                        % {**params, "opponent": _name(other)}
                    )
                body = f"{_published(round_)} {body}"
                subject = (_("%(event)s: round %(number)s pairings") % params)[:200]
            items.append(
                NotificationItem(
                    recipient_id=me.player.user_id,
                    key=f"{pairings_key_prefix(round_)}reg:{me.pk}",
                    subject=subject,
                    body=body,
                    url=url,
                )
            )
    return notify(kind="pairings_published", items=items)


def _published(round_: Round) -> str:
    """When the pairings went up, in the reader's words and the event's time zone (inside
    `in_recipients_language`)."""
    at = timezone.localtime(round_.published_at or timezone.now())
    return _("Pairings published on %(date)s at %(time)s.") % {
        "date": date_format(at, "DATE_FORMAT"),
        "time": time_format(at, "TIME_FORMAT"),
    }


def result_reported(match: Match, *, reported_by_side: str, report_id: int) -> int:
    """Ask the opponent to confirm; one notice per report (`report_id`), so a retried
    request never tells them twice."""
    item = result_reported_item(match, reported_by_side=reported_by_side, report_id=report_id)
    return notify(kind="result_reported", items=[item]) if item else 0


def result_reported_item(
    match: Match, *, reported_by_side: str, report_id: int
) -> NotificationItem | None:
    """The opponent's "confirm your result" notice (None: no account to tell), for
    `result_reported` or a batch of them (`services.after_reports`)."""
    other = match.player_b if reported_by_side == "a" else match.player_a
    if other is None or other.player.user_id is None:
        return None
    reporter = match.player_a if reported_by_side == "a" else match.player_b
    event = match.round.event
    with in_recipients_language(other.player, event):
        return NotificationItem(
            recipient_id=other.player.user_id,
            key=f"reported:match:{match.pk}:report:{report_id}",
            subject=(
                _("%(event)s: confirm your round %(number)s result")
                % {"event": event.name, "number": match.round.number}
            )[:200],
            body=_(
                "%(player)s reported your match at table %(table)s. Confirm it, or report "
                "what you saw: a different report goes to the staff."
            )
            % {"player": _name(reporter), "table": match.table},
            url=reverse("match-detail", args=[match.pk]),
        )


def result_disputed(match: Match, *, report_id: int) -> int:
    """The staff who enter results (each in their own language)."""
    event = match.round.event

    def words() -> tuple[str, str]:
        subject = _("%(event)s: disputed result at table %(table)s") % {
            "event": event.name,
            "table": match.table,
        }
        body = _(
            "%(a)s and %(b)s reported different results in round %(number)s. "
            "Please decide the result."
        ) % {
            "a": _full_name(match.player_a),
            "b": _full_name(match.player_b),
            "number": match.round.number,
        }
        return subject, body

    return notify_staff(
        event,
        "enter-results",
        kind="result_reported",
        key=f"disputed:match:{match.pk}:report:{report_id}",
        words=words,
        url=reverse("match-detail", args=[match.pk]),
    )


def _players(match: Match) -> list:
    return [
        reg
        for reg in (match.player_a, match.player_b)
        if reg is not None and reg.player.user_id is not None
    ]


def dispute_resolved(match: Match) -> int:
    change_count = match.changes.count()
    items = for_each_recipient(
        _players(match),
        match.round.event,
        lambda reg: NotificationItem(
            recipient_id=reg.player.user_id,
            key=f"resolved:match:{match.pk}:change:{change_count}:reg:{reg.pk}",
            subject=(
                _("%(event)s: your round %(number)s result was decided")
                % {"event": match.round.event.name, "number": match.round.number}
            )[:200],
            body=full_stop(
                _("The staff decided the result of your match at table %(table)s: %(result)s")
                % {"table": match.table, "result": match_result_text(match)}
            ),
            url=reverse("match-detail", args=[match.pk]),
        ),
    )
    return notify(kind="dispute_resolved", items=items)


def _why(why: Text | str) -> str:
    """A result change's note (a penalty's, a `Text`) in the active language, as a sentence."""
    text = word(why) if isinstance(why, Text) else why
    return f" {text.rstrip('.: ')}." if text else ""


def result_changed(match: Match, *, why: Text | str = "") -> int:
    """Both players: the staff changed a result that stood, or a penalty changed it (`why`
    says which penalty, for whom). Keyed by the match's change count, so a retry sends
    nothing twice."""
    change_count = match.changes.count()
    event = match.round.event
    items = for_each_recipient(
        _players(match),
        event,
        lambda reg: NotificationItem(
            recipient_id=reg.player.user_id,
            key=f"changed:match:{match.pk}:change:{change_count}:reg:{reg.pk}",
            subject=(
                _("%(event)s: your round %(number)s result changed")
                % {"event": event.name, "number": match.round.number}
            )[:200],
            body=full_stop(
                _("The result of your match at table %(table)s is now %(result)s")
                % {"table": match.table, "result": match_result_text(match)}
            )
            + _why(why),
            url=reverse("match-detail", args=[match.pk]),
        ),
    )
    return notify(kind="result_changed", items=items)


def standings_published(event: Event, round_number: int) -> int:
    recipients = (
        Registration.objects.filter(event=event, player__user__isnull=False)
        .exclude(status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED))
        .values_list("player__user_id", "player__language")
    )
    url = reverse("event-standings", args=[event.pk])
    params = {"event": event.name, "number": round_number}
    items = []
    for user_id, language in recipients:
        with in_recipients_language(SimpleNamespace(language=language), event):
            items.append(
                NotificationItem(
                    recipient_id=user_id,
                    key=f"{standings_key_prefix(event.pk, round_number)}user:{user_id}",
                    subject=(_("%(event)s: standings after round %(number)s") % params)[:200],
                    body=_("The standings after round %(number)s of %(event)s are up.") % params,
                    url=url,
                )
            )
    return notify(kind="standings_published", items=items)


def round_clock(round_: Round, *, stage: str, missing: int) -> int:
    """Tell the event's staff that a round has 10 minutes left (`stage="10min"`) or that
    time is up (`stage="time"`)."""
    event = round_.event
    params = {"event": event.name, "number": round_.number, "missing": missing}
    return notify_staff(
        event,
        "enter-results",
        kind="round_clock",
        key=f"clock:round:{round_.pk}:{stage}",
        words=lambda: _clock_words(round_, stage, params),
        url=reverse("event-dashboard", args=[event.pk]),
    )


def _clock_words(round_: Round, stage: str, params: dict) -> tuple[str, str]:
    missing = params["missing"]
    if stage == "10min":
        subject = _("%(event)s: 10 minutes left in round %(number)s") % params
        body = ngettext(
            "Round %(number)s ends at %(time)s. %(missing)s result(s) still missing.",
            "Round %(number)s ends at %(time)s. %(missing)s result(s) still missing.",
            missing,
        ) % {**params, "time": time_format(timezone.localtime(round_.ends_at), "H:i")}
    else:
        subject = _("%(event)s: time in round %(number)s") % params
        body = (
            ngettext(
                "Time has been called in round %(number)s. %(missing)s result(s) still missing.",
                "Time has been called in round %(number)s. %(missing)s result(s) still missing.",
                missing,
            )
            % params
        )
    return subject, body


def _seating_body(round_: Round, m: Match, me) -> str:
    other = m.player_b if me.pk == m.player_a_id else m.player_a
    if other is None:
        return _("You now have a bye in round %(number)s: it counts as a win.") % {
            "number": round_.number
        }
    return _("Round %(number)s: you now play at table %(table)s against %(opponent)s.") % {
        "number": round_.number,
        "table": m.table,
        "opponent": _name(other),
    }


def table_changed(
    round_: Round, matches: list[Match], *, registration_ids: set[int], key: str
) -> int:
    """Tell the players of `registration_ids` (seated in `matches` after a staff edit of a
    published round) their new table and opponent. `key` names the edit (its log row)."""
    event = round_.event
    url = reverse("round-pairings", args=[event.pk, round_.number])
    seated = [
        (m, me)
        for m in matches
        for me in (m.player_a, m.player_b)
        if me is not None and me.pk in registration_ids and me.player.user_id is not None
    ]
    items = []
    for m, me in seated:
        with in_recipients_language(me.player, event):
            items.append(_seating_item(round_, m, me, key=key, url=url))
    return notify(kind="pairings_published", items=items)


def _seating_item(round_: Round, m: Match, me, *, key: str, url: str) -> NotificationItem:
    event = round_.event
    return NotificationItem(
        recipient_id=me.player.user_id,
        key=f"seating:{key}:reg:{me.pk}",
        subject=(
            _("%(event)s: your round %(number)s table changed")
            % {"event": event.name, "number": round_.number}
        )[:200],
        body=_seating_body(round_, m, me),
        url=url,
    )


def round_cancelled(round_: Round, matches: list[Match]) -> int:
    """Tell every player of a published round that was undone that it is cancelled and
    new pairings follow."""
    event = round_.event
    players = [
        me
        for m in matches
        for me in (m.player_a, m.player_b)
        if me is not None and me.player.user_id is not None
    ]
    items = for_each_recipient(
        players,
        event,
        lambda me: NotificationItem(
            recipient_id=me.player.user_id,
            key=f"cancelled:round:{round_.pk}:reg:{me.pk}",
            subject=(
                _("%(event)s: round %(number)s pairings cancelled")
                % {"event": event.name, "number": round_.number}
            )[:200],
            body=_(
                "The pairings of round %(number)s of %(event)s were cancelled by the staff. "
                "Stay near the pairings board: new pairings follow."
            )
            % {"event": event.name, "number": round_.number},
            url=reverse("event-detail", args=[event.pk]),
        ),
    )
    return notify(kind="pairings_published", items=items)
