"""The overlay's feed is the same for everyone and served whole from the page cache
(`matches.public_pages`, one body per table): a change of the feature match or of a
league's archetype rules (which name the lists on every event's overlay) bumps the events'
page version, as `matches.signals` does for rounds and results."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from league.models import Event
from matches import page_cache, public_pages

from .models import ArchetypeRules, FeatureMatch


def _feature_changed(sender, instance, **kwargs) -> None:
    if not kwargs.get("raw"):
        page_cache.bump_on_commit(instance.event_id)


def _rules_changed(sender, instance, **kwargs) -> None:
    if kwargs.get("raw"):
        return
    events = Event.objects.filter(season__league_id=instance.league_id)
    for event_id in events.values_list("pk", flat=True):
        page_cache.bump_on_commit(event_id)


def connect() -> None:
    for signal in (post_save, post_delete):
        signal.connect(_feature_changed, sender=FeatureMatch, dispatch_uid=f"overlay-{signal}")
        signal.connect(_rules_changed, sender=ArchetypeRules, dispatch_uid=f"rules-{signal}")
    public_pages.register(
        "api:api-event-overlay",
        public_pages.Page(params={"table": public_pages.number}, json=True),
    )
