"""Play a whole event through the same services the site uses, for demos, rehearsals and
load tests: registrations with legal sample decks, every round paired and published,
random results (ties, drops, sudden-death games, the odd dispute settled by staff), the top
cut, and standings through the Celery task.
"""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from decks.models import Format, PreconDeck
from decks.services import check_decklist, ensure_default_formats
from league import services as league_services
from league.models import Event, League, Player, Registration, Season
from rules.errors import DomainError

from . import services
from .models import Round


@dataclass
class SimulationReport:
    event: Event
    pairing_ms: list[float] = field(default_factory=list)
    round_close_ms: list[float] = field(default_factory=list)
    results_ms: list[float] = field(default_factory=list)
    rematches: int = 0
    rounds: int = 0


def legal_sample_decks(fmt: Format, limit: int = 20) -> list[str]:
    """Decklists from the card data's precon decks that are legal in `fmt`."""
    decks = []
    for precon in PreconDeck.objects.order_by("id").iterator():
        text = precon.as_decklist_text()
        if check_decklist(text=text, fmt=fmt).legal:
            decks.append(text)
            if len(decks) >= limit:
                break
    return decks


def organiser(username: str = "organiser"):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username, defaults={"is_staff": True})
    if created:
        user.set_unusable_password()
        user.save()
    return user


FIRST_NAMES = ("Alex", "Sam", "Jordan", "Taylor", "Riley", "Casey", "Morgan", "Jamie", "Avery",
               "Quinn", "Rowan", "Emery", "Hayden", "Kai", "Nico", "Sasha", "Robin", "Ellis",
               "Noa", "Luca", "Mika", "Aiden", "Zoe", "Iris", "Theo", "Maya", "Felix", "Lena")  # fmt: skip
SURNAME_INITIALS = "ABCDEFGHJKLMNOPRSTVW"


def player_name(i: int) -> str:
    """A readable, unique name for the i-th generated player: `Alex B.`, then `Alex B. 2`…"""
    first = FIRST_NAMES[i % len(FIRST_NAMES)]
    initial = SURNAME_INITIALS[(i // len(FIRST_NAMES)) % len(SURNAME_INITIALS)]
    cycle = i // (len(FIRST_NAMES) * len(SURNAME_INITIALS))
    return f"{first} {initial}." + (f" {cycle + 1}" if cycle else "")


def create_players(count: int, *, prefix: str, rng: random.Random, with_users: bool = True,
                   emails: bool = True) -> list[Player]:  # fmt: skip
    """Players (and site accounts without passwords) in bulk; ages spread over divisions.
    Without `emails` the accounts have no address: notifications reach the inbox only."""
    User = get_user_model()
    users = []
    if with_users:
        users = User.objects.bulk_create(
            [User(username=f"{prefix}-{i:05d}", password="!",
                  email=f"{prefix}-{i:05d}@example.test" if emails else "")
             for i in range(count)]
        )  # fmt: skip
    today = date.today()
    return Player.objects.bulk_create(
        [
            Player(
                name=player_name(i),
                player_id=f"{prefix}-{i:05d}"[-20:],
                birth_date=date(today.year - rng.choice([9, 13, 16, 22, 30, 41]), 6, 1),
                email=f"{prefix}-{i:05d}@example.test",
                user=users[i] if users else None,
            )
            for i in range(count)
        ]
    )


def _random_payload(rng: random.Random, best_of: int, top_cut: bool) -> dict:
    roll = rng.random()
    if not top_cut and roll < 0.04:
        return {"games": [], "intentional_draw": True}
    games: list[dict] = []
    wins = {"a": 0, "b": 0}
    need = best_of // 2 + 1
    at_time = False
    while max(wins.values()) < need:
        r = rng.random()
        if r < 0.03:
            games.append({"outcome": "both_won"})
            continue  # a sudden-death replay follows
        if r < 0.07 and not top_cut and not (games and games[-1]["outcome"] == "both_won"):
            games.append({"outcome": "tie"})
            at_time = True
            break
        side = "a" if r < 0.535 else "b"
        games.append({"outcome": side})
        wins[side] += 1
        if best_of == 3 and rng.random() < 0.05 and max(wins.values()) < need and not top_cut:
            at_time = True  # time called with the match unfinished
            break
    return {"games": games, "at_time": at_time}


def _report_round(round_: Round, rng: random.Random, staff, share: float = 1.0) -> None:
    """Report the round's results; with `share` below 1, only that share of its matches
    (the top tables first), so a demo round has results both in and missing."""
    event = round_.event
    top_cut = round_.stage == Round.Stage.TOP_CUT
    matches = list(
        round_.matches.filter(player_b__isnull=False)
        .select_related("player_a__player__user", "player_b__player__user")
        .order_by("table", "id")
    )
    matches = matches[: round(len(matches) * share)]
    # One transaction per round: the results of a busy round reach the standings task as one
    # request, as they would when they arrive within the task's coalescing window.
    with transaction.atomic():
        for match in matches:
            payload = _random_payload(rng, event.best_of, top_cut)
            users = (match.player_a.player.user, match.player_b.player.user)
            if None in users or rng.random() < 0.1:
                services.set_result(
                    match=match, by_user=staff, payload=payload, note="entered by staff"
                )
                continue
            services.report_result(match=match, by_user=users[0], payload=payload)
            if rng.random() < 0.02 and not payload.get("intentional_draw"):
                flipped = {**payload, "games": [
                    {"outcome": {"a": "b", "b": "a"}.get(g["outcome"], g["outcome"])} for g in payload["games"]
                ]}  # fmt: skip
                with contextlib.suppress(Exception):
                    services.report_result(match=match, by_user=users[1], payload=flipped)
                services.set_result(
                    match=match, by_user=staff, payload=payload, note="dispute settled"
                )
            else:
                services.report_result(match=match, by_user=users[1], payload=payload)


def simulation_season(staff) -> Season:
    league, _ = League.objects.get_or_create(
        slug="simulation", defaults={"name": "Simulation League"}
    )
    league.organisers.add(staff)
    today = date.today()
    season, _ = Season.objects.get_or_create(
        league=league, name=f"Season {today.year}",
        defaults={"starts_on": today.replace(month=1, day=1), "ends_on": today.replace(month=12, day=31),
                  "junior_from_year": today.year - 11, "senior_from_year": today.year - 15},
    )  # fmt: skip
    return season


def simulate_event(*, players: int | list[Player], seed: int, best_of: int = 3, drop_rate: float = 0.03,
                   season: Season | None = None, staff=None, name: str | None = None,
                   stop_after_round: int | None = None, report_share: float = 0.0,
                   emails: bool = False, progress=None, days: int = 1,
                   prepare=None) -> SimulationReport:  # fmt: skip
    """Create an event in `season` (a simulation league by default) and play it through.
    `players` is a count of new players or a list of existing ones; `stop_after_round`
    leaves the event running after that round's results (for demos), with the next round
    paired, published and `report_share` of its results reported; `emails` gives new
    players e-mail addresses, so notifications are mailed too, not only put in inboxes;
    `days=2` plays a two-day event (day 2 by the rule edition's match points);
    `prepare(event)` runs once everyone is registered, before round 1 (fixed seats…)."""
    rng = random.Random(seed)
    ensure_default_formats()
    staff = staff or organiser()
    season = season or simulation_season(staff)
    fmt = Format.objects.get(key="standard")
    stamp = f"{seed}-{timezone.now():%Y%m%d%H%M%S%f}"
    count = players if isinstance(players, int) else len(players)
    event = Event.objects.create(
        season=season, name=name or f"Simulated event {count}p seed {seed}", slug=slugify(f"sim-{stamp}"),
        format=fmt, best_of=best_of, seed=str(seed), starts_at=timezone.now(),
        deck_deadline=timezone.now() + timedelta(days=1), days=days,
    )  # fmt: skip
    report = SimulationReport(event=event)
    decks = legal_sample_decks(fmt) or [""]
    people = (
        create_players(players, prefix=f"sim{stamp[-10:]}", rng=rng, emails=emails)
        if isinstance(players, int)
        else players
    )
    for player in people:
        reg = league_services.register(event=event, player=player, by_user=staff)
        if decks[0]:
            league_services.submit_deck(
                registration=reg, text=rng.choice(decks), by_user=player.user
            )
    if prepare is not None:
        prepare(event)
    while True:
        started = time.perf_counter()
        try:
            round_ = services.pair_next_round(event=event, by_user=staff)
        except DomainError as exc:
            if exc.code == "event-finished":
                break
            raise
        report.pairing_ms.append((time.perf_counter() - started) * 1000)
        report.rematches += round_.rematches
        report.rounds += 1
        services.start_clock(round_=round_, by_user=staff)
        if stop_after_round is not None and round_.number > stop_after_round:
            if report_share:
                _report_round(round_, rng, staff, share=report_share)
            break
        started = time.perf_counter()
        _report_round(round_, rng, staff)
        report.results_ms.append((time.perf_counter() - started) * 1000)
        if round_.stage == Round.Stage.SWISS and round_.number >= 2:
            active = list(Registration.objects.filter(event=event, status__in=services.ACTIVE))
            for reg in active:
                if rng.random() < drop_rate:
                    league_services.drop(registration=reg, by_user=staff)
        started = time.perf_counter()
        services.close_round(round_=round_, by_user=staff)
        report.round_close_ms.append((time.perf_counter() - started) * 1000)
        if progress:
            progress(round_, report)
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
    return report
