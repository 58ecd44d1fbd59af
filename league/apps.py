from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues and events"

    def import_models(self) -> None:
        super().import_models()
        # The event log's model has a module of its own (league/models.py is full).
        from . import event_log  # noqa: F401, PLC0415 (models load when Django says so)

    def ready(self) -> None:
        from . import editions  # noqa: F401, PLC0415 (signal receivers connect in ready(): drops the cached editions when a row changes)
