"""manage.py venue_push EVENT --url URL --token TOKEN [--spool DIR] [--every S] [--once]"""

import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from league.models import Event
from tom import services
from tom.venue import Pusher, Spool, TokenRefused


class Command(BaseCommand):
    help = (
        "Push this site's event to the league's site as TOM saves whenever it changes, in "
        "order, through a durable local queue (tom/venue.py; docs/venue.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", type=int, help="the event on this laptop")
        parser.add_argument(
            "--url",
            default=os.environ.get("VENUE_PUSH_URL", ""),
            help="the league site's endpoint, from the event's TOM page there "
            "(…/api/tom/events/<id>/saves/); default $VENUE_PUSH_URL",
        )
        parser.add_argument(
            "--token",
            default=os.environ.get("VENUE_PUSH_TOKEN", ""),
            help="the event's upload token on the league site; default $VENUE_PUSH_TOKEN",
        )
        parser.add_argument(
            "--spool",
            default=str(Path(settings.VAR_DIR) / "venue-push"),
            help="the queue's folder (default var/venue-push)",
        )
        parser.add_argument("--every", type=float, default=3.0, help="seconds between checks")
        parser.add_argument("--once", action="store_true", help="queue, send, stop when sent")

    def handle(self, *args, **options):
        if not options["url"] or not options["token"]:
            raise CommandError("Give --url and --token (or VENUE_PUSH_URL, VENUE_PUSH_TOKEN).")
        event = Event.objects.filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(f"No event {options['event']}.")

        def log(line: str) -> None:
            self.stdout.write(line)
            self.stdout.flush()

        pusher = Pusher(
            spool=Spool(Path(options["spool"]), event.pk),
            url=options["url"],
            token=options["token"],
            export=lambda: _export(event),
            log=log,
        )
        log(f"pushing {event} to {options['url']} (queue: {pusher.spool.dir})")
        try:
            pusher.run(every=options["every"], once=options["once"])
        except TokenRefused as exc:
            raise CommandError(f"The league site refused the token: {exc}") from exc


def _export(event: Event) -> bytes:
    """The event's save as it is now (a connection the database dropped is reopened)."""
    close_old_connections()
    return services.export_text(event=event).encode("utf-8")
