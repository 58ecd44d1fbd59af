"""Results in words, for every page: the pairings row, the match page, the results grid,
the bracket, the "your match" card and the player's history all word results here.

Two points of view: `match_result_text` is the neutral line of a pairings row ("Ash won
2–1"); `result_for_player` is the same result seen by one of its players ("Won 2–1",
"Lost 1–2"), with a kind (win, loss, tie, or '' while there is no result) for styling and
for counting a record. `result_summary` words a stored result or report (the form
`rules.results.result_snapshot` gives).
"""

from __future__ import annotations

from datetime import timedelta
from itertools import groupby

from django.utils import timezone

from league.editions import event_edition
from league.models import Division, Event
from league.public_record import public_name

from .models import Game, Match

DIVISION_NAMES = dict(Division.choices)


def names_of(match: Match, *, full: bool = False) -> dict[str, str]:
    """The two players' names: as the public sees them (a minor's first name and initial,
    `league.public_record.public_name`), or `full` for the event's staff."""
    name = (lambda p: p.name) if full else public_name
    return {
        "a": name(match.player_a.player),
        "b": name(match.player_b.player) if match.player_b_id else "BYE",
    }


def game_text(game: dict, names: dict[str, str]) -> str:
    """One game of a payload or snapshot in words: `Ash won (no-show)`."""
    outcome = game.get("outcome")
    if outcome in ("a", "b"):
        text = f"{names[outcome]} won"
    else:
        text = {
            "both_won": "both won at once",
            "tie": "unfinished at time",
            "double_loss": "double game loss",
            "draw": "a draw",
        }.get(outcome, str(outcome))
    reason = game.get("reason") or "played"
    if reason == "both_ways" and outcome in ("a", "b"):
        return f"{text} (both won at once, {names[outcome]} in both ways)"
    if reason != "played":
        text += (
            f" ({Game.Reason(reason).label.lower()})"
            if reason in Game.Reason.values
            else f" ({reason})"
        )
    return text


def settles_top_cut(game: Game, match: Match, event: Event) -> bool:
    """Whether a game of its own (not a replay) is the top cut's sudden death: the game that
    settles a level match (`rules.results`), beyond the match's games or played with the
    event's sudden-death Prize count where that differs from the format's."""
    if game.sequence or match.round.stage != "top_cut":
        return False
    if game.number > event.best_of:
        return True
    format_prizes = event.format.prizes if event.format_id else None
    return event.sudden_death_prizes != format_prizes and game.prizes == event.sudden_death_prizes


def result_summary(snapshot: dict | None, names: dict[str, str]) -> str:
    """A stored result or report (`{"result", "games", "at_time", "intentional_draw"}`)
    in one line: `Ash won, at time: G1 Ash won; G2 sudden death (1 Prize) Misty won`."""
    if not snapshot:
        return "no result"
    result = snapshot.get("result")
    head = {
        "a": f"{names['a']} won",
        "b": f"{names['b']} won",
        "tie": "Tie",
        "double_loss": "Double loss",
    }.get(result, "Incomplete")
    extras = [
        label
        for key, label in (("intentional_draw", "intentional draw"), ("at_time", "at time"))
        if snapshot.get(key)
    ]
    if extras:
        head += " (" + ", ".join(extras) + ")"
    games = []
    for game in snapshot.get("games", []):
        slot = f"G{game.get('number', '?')}"
        if game.get("sequence"):
            prizes = game.get("prizes", 1)
            slot += (
                " sudden death (the game goes on)"
                if prizes == 0
                else f" sudden death ({prizes} Prize{'s' if prizes != 1 else ''})"
            )
        games.append(f"{slot} {game_text(game, names)}")
    return head + (": " + "; ".join(games) if games else "")


def match_result_text(match: Match) -> str:
    """The short result of a pairings row (public names: "Brock H. won 2–1")."""
    if match.is_bye:
        return "Bye"
    if match.status != Match.Status.FINAL:
        return {
            Match.Status.PENDING: "",
            Match.Status.REPORTED: "Reported, awaiting confirmation",
            Match.Status.DISPUTED: "Disputed",
        }.get(match.status, "")
    score = f"{match.a_game_wins}–{match.b_game_wins}"
    if match.result == Match.Result.A:
        return f"{public_name(match.player_a.player)} won {score}"
    if match.result == Match.Result.B:  # the winner's game wins first
        return f"{public_name(match.player_b.player)} won {match.b_game_wins}–{match.a_game_wins}"
    if match.result == Match.Result.TIE:
        return "Intentional draw" if match.intentional_draw else f"Tie {score}"
    return "Double loss"


def result_for_player(match: Match, side: str) -> tuple[str, str]:
    """`(text, kind)` of a match seen from `side`; kind is win, loss, tie or '' (no result)."""
    if match.player_b_id is None:
        return "Bye (counts as a win)", "win"
    if match.status != Match.Status.FINAL:
        return {
            Match.Status.REPORTED: "Reported, waiting for confirmation",
            Match.Status.DISPUTED: "Disputed: the staff will decide",
        }.get(match.status, "No result yet"), ""
    mine, theirs = match.a_game_wins, match.b_game_wins
    if side == "b":
        mine, theirs = theirs, mine
    if match.result == side:
        return f"Won {mine}–{theirs}", "win"
    if match.result in (Match.Result.A, Match.Result.B):
        return f"Lost {mine}–{theirs}", "loss"
    if match.result == Match.Result.TIE:
        return ("Intentional draw" if match.intentional_draw else f"Tie {mine}–{theirs}"), "tie"
    return "Double loss", "loss"


def seconds_left(round_, *, now=None, extra_minutes: int = 0) -> int | None:
    """Seconds on the round clock while it runs (plus a table's time extension), else None."""
    if round_.status != round_.Status.RUNNING or not round_.ends_at:
        return None
    ends_at = round_.ends_at + timedelta(minutes=extra_minutes)
    return max(0, int((ends_at - (now or timezone.now())).total_seconds()))


def overtime(round_, *, now=None, extra_minutes: int = 0) -> dict | None:
    """The end of round of the event's rule edition, for a running clock: the turns after
    time and the overtime clock (`seconds`: left on it once time is called, else None).
    None when the edition has no turns (the older sudden-death reading)."""
    if round_.status != round_.Status.RUNNING or not round_.ends_at:
        return None
    end = event_edition(round_.event).edition.end_of_round
    if not end.has_turns:
        return None
    called = round_.ends_at + timedelta(minutes=extra_minutes)
    now = now or timezone.now()
    seconds = None
    if now >= called:
        over = called + timedelta(minutes=end.overtime_minutes)
        seconds = max(0, int((over - now).total_seconds()))
    return {
        "turns": end.turns or f"{end.extra_turns} more turn{'s' if end.extra_turns != 1 else ''}",
        "minutes": end.overtime_minutes,
        "seconds": seconds,
        # the overtime clock's seconds from when time is called (or from now, once called)
        "clock": seconds if seconds is not None else end.overtime_minutes * 60,
        "text": f"{seconds // 60}:{seconds % 60:02d}" if seconds is not None else "",
    }


def match_card(match: Match, registration_id: int, *, now=None) -> dict:
    """What the "your match" card shows: round, table, opponent, the round clock (seconds
    left while it runs), the result so far and whether the player can still report."""
    side = match.side_of(registration_id)
    opponent = match.player_b if side == "a" else match.player_a
    remaining = seconds_left(match.round, now=now, extra_minutes=match.extra_minutes)
    result, kind = result_for_player(match, side)
    clock = f"{remaining // 60}:{remaining % 60:02d}" if remaining is not None else ""
    return {
        "match": match,
        "round": match.round,
        "bye": match.player_b_id is None,
        "opponent": opponent.player if opponent is not None else None,
        "remaining": remaining,
        "remaining_text": clock,
        "extra_minutes": match.extra_minutes,
        "overtime": overtime(match.round, now=now, extra_minutes=match.extra_minutes),
        "result": result,
        "kind": kind,
        "can_report": match.player_b_id is not None and match.status != Match.Status.FINAL,
    }


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def division_groups(event: Event, items, key) -> list[dict]:
    """`items` grouped by division (`key` gives an item's division) when the divisions play
    separately, each group with the division's name; else one group of everything."""
    if event.division_mode != Event.DivisionMode.SEPARATE:
        return [{"division": "", "name": "", "items": list(items)}]
    return [
        {"division": d, "name": DIVISION_NAMES.get(d, d), "items": list(group)}
        for d, group in groupby(sorted(items, key=key), key=key)
    ]


def structure_lines(event: Event, pods) -> list[dict]:
    """The event's structure as the event page and the dashboard word it: one line per pod
    (`services.event_pods`), with why divisions play together and whether a pod's Swiss
    rounds are done while others still play."""
    swiss_done = event.swiss_rounds_paired
    lines = []
    for pod in pods:
        text = f"{pod.rounds} Swiss round{'s' if pod.rounds != 1 else ''}"
        text += f", top {pod.cut}" if pod.cut >= 2 else ", no top cut"
        if pod.key:
            text += f" ({pod.attendance} player{'s' if pod.attendance != 1 else ''})"
        finished = pod.key and len(pods) > 1 and swiss_done >= pod.rounds
        lines.append(
            {
                "name": pod.name,
                "text": text,
                "reason": pod.reason,
                "swiss_done": bool(finished and swiss_done > 0),
            }
        )
    return lines
