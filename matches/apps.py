from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Rounds, matches and standings"

    def ready(self) -> None:
        from . import own_pages, public_pages, signals  # noqa: PLC0415 (they connect and register once the models are loaded)

        signals.connect()
        public_pages.register_matches_pages()
        own_pages.register_matches_pages()
