"""The events a webhook endpoint may subscribe to: one kebab-case name each, used in the
database, the JSON body's `event` field, the `Webhook-Event` header and the API."""

from django.utils.translation import gettext_lazy as _

REGISTRATION_OPENED = "registration-opened"
ROUND_PAIRED = "round-paired"
ROUND_PUBLISHED = "round-published"
RESULT_FINAL = "result-final"
STANDINGS_PUBLISHED = "standings-published"
EVENT_FINISHED = "event-finished"

#: (name, label) in the order the organiser's form lists them.
EVENTS: tuple[tuple[str, str], ...] = (
    (REGISTRATION_OPENED, _("Registration opened")),
    (ROUND_PAIRED, _("Round paired")),
    (ROUND_PUBLISHED, _("Round published")),
    (RESULT_FINAL, _("Result final")),
    (STANDINGS_PUBLISHED, _("Standings published")),
    (EVENT_FINISHED, _("Event finished")),
)
NAMES: frozenset[str] = frozenset(name for name, _label in EVENTS)
LABELS: dict[str, str] = dict(EVENTS)
