"""manage.py export_tdf ID [-o PATH]"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from league.models import Event
from tom import services


class Command(BaseCommand):
    help = "Write an event as a TOM save (.tdf): to -o PATH, or to standard output."

    def add_arguments(self, parser):
        parser.add_argument("event", type=int)
        parser.add_argument("-o", "--output", help="File to write (default: standard output)")

    def handle(self, *args, **options):
        event = Event.objects.select_related("season__league").filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(f"No event {options['event']}.")
        text = services.export_text(event=event)
        if options["output"]:
            Path(options["output"]).write_bytes(text.encode("utf-8"))
            self.stderr.write(f"Wrote {options['output']}")
        else:
            self.stdout.write(text, ending="")
