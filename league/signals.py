"""Signals the league's services send, for apps above the league that must act in the same
transaction without the league importing them (the layers run one way): `webhooks`
listens to `event_saved` for "registration opened".

`event_saved(sender=Event, event=..., previous_status=...)` is sent by `create_event` and
`update_event` after the row is saved, inside their transaction (`previous_status` is None
for a new event).
"""

from django.dispatch import Signal

event_saved = Signal()
