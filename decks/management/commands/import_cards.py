import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from decks.importer import CardDataError, import_card_data


class Command(BaseCommand):
    help = (
        "Load card data in the pokemon-tcg-data layout (PATH/sets/en.json, "
        "PATH/cards/en/<set>.json, PATH/decks/en/<set>.json). Idempotent."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", default=settings.CARD_DATA_PATH)

    def handle(self, *args, path, **options):
        started = time.perf_counter()
        show_bar = sys.stderr.isatty() and options["verbosity"] > 0

        def progress(items):
            return tqdm(items, desc="Reading sets", unit="set", disable=not show_bar)

        try:
            summary = import_card_data(Path(path), progress)
        except CardDataError as exc:
            raise CommandError(exc.message) from None
        elapsed = time.perf_counter() - started
        self.stdout.write(f"Imported {path}: {summary} in {elapsed:.1f} s")
