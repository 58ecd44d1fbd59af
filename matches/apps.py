from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Rounds, matches and standings"

    def ready(self) -> None:
        from . import signals  # noqa: PLC0415 (signal receivers connect in ready(), once the models are loaded)

        signals.connect()
