from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor tools: judge calls, time extensions, penalties, deck checks"

    def ready(self) -> None:
        from . import signals  # noqa: PLC0415 (they connect once the models are loaded)

        signals.connect()
