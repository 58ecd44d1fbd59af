from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues and events"

    def ready(self) -> None:
        from . import editions  # noqa: F401  (drops the cached editions when a row changes)
