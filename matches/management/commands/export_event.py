import json

from django.core.management.base import BaseCommand, CommandError

from league.models import Event
from matches.export import export_event


class Command(BaseCommand):
    help = "Write a whole event as JSON (players, rounds, matches, games, drops, standings)."

    def add_arguments(self, parser):
        parser.add_argument("event", type=int, help="The event's id")
        parser.add_argument("--indent", type=int, default=None)

    def handle(self, *args, event, indent, **options):
        obj = Event.objects.select_related("format").filter(pk=event).first()
        if obj is None:
            raise CommandError(f"No event with id {event}.")
        self.stdout.write(
            json.dumps(export_event(obj), indent=indent, ensure_ascii=False, default=str)
        )
