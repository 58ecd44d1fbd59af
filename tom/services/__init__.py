"""TOM saves in and out, a module a concern: `importing` (a save as an event, or an event
brought up to date; played through the site's services by `replay`), `exporting` (the event
as a save), `comparison` (our final places against TOM's), `saves` (saves the laptop script posts,
applied by the worker; refused saves kept for the organiser's decision), `uploads` (the
laptop script's token), `common` (what they share). Callers
import from `tom.services`.

An import plays the save through the site's own services, round by round, as if the event
were run here: players are registered (`league.services.register`, late entrants when
their first round comes), TOM's pairings are posted (`matches.services.
record_paired_matches`) and published (players are told their table), results are
recorded (`matches.services.record_decided_result`, so a changed result keeps its
history), drops are made after the round TOM names, rounds are closed (standings
snapshots, the event finished) and TOM's final places recorded as the league placements.

Our rounds and TOM's: Swiss rounds keep their numbers. TOM numbers each pod's rounds on
its own, so a Juniors+Seniors pod may play its top cut while Masters still play Swiss
round 5; here a round number is Swiss or top cut for the whole event, so TOM's top-cut
rounds start after `TomEvent.cut_offset` (the most Swiss rounds any pod plays) in every
pod.

Pods: an event with one pod is run combined; with several, separately, and each match
carries its pod (`Match.division`: `junior`, `senior`, `masters`, `jr+sr`, `all`).
Divisions: TOM's word (its standings, else the pod's only division, else the birth year
with the Play! Pokémon cut-offs of the event's season), not the site season's years.

Everything happens in one transaction: a file that is not a TOM save, is cut short, names a
player twice or contradicts the event raises `DomainError` (`tdf-invalid`,
`tdf-contradicts`) naming the element, and nothing is changed.
"""

from .common import MAX_SAVE_BYTES, SaveDiffers, from_json, read_save, to_json, tom_divisions
from .comparison import compare_standings
from .exporting import export_filename, export_save, export_text
from .importing import ImportResult, default_season, import_save
from .saves import (
    apply_save,
    import_as_new_event,
    keep_refused,
    latest_refused,
    receive_save,
    save_status,
)
from .uploads import event_for_token, new_upload_token, organiser_user, token_digest

__all__ = [
    "MAX_SAVE_BYTES",
    "ImportResult",
    "SaveDiffers",
    "apply_save",
    "compare_standings",
    "default_season",
    "event_for_token",
    "export_filename",
    "export_save",
    "export_text",
    "from_json",
    "import_as_new_event",
    "import_save",
    "keep_refused",
    "latest_refused",
    "new_upload_token",
    "organiser_user",
    "read_save",
    "receive_save",
    "save_status",
    "to_json",
    "token_digest",
    "tom_divisions",
]
