from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues and events"

    def import_models(self) -> None:
        super().import_models()
        # The event log's model has a module of its own (league/models.py is full).
        from . import event_log  # noqa: F401

    def ready(self) -> None:
        from . import editions  # noqa: F401  (drops the cached editions when a row changes)
