"""Changes the insights screens make: a list's archetype, a league's archetype rules, an
event's feature match. Each checks who may (`league.permissions`) and writes one row; no
task is queued (the overlay and the metagame read live)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from league import permissions
from league.models import Event, League, Registration
from rules.archetypes import MAX_NAME, parse_rules
from rules.errors import DomainError

from .models import ArchetypeRules, FeatureMatch


def set_archetype(*, user, registration: Registration, archetype: str) -> Registration:
    """The player or the event's staff (deck checks) name the list's archetype; blank goes
    back to the rules' suggestion. Writes `Registration.archetype`."""
    event = registration.event
    if not (
        permissions.owns_registration(user, registration)
        or permissions.can(user, event, "deck-checks")
    ):
        raise DomainError(
            "not-allowed",
            _("Only the player and the event's staff can name the archetype."),
            status=403,
        )
    archetype = " ".join(archetype.split())
    if len(archetype) > MAX_NAME:
        raise DomainError(
            "archetype-too-long",
            _("An archetype is at most %(max)s characters.") % {"max": MAX_NAME},
        )
    registration.archetype = archetype
    registration.save(update_fields=["archetype"])
    return registration


def save_archetype_rules(*, user, league: League, text: str) -> ArchetypeRules:
    """The league's organisers write the ordered rules (`rules.archetypes.parse_rules`)."""
    if not permissions.is_league_organiser(user, league):
        raise DomainError(
            "not-allowed", _("Only the league's organisers edit its rules."), status=403
        )
    rules = parse_rules(text)
    with transaction.atomic():
        row, _created = ArchetypeRules.objects.select_for_update().get_or_create(league=league)
        row.rules = [[r.card, r.archetype] for r in rules]
        row.save()
    return row


def set_feature_table(*, user, event: Event, table: int | None) -> FeatureMatch | None:
    """Staff put a table on stream (None: none)."""
    if not permissions.can(user, event, "manage-event"):
        raise DomainError(
            "not-allowed", _("Only the event's staff choose the feature match."), status=403
        )
    if table is None:
        FeatureMatch.objects.filter(event=event).delete()
        return None
    if table < 1:
        raise DomainError("table-invalid", _("A table number is 1 or more."))
    row, _created = FeatureMatch.objects.update_or_create(event=event, defaults={"table": table})
    return row
