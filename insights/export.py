"""The archetypes in the event's JSON export (`matches.export`, which may not import
`insights`): registered with `matches.export.register_player_facts` when the app loads.

Each player with a list gets `archetype` and `archetype_public`. A list's archetype says
what the list is, so it follows the decklist rule: in every export once the event's
decklist phase has made that list public (`permissions.public_decklists`), and before that
only in the export of staff who may read every list (organisers and judges:
`permissions.can_view_all_decklists`), marked `archetype_public: false` so nobody
republishes it by mistake. A scorekeeper's export carries the public ones only."""

from __future__ import annotations

from league import permissions

from .selectors import event_archetypes


def archetype_facts(event, registrations, *, all_lists: bool) -> dict[int, dict]:
    public = set(permissions.public_decklists(event).values_list("pk", flat=True))
    if not public and not all_lists:
        return {}
    return {
        pk: {"archetype": name, "archetype_public": pk in public}
        for pk, name in event_archetypes(event).items()
        if all_lists or pk in public
    }
