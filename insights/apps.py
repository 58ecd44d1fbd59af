from django.apps import AppConfig


class InsightsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "insights"
    verbose_name = "Stream overlay, metagame and QR codes"

    def ready(self) -> None:
        # The overlay's feed is the same for everyone: served whole from the cache
        # (`matches.public_pages`), per table.
        from matches import public_pages

        public_pages.register(
            "api:api-event-overlay",
            public_pages.Page(params={"table": public_pages.number}, json=True),
        )
