"""The match page shows the table's judge calls and its penalties (`floor/_match_floor.html`),
and `matches.own_pages` keeps a viewer's match page per version of the event: a call or a
penalty saved or deleted bumps the event's page version (`matches.page_cache`), as
`matches.signals` does for results. A call taken (one conditional UPDATE, no signal) is
bumped by `services.take_call`; a time extension saves its match, which bumps."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from matches import page_cache

from .models import JudgeCall, Penalty


def _changed(sender, instance, **kwargs) -> None:
    if not kwargs.get("raw"):
        page_cache.bump_on_commit(instance.event_id)


def connect() -> None:
    for model in (JudgeCall, Penalty):
        for signal in (post_save, post_delete):
            signal.connect(_changed, sender=model, dispatch_uid=f"floor-pages-{model.__name__}")
