"""Importing a TOM save: a new event from a save, or an event brought up to date by a later
save of the same tournament (`import_save`). The save is played through the league and
matches services by `replay.Replay`; the standings are then compared with TOM's
(`comparison`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.findings_text import word
from decks.models import Format
from decks.services import ensure_default_formats
from league import permissions
from league import services as league_services
from league.models import Event, League, Season
from matches.models import Round
from rules import i18n as words
from rules.errors import DomainError
from rules.i18n import gettext_noop, say

from .. import tdf
from ..models import TomEvent, TomUpload
from .common import SaveDiffers, contradicts, pairing_words, read_save, to_json, with_text
from .comparison import compare_standings
from .replay import Replay

# --- import -------------------------------------------------------------------------------


@dataclass
class ImportResult:
    event: Event
    created: bool = False
    duplicate: bool = False
    summary: dict = field(default_factory=dict)


def default_season(*, by_user, league: League | None = None, on: date | None = None) -> Season:
    """The season an imported event goes to: the league's season covering the event's date,
    else its latest; without a league, the first league the user organises. Raises
    `no-season`."""
    if league is None:
        leagues = (
            League.objects.all()
            if by_user and by_user.is_superuser
            else League.objects.filter(organisers=by_user)
        )
        league = leagues.order_by("pk").first()
        if league is None:
            raise DomainError("no-season", _("You organise no league: choose one (--league)."))
    seasons = Season.objects.filter(league=league)
    if on is not None:
        covering = seasons.filter(starts_on__lte=on, ends_on__gte=on).order_by("-starts_on").first()
        if covering:
            return covering
    season = seasons.order_by("-starts_on").first()
    if season is None:
        raise DomainError(
            "no-season", _("%(league)s has no season: create one first.") % {"league": league}
        )
    return season


def import_save(
    *,
    data: bytes,
    by_user,
    event: Event | None = None,
    season: Season | None = None,
    filename: str = "",
    source: str = TomUpload.Source.COMMAND,
    format_key: str = "standard",
) -> ImportResult:
    """Create an event from a TOM save (`event` None, in `season`), or bring `event` up to
    date with a later save of the same tournament. The same file imported into the same
    event twice is applied once (`duplicate`).

    Writes, through the league and matches services: players (new ones by their Play!
    Pokémon id), registrations, rounds, matches, results and their history, drops, the
    event's status, final placements; here: `TomEvent` (the save, the standings
    comparison) and one `TomUpload`. Queues what those services queue (notifications,
    standings, league points). Raises `tdf-invalid`, `tdf-contradicts`, `not-allowed`,
    `no-season`.
    """
    t = read_save(data)
    sha = tdf.content_hash(data)
    with transaction.atomic():
        created = event is None
        if created:
            season = season or default_season(by_user=by_user, on=tdf.parse_date(t.data.startdate))
            event = _create_event(t, season=season, by_user=by_user, format_key=format_key)
            tom = TomEvent.objects.create(event=event, sanction_id=t.data.id, save_data={})
        else:
            event = (
                Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
            )
            if not permissions.can(by_user, event, "manage-event"):
                text = say(gettext_noop("Only the event's organisers can import a TOM save."))
                raise with_text(DomainError("not-allowed", word(text), status=403), text)
            if TomUpload.objects.filter(event=event, sha256=sha).exists():
                return ImportResult(event=event, duplicate=True, summary={"duplicate": True})
            tom = TomEvent.objects.filter(event=event).first()
            if (tom is None or not tom.save_data) and Round.objects.filter(event=event).exists():
                paired = Round.objects.filter(event=event).count()
                raise SaveDiffers(
                    say(
                        words.ngettext(
                            "%(event)s already has %(count)s round paired here, on the site, and "
                            "none from TOM; this save has TOM's own pairings (%(pairing)s). A save "
                            "can only be applied to an event TOM pairs from round 1: import it as a "
                            "new event, or keep pairing this event here.",
                            "%(event)s already has %(count)s rounds paired here, on the site, and "
                            "none from TOM; this save has TOM's own pairings (%(pairing)s). A save "
                            "can only be applied to an event TOM pairs from round 1: import it as a "
                            "new event, or keep pairing this event here.",
                            paired,
                        ),
                        event=event.name,
                        count=paired,
                        pairing=pairing_words(t),
                    ),
                    fix="new-event",
                )
            if tom is None:
                tom = TomEvent.objects.create(event=event, sanction_id=t.data.id, save_data={})
            elif not tom.sanction_id:
                tom.sanction_id = t.data.id  # made for its upload token, before any save
            elif tom.sanction_id != t.data.id:
                raise contradicts(
                    "tournament/data/id",
                    say(
                        gettext_noop(
                            "this save is tournament %(save)s, the event mirrors %(event)s."
                        ),
                        save=t.data.id,
                        event=tom.sanction_id,
                    ),
                )
        summary = Replay(event, tom, t, by_user).run()
        event.refresh_from_db()  # its status, structure and pods as the save left them
        compare_standings(event=event, tom=tom, t=t)
        tom.save_data = to_json(t)
        tom.save()
        TomUpload.objects.create(
            event=event,
            sha256=sha,
            filename=filename.replace("\x00", "")[:200],
            size=len(data),
            source=source,
            uploaded_by=by_user if by_user and by_user.is_authenticated else None,
            summary=summary,
        )
    event.refresh_from_db()
    return ImportResult(event=event, created=created, summary=summary)


def _create_event(t: tdf.Tournament, *, season: Season, by_user, format_key: str) -> Event:
    ensure_default_formats()
    fmt = Format.objects.filter(key=format_key).first()
    if fmt is None:
        raise DomainError("unknown-format", _("No format %(key)r.") % {"key": format_key})
    starts = timezone.make_aware(datetime.combine(tdf.parse_date(t.data.startdate), time(10, 0)))
    return league_services.create_event(
        season=season,
        by_user=by_user,
        name=t.data.name or f"TOM {t.data.id}",
        format=fmt,
        starts_at=starts,
        round_minutes=max(1, t.data.roundtime),
        division_mode=Event.DivisionMode.SEPARATE
        if len(t.pods) > 1
        else Event.DivisionMode.COMBINED,
    )
