"""Signals the league's services send, for apps above the league that must act in the same
transaction without the league importing them (the layers run one way): `webhooks`
listens to `event_saved` for "registration opened".

`event_saved(sender=Event, event=..., previous_status=...)` is sent by `create_event` and
`update_event` after the row is saved, inside their transaction (`previous_status` is None
for a new event).

`rows_written(sender=Model, event_ids={...})` is sent by a bulk write (`update`,
`bulk_create`, `bulk_update`) of a model the public pages show (`league.bulk_writes`), so
the page cache (`matches.signals`) hears of it as it hears of `save()`.
"""

from django.dispatch import Signal

event_saved = Signal()
rows_written = Signal()
