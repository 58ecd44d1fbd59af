from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues and events"

    def import_models(self) -> None:
        super().import_models()
        # The event log's model has a module of its own (league/models.py is full).
        from . import event_log  # noqa: F401, PLC0415 (models load when Django says so)

    def ready(self) -> None:
        # Signal receivers connect in ready(): `editions` drops the cached editions when a
        # row changes, `user_cache` a cached user, `permissions` bumps the staff version,
        # `tokens` drops a cached API token.
        from . import editions, permissions, user_cache  # noqa: F401, PLC0415 (see above)
        from .services import tokens  # noqa: PLC0415 (see above)

        user_cache.connect()
        permissions.connect()
        tokens.connect()
