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
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

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
        "b": name(match.player_b.player) if match.player_b_id else pgettext("no opponent", "BYE"),
    }


def game_text(game: dict, names: dict[str, str]) -> str:
    """One game of a payload or snapshot in words: `Ash won (no-show)`."""
    outcome = game.get("outcome")
    if outcome in ("a", "b"):
        text = _("%(player)s won") % {"player": names[outcome]}
    else:
        text = {
            "both_won": pgettext("game outcome", "both won at once"),
            "tie": pgettext("game outcome", "unfinished at time"),
            # Translators: "game loss" as in the TCG penalty (fr "perte de partie").
            "double_loss": pgettext("game outcome", "double game loss"),
            "draw": pgettext("game outcome", "a draw"),
        }.get(outcome, str(outcome))
    reason = game.get("reason") or "played"
    if reason == "both_ways" and outcome in ("a", "b"):
        return _("%(player)s won (both won at once, %(player)s in both ways)") % {
            "player": names[outcome]
        }
    if reason != "played":
        why = Game.Reason(reason).label.lower() if reason in Game.Reason.values else reason
        text = pgettext("a game's outcome and why", "%(outcome)s (%(why)s)") % {
            "outcome": text,
            "why": why,
        }
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
        return pgettext("match result", "no result")
    result = snapshot.get("result")
    head = {
        "a": _("%(player)s won") % {"player": names["a"]},
        "b": _("%(player)s won") % {"player": names["b"]},
        "tie": pgettext("match result", "Tie"),
        "double_loss": pgettext("match result", "Double loss"),
    }.get(result, pgettext("match result", "Incomplete"))
    extras = [
        label
        for key, label in (
            ("intentional_draw", pgettext("match result", "intentional draw")),
            ("at_time", pgettext("match result", "at time")),
        )
        if snapshot.get(key)
    ]
    if extras:
        head = pgettext("a result and how it ended", "%(result)s (%(how)s)") % {
            "result": head,
            "how": ", ".join(extras),
        }
    games = []
    for game in snapshot.get("games", []):
        # Translators: G1, G2, ...: game 1, game 2 of a match (a short abbreviation).
        slot = _("G%(number)s") % {"number": game.get("number", "?")}
        if game.get("sequence"):
            prizes = game.get("prizes", 1)
            # Translators: "sudden death" and "Prize(s)" (Prize cards) are official TCG terms.
            slot = (
                _("%(game)s sudden death (the game goes on)") % {"game": slot}
                if prizes == 0
                else ngettext(
                    "%(game)s sudden death (%(prizes)s Prize)",
                    "%(game)s sudden death (%(prizes)s Prizes)",
                    prizes,
                )
                % {"game": slot, "prizes": prizes}
            )
        games.append(f"{slot} {game_text(game, names)}")
    return head + (": " + "; ".join(games) if games else "")


def match_result_text(match: Match) -> str:
    """The short result of a pairings row (public names: "Brock H. won 2–1")."""
    if match.is_bye:
        return pgettext("match result", "Bye")
    if match.status != Match.Status.FINAL:
        return {
            Match.Status.PENDING: "",
            Match.Status.REPORTED: pgettext("match result", "Reported, awaiting confirmation"),
            Match.Status.DISPUTED: pgettext("match result", "Disputed"),
        }.get(match.status, "")
    score = f"{match.a_game_wins}–{match.b_game_wins}"
    won = pgettext("match result: who won, the games", "%(player)s won %(score)s")
    if match.result == Match.Result.A:
        return won % {"player": public_name(match.player_a.player), "score": score}
    if match.result == Match.Result.B:  # the winner's game wins first
        score = f"{match.b_game_wins}–{match.a_game_wins}"
        return won % {"player": public_name(match.player_b.player), "score": score}
    if match.result == Match.Result.TIE:
        if match.intentional_draw:
            return pgettext("match result", "Intentional draw")
        return pgettext("match result", "Tie %(score)s") % {"score": score}
    return pgettext("match result", "Double loss")


def result_for_player(match: Match, side: str) -> tuple[str, str]:
    """`(text, kind)` of a match seen from `side`; kind is win, loss, tie or '' (no result)."""
    if match.player_b_id is None:
        return pgettext("my result", "Bye (counts as a win)"), "win"
    if match.status != Match.Status.FINAL:
        return {
            Match.Status.REPORTED: pgettext("my result", "Reported, waiting for confirmation"),
            Match.Status.DISPUTED: pgettext("my result", "Disputed: the staff will decide"),
        }.get(match.status, pgettext("my result", "No result yet")), ""
    mine, theirs = match.a_game_wins, match.b_game_wins
    if side == "b":
        mine, theirs = theirs, mine
    score = {"score": f"{mine}–{theirs}"}
    if match.result == side:
        return pgettext("my result", "Won %(score)s") % score, "win"
    if match.result in (Match.Result.A, Match.Result.B):
        return pgettext("my result", "Lost %(score)s") % score, "loss"
    if match.result == Match.Result.TIE:
        if match.intentional_draw:
            return pgettext("my result", "Intentional draw"), "tie"
        return pgettext("my result", "Tie %(score)s") % score, "tie"
    return pgettext("my result", "Double loss"), "loss"


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
        # The edition's own words are a marked msgid (rules.editions); said in the reader's.
        "turns": _(end.turns)
        if end.turns
        else ngettext("%(count)s more turn", "%(count)s more turns", end.extra_turns)
        % {"count": end.extra_turns},
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
    ends_at = (
        match.round.ends_at + timedelta(minutes=match.extra_minutes)
        if remaining is not None
        else None
    )
    return {
        "match": match,
        "round": match.round,
        "bye": match.player_b_id is None,
        "opponent": opponent.player if opponent is not None else None,
        "remaining": remaining,
        "remaining_text": clock,
        # The moment time is called at this table (the page's clock counts down to it).
        "ends_at": ends_at,
        "ends_at_ms": int(ends_at.timestamp() * 1000) if ends_at else None,
        "extra_minutes": match.extra_minutes,
        "overtime": overtime(match.round, now=now, extra_minutes=match.extra_minutes),
        "result": result,
        "kind": kind,
        "can_report": match.player_b_id is not None and match.status != Match.Status.FINAL,
    }


def ordinal(n: int) -> str:
    """A place in words: 1st, 2nd, 11th, 21st (each language its own way)."""
    if n == 1:
        # Translators: a place in the standings: 1st, 2nd, 3rd, 4th...; translate each shape
        # (fr "%(n)se", "1er" for the first only; de "%(n)s."; es/it/pt "%(n)sº").
        text = pgettext("ordinal: first place", "%(n)sst")
    elif n % 100 in (11, 12, 13) or n % 10 not in (1, 2, 3):
        text = pgettext("ordinal: ends in 0, 4-9, 11, 12, 13", "%(n)sth")
    elif n % 10 == 1:
        text = pgettext("ordinal: ends in 1, not 11", "%(n)sst")
    elif n % 10 == 2:
        text = pgettext("ordinal: ends in 2, not 12", "%(n)snd")
    else:
        text = pgettext("ordinal: ends in 3, not 13", "%(n)srd")
    return text % {"n": n}


def cut_stage(text: str) -> str:
    """How far a player got in the top cut, or a bracket column's title, as `rules` names
    it ("Winner", "Final", "Top 4", ...; data in the API and exports), in words."""
    # Translators: "top cut" stages: the winner, the final, the last 4, 8, ... players.
    if text == "Winner":
        return pgettext("top cut", "Winner")
    if text == "Final":
        return pgettext("top cut", "Final")
    if text.startswith("Top ") and text[4:].isdigit():
        return pgettext("top cut", "Top %(size)s") % {"size": text[4:]}
    return text


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
        # Translators: "Swiss" and "top cut" are the official TCG tournament terms.
        text = ngettext("%(count)s Swiss round", "%(count)s Swiss rounds", pod.rounds) % {
            "count": pod.rounds
        }
        if pod.cut >= 2:
            text = _("%(rounds)s, top %(cut)s") % {"rounds": text, "cut": pod.cut}
        else:
            text = _("%(rounds)s, no top cut") % {"rounds": text}
        if pod.key:
            n = pod.attendance
            text = ngettext("%(text)s (%(count)s player)", "%(text)s (%(count)s players)", n) % {
                "text": text,
                "count": n,
            }
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


def percent(value) -> str:
    """A share (0–1: a win rate, OWP, OOWP) as people read it in their language: "61.00%",
    "61,00 %". Something that is not a number is shown as it is."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value or "")
    # (Django's number_format cuts the decimals; round first, as "{:.2f}" did.)
    # Translators: a percentage; %(value)s is the number with its two decimals. Write it as your language does (fr/de: "61,00 %").
    return _("%(value)s%%") % {"value": number_format(round(number * 100, 2), 2)}
