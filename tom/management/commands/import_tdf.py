"""manage.py import_tdf PATH [--event ID | --season ID | --league SLUG] [--user NAME]"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from league.models import Event, League, Season
from rules.errors import DomainError
from tom import services
from tom.models import TomUpload


class Command(BaseCommand):
    help = (
        "Import a TOM save (.tdf) as a new event, or update an event from a later save of the "
        "same tournament (--event). Prints the event id last."
    )

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--event", type=int, help="Update this event from a later save")
        parser.add_argument("--season", type=int, help="Season id for a new event")
        parser.add_argument(
            "--league", help="League slug for a new event (its season covering the date)"
        )
        parser.add_argument(
            "--user", help="The organiser doing it (default: the league's first organiser)"
        )
        parser.add_argument("--format", default="standard", help="Format key of a new event")

    def handle(self, *args, **options):
        path = Path(options["path"])
        if not path.is_file():
            raise CommandError(f"No such file: {path}")
        try:
            event = season = league = None
            if options["event"]:
                event = (
                    Event.objects.select_related("season__league")
                    .filter(pk=options["event"])
                    .first()
                )
                if event is None:
                    raise CommandError(f"No event {options['event']}.")
                league = event.season.league
            elif options["season"]:
                season = (
                    Season.objects.select_related("league").filter(pk=options["season"]).first()
                )
                if season is None:
                    raise CommandError(f"No season {options['season']}.")
                league = season.league
            elif options["league"]:
                league = League.objects.filter(slug=options["league"]).first()
                if league is None:
                    raise CommandError(f"No league {options['league']!r}.")
            user = services.organiser_user(options["user"])
            if user is None:
                if league is None:
                    raise CommandError(
                        "Say which league (--league, --season or --event) or who (--user)."
                    )
                user = league.organisers.order_by("pk").first()
                if user is None:
                    raise CommandError(f"{league} has no organiser: pass --user.")
            data = path.read_bytes()
            if event is None and season is None and league is not None:
                save = services.read_save(data)
                from tom import tdf

                season = services.default_season(
                    by_user=user, league=league, on=tdf.parse_date(save.data.startdate)
                )
            result = services.import_save(
                data=data,
                by_user=user,
                event=event,
                season=season,
                filename=path.name,
                source=TomUpload.Source.COMMAND,
                format_key=options["format"],
            )
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        verb = (
            "created"
            if result.created
            else ("unchanged (this save was imported before)" if result.duplicate else "updated")
        )
        changes = ", ".join(
            f"{k.replace('_', ' ')} {v}" for k, v in sorted(result.summary.items()) if v
        )
        self.stdout.write(f"{result.event.name}: {verb}" + (f" ({changes})" if changes else ""))
        tom = getattr(result.event, "tom", None)
        if tom is not None and tom.standings_compared:
            agree = sum(1 for c in tom.standings_compared.values() if c["agree"])
            self.stdout.write(
                f"Standings: ours agree with TOM's in {agree} of {len(tom.standings_compared)} division(s)"
                + (
                    f"; {len(tom.standings_differences)} player(s) placed differently"
                    if tom.standings_differences
                    else ""
                )
            )
        self.stdout.write(str(result.event.pk))
