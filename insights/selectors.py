"""Read queries of the overlay, the metagame and the player's rounds, shared by the pages
and the API.

What the public sees of decks follows `league.permissions.decklists_are_public`: the
overlay (an OBS browser source, usually anonymous) and the metagame show archetypes and
lists only once the event's lists are public, whoever asks; staff may preview the
metagame before that (`metagame_shown`: the staff who check decks, not scorekeepers).
"""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from decks.models import Card
from decks.parser import parse_decklist
from league import permissions
from league.models import DeckSubmission, Event, Registration
from league.public_record import public_name
from league.selectors import with_public_names
from matches import services as match_services
from matches.models import Match, Round, StandingsSnapshot
from rules.archetypes import DEFAULT_RULES, ArchetypeRule, suggest_archetype
from rules.metagame import Metagame, metagame, player_record

from .models import ArchetypeRules, FeatureMatch


def league_rules(league) -> tuple[ArchetypeRule, ...]:
    row = ArchetypeRules.objects.filter(league=league).first()
    if row is None:
        return DEFAULT_RULES
    return tuple(ArchetypeRule(card, archetype) for card, archetype in row.rules)


def _pokemon_names(names: set[str]) -> set[str]:
    """Which of these names (of lines under no section) are Pokémon in the card data."""
    if not names:
        return set()
    return set(
        Card.objects.filter(name__in=names, supertype="Pokémon").values_list("name", flat=True)
    )


def deck_lines(deck: DeckSubmission | None) -> tuple[list, set[str]]:
    """The list's card lines and the names among them that are Pokémon."""
    if deck is None:
        return [], set()
    lines = list(parse_decklist(deck.text).lines)
    unsectioned = {ln.name for ln in lines if not ln.section}
    pokemon = {ln.name for ln in lines if ln.section == "Pokémon"} | _pokemon_names(unsectioned)
    return lines, pokemon


def suggested_archetype(deck: DeckSubmission | None, rules) -> str:
    lines, pokemon = deck_lines(deck)
    if not lines:
        return ""
    return suggest_archetype(lines, rules, is_pokemon=lambda ln: ln.name in pokemon)


def archetype_of(registration: Registration, deck: DeckSubmission | None, rules) -> str:
    """The archetype set by the player or staff, else the one the rules suggest."""
    return registration.archetype or suggested_archetype(deck, rules)


def latest_decks(event: Event) -> dict[int, DeckSubmission]:
    """Each registration's latest list (the one that counts), by registration id."""
    decks: dict[int, DeckSubmission] = {}
    for deck in DeckSubmission.objects.filter(registration__event=event).order_by(
        "registration_id", "-version"
    ):
        decks.setdefault(deck.registration_id, deck)
    return decks


def event_archetypes(event: Event) -> dict[int, str]:
    """Registration id → archetype, for every registration with a list (the card data is
    asked once for the whole event, not once a list)."""
    rules = league_rules(event.season.league)
    decks = latest_decks(event)
    set_by_hand = dict(Registration.objects.filter(pk__in=decks).values_list("pk", "archetype"))
    parsed = {
        pk: list(parse_decklist(deck.text).lines)
        for pk, deck in decks.items()
        if not set_by_hand.get(pk)
    }
    unsectioned = {ln.name for lines in parsed.values() for ln in lines if not ln.section}
    pokemon = _pokemon_names(unsectioned)
    archetypes = {pk: name for pk, name in set_by_hand.items() if name}
    for pk, lines in parsed.items():
        archetypes[pk] = (
            suggest_archetype(lines, rules, is_pokemon=lambda ln: ln.name in pokemon)
            if lines
            else ""
        )
    return {pk: name for pk, name in archetypes.items() if name}


def final_results(event: Event, *, before_round: int | None = None) -> list[tuple]:
    """(a, b, result) of every final match of the event's public rounds (Swiss and top
    cut), as `rules.metagame` reads them."""
    qs = Match.objects.filter(round__event=event, status=Match.Status.FINAL).in_public_rounds()
    if before_round is not None:
        qs = qs.filter(round__number__lt=before_round)
    return list(qs.values_list("player_a_id", "player_b_id", "result"))


def metagame_shown(user, event: Event) -> bool:
    """The metagame reads every list: shown under the decklist rule for all of them
    (`permissions.can_view_all_decklists`: public lists, or the staff who check decks)."""
    return permissions.can_view_all_decklists(user, event)


def event_metagame(event: Event) -> tuple[Metagame, dict[int, str]]:
    archetypes = event_archetypes(event)
    return metagame(archetypes, final_results(event)), archetypes


# The overlay ---------------------------------------------------------------------------


def overlay_round(event: Event) -> Round | None:
    """The newest round the public sees."""
    return Round.objects.filter(event=event).public().order_by("-number").first()


def feature_table(event: Event) -> int | None:
    return FeatureMatch.objects.filter(event=event).values_list("table", flat=True).first()


def _side(registration: Registration | None, games: int, results, public: bool, rules) -> dict:
    if registration is None:
        return {"name": "BYE", "record": "", "games": 0, "archetype": "", "pokemon": []}
    side = {
        "name": public_name(registration.player),
        "record": str(player_record(registration.pk, results)),
        "games": games,
        "archetype": "",
        "pokemon": [],
    }
    if public:
        deck = latest_decks_of([registration]).get(registration.pk)
        lines, pokemon = deck_lines(deck)
        side["archetype"] = archetype_of(registration, deck, rules) if deck else ""
        side["pokemon"] = [
            {"count": ln.count, "name": ln.name} for ln in lines if ln.name in pokemon
        ]
    return side


def latest_decks_of(registrations: list[Registration]) -> dict[int, DeckSubmission]:
    decks: dict[int, DeckSubmission] = {}
    for deck in DeckSubmission.objects.filter(registration__in=registrations).order_by(
        "registration_id", "-version"
    ):
        decks.setdefault(deck.registration_id, deck)
    return decks


def overlay_data(event: Event, table: int | None) -> dict:
    """Everything the overlay shows for `table` (default: the feature match) in the newest
    public round: the two players, their records before this round, the game score, the
    table's clock (the round's end plus the table's time extensions; "final" once the
    result stands), and their decks once lists are public."""
    featured = feature_table(event)
    table = table if table is not None else featured
    round_ = overlay_round(event)
    data = {
        "event": event.name,
        "round": round_.number if round_ else None,
        "stage": round_.get_stage_display() if round_ else "",
        "table": table,
        "featured": table is not None and table == featured,
        "now": timezone.now(),
        "ends_at": round_.ends_at if round_ else None,
        "extra_minutes": 0,
        "final": False,
        "status": "",
        "result": "",
        "decklists_public": permissions.decklists_are_public(event),
        "players": [],
    }
    if round_ is None or table is None:
        return data
    match = (
        Match.objects.filter(round=round_, table=table)
        .select_related("player_a__player", "player_b__player")
        .order_by("division")
        .first()
    )
    if match is None:
        return data
    results = final_results(event, before_round=round_.number)
    rules = league_rules(event.season.league)
    public = data["decklists_public"]
    data["status"] = match.get_status_display()
    data["result"] = match.result
    # The table's own clock: the round's end plus its time extensions; none once final.
    data["ends_at"] = match.ends_at
    data["extra_minutes"] = match.extra_minutes
    data["final"] = match.status == Match.Status.FINAL
    data["players"] = [
        _side(match.player_a, match.a_game_wins, results, public, rules),
        _side(match.player_b, match.b_game_wins, results, public, rules),
    ]
    return data


# A player's rounds ----------------------------------------------------------------------


def player_rounds(registration: Registration, *, published_only: bool) -> list[dict]:
    """Round by round: the opponent, the result, and the player's place and points after
    the round (the newest version of each round's standings the viewer may see)."""
    event = registration.event
    snapshots = StandingsSnapshot.objects.filter(event=event)
    if published_only:
        snapshots = snapshots.filter(published=True)
    after: dict[int, dict] = {}
    for snap in snapshots.order_by("round_number", "version"):
        for row in snap.rows:
            if row.get("registration") == registration.pk:
                after[snap.round_number] = row
    matches = (
        Match.objects.filter(Q(player_a=registration) | Q(player_b=registration))
        .in_public_rounds()
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number")
    )
    rows = []
    for match in matches:
        side = match.side_of(registration.pk)
        opponent = match.player_b if side == "a" else match.player_a
        if match.status != Match.Status.FINAL:
            outcome = ""
        elif match.is_bye:
            outcome = "bye"
        elif match.result == "tie":
            outcome = "tie"
        elif match.result == side:
            outcome = "win"
        else:
            outcome = "loss"
        standing = after.get(match.round.number, {})
        rows.append(
            {
                "round": match.round.number,
                "opponent": public_name(opponent.player) if opponent else "BYE",
                "outcome": outcome,
                "rank": standing.get("rank"),
                "points": standing.get("points"),
                "record": standing.get("record", ""),
            }
        )
    return rows


# Final results ---------------------------------------------------------------------------


def results_with_decks(event: Event) -> list[dict]:
    """A finished event's final results for everyone (the page and the API): the published
    places (`matches.services.final_standings`: the top cut by how far each player got,
    then Swiss order), each player's Swiss record and points, and, for a list anyone may
    read (`permissions.public_decklists`: the event's decklist phase), its archetype and
    `deck` (the registration whose list the link opens). Nothing of a private list, whoever
    asks: the same rows for every viewer."""
    rows = with_public_names(match_services.final_standings(event))
    if not rows:
        return []
    public = set(permissions.public_decklists(event).values_list("pk", flat=True))
    archetypes = event_archetypes(event) if public else {}
    out = []
    for row in rows:
        shown = row["registration"] in public
        out.append(
            {
                "place": row["place"],
                "registration": row["registration"],
                "player": row["player"],
                "division": row["division"],
                "reached": row["reached"],
                "record": row["record"],
                "points": row["points"],
                "dropped": row["dropped"],
                "archetype": archetypes.get(row["registration"], "") if shown else "",
                "deck": row["registration"] if shown else None,
            }
        )
    return out
