from django.apps import AppConfig


class InsightsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "insights"
    verbose_name = "Stream overlay, metagame and QR codes"

    def ready(self) -> None:
        from matches.export import register_player_facts  # noqa: PLC0415 (once the models are loaded)

        from . import export, signals  # noqa: PLC0415 (receivers connect once the models are loaded)

        signals.connect()
        register_player_facts(export.archetype_facts)
