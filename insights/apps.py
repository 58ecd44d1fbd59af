from django.apps import AppConfig


class InsightsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "insights"
    verbose_name = "Stream overlay, metagame and QR codes"

    def ready(self) -> None:
        # The overlay's feed is the same for everyone: served whole from the cache
        # (`matches.public_pages`), per table.
        from django.db.models.signals import post_delete, post_save

        from matches import page_cache, public_pages

        from .models import ArchetypeRules, FeatureMatch

        def feature_changed(sender, instance, **kwargs):
            if not kwargs.get("raw"):
                page_cache.bump_on_commit(instance.event_id)

        def rules_changed(sender, instance, **kwargs):
            # A league's archetype rules name the lists on every event's overlay.
            from league.models import Event

            if not kwargs.get("raw"):
                for event_id in Event.objects.filter(
                    season__league_id=instance.league_id
                ).values_list("pk", flat=True):
                    page_cache.bump_on_commit(event_id)

        for signal in (post_save, post_delete):
            signal.connect(feature_changed, sender=FeatureMatch, dispatch_uid=f"overlay-{signal}")
            signal.connect(rules_changed, sender=ArchetypeRules, dispatch_uid=f"rules-{signal}")
        public_pages.register(
            "api:api-event-overlay",
            public_pages.Page(params={"table": public_pages.number}, json=True),
        )
