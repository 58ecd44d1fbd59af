from django.apps import AppConfig


class InsightsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "insights"
    verbose_name = "Stream overlay, metagame and QR codes"

    def ready(self) -> None:
        from . import signals  # noqa: PLC0415 (receivers connect once the models are loaded)

        signals.connect()
