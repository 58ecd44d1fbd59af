from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Rounds, matches and standings"

    def ready(self) -> None:
        from . import signals

        signals.connect()
