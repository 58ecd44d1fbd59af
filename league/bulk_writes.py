"""Bulk writes that announce themselves.

`save()` and `delete()` send Django's `post_save` / `post_delete`, which keep the public
round pages' cache fresh (`matches.signals`). A queryset's `update()`, `bulk_create()` and
`bulk_update()` send nothing, so one of them on a row the pages show would leave the pages
stale without a word. `AnnouncedQuerySet` closes that gap for the models the pages show:
each of its bulk writes sends `league.signals.rows_written(sender=Model, event_ids=...)`
with the events whose rows it wrote, and the page cache listens to it.

A model opts in with `objects = AnnouncedQuerySet.as_manager()` (or a queryset class that
extends it) and `PAGE_EVENT_PATH`, the lookup from one of its rows to the id of the event
whose pages show it (`"pk"` for an event, `"event_id"`, `"round__event_id"`). The events are
read in one query before an update (its filter may no longer match afterwards), and only
when something listens.
"""

from __future__ import annotations

from django.db import models

from .signals import rows_written


class AnnouncedQuerySet(models.QuerySet):
    def _event_ids(self) -> set[int]:
        path = self.model.PAGE_EVENT_PATH
        return {pk for pk in self.order_by().values_list(path, flat=True).distinct() if pk}

    def _announce(self, event_ids: set[int]) -> None:
        if event_ids:
            rows_written.send(sender=self.model, event_ids=event_ids)

    def _listened(self) -> bool:
        return rows_written.has_listeners(self.model)

    def update(self, **kwargs) -> int:
        if not self._listened():
            return super().update(**kwargs)
        event_ids = self._event_ids()
        count = super().update(**kwargs)
        if count:
            self._announce(event_ids)
        return count

    update.alters_data = True

    def bulk_create(self, objs, *args, **kwargs):
        created = super().bulk_create(objs, *args, **kwargs)
        if created and self._listened():
            self._announce(self._event_ids_of(created))
        return created

    def bulk_update(self, objs, fields, *args, **kwargs) -> int:
        objs = list(objs)
        count = super().bulk_update(objs, fields, *args, **kwargs)
        if count and self._listened():
            self._announce(self._event_ids_of(objs))
        return count

    def _event_ids_of(self, objs) -> set[int]:
        pks = [obj.pk for obj in objs if obj.pk is not None]
        return self.model._default_manager.filter(pk__in=pks)._event_ids() if pks else set()
