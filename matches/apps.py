from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Rounds, matches and standings"

    def ready(self) -> None:
        from . import public_pages, signals

        signals.connect()
        public_pages.register_matches_pages()
