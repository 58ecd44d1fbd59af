"""The event `bench_load.py` measures, built in bulk: a 4,096-player event in minutes, not
the better part of an hour.

It ends where `matches.simulation.simulate_event(stop_after_round=1)` does: round 1 played
and closed, round 2 paired and published (its clock running), standings computed. What the
benchmark does not measure is written in bulk: players and accounts
(`simulation.create_players`), registrations (`bulk_create`, divisions by the same rule as
`league.services.register`), round 1's results (a 2-0 for one side, with its games and
history rows, through `bulk_update`/`bulk_create`, which bump the pages' version as any
write does), the players' sessions and passwords. What shapes the pages goes through the
services: pairing both rounds, publishing, the clock, closing round 1 (the standings). API
tokens come from `league.services.tokens`. Runs inside the served checkout
(`bench_load.py --build N`).
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta


def build(players: int) -> dict:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string
    from django.utils.text import slugify

    from decks.models import Format
    from decks.services import ensure_default_formats
    from league.models import Event, Registration
    from league.services.registrations import division_of
    from league.services.tokens import create_api_token
    from matches import services
    from matches.models import Game, Match, ResultChange, Round
    from matches.simulation import create_players, organiser, simulation_season

    rng = random.Random(players)
    ensure_default_formats()
    staff = organiser(f"bench-staff-{players}")
    stamp = f"{players}-{timezone.now():%Y%m%d%H%M%S%f}"
    event = Event.objects.create(
        season=simulation_season(staff),
        name=f"Bench event {players}p",
        slug=slugify(f"bench-{stamp}"),
        format=Format.objects.get(key="standard"),
        best_of=3,
        seed=str(players),
        starts_at=timezone.now(),
        deck_deadline=timezone.now() + timedelta(days=1),
    )
    people = create_players(players, prefix=f"bench{stamp[-10:]}", rng=rng, emails=False)
    Registration.objects.bulk_create(
        Registration(
            event=event,
            player=p,
            status=Registration.Status.REGISTERED,
            division=division_of(p, event),
        )
        for p in people
    )

    round_one = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round_one, by_user=staff)
    played = list(round_one.matches.filter(player_b__isnull=False))
    games, changes = [], []
    for m in played:
        side = "a" if rng.random() < 0.535 else "b"
        m.status, m.result = Match.Status.FINAL, side
        m.a_game_wins, m.b_game_wins = (2, 0) if side == "a" else (0, 2)
        games += [Game(match=m, number=n, prizes=6, outcome=side) for n in (1, 2)]
        changes.append(
            ResultChange(
                match=m,
                changed_by=staff,
                source="staff",
                after={"result": side, "games": [], "at_time": False, "intentional_draw": False},
                note="bench build",
            )
        )
    Match.objects.bulk_update(played, ["status", "result", "a_game_wins", "b_game_wins"])
    Game.objects.bulk_create(games)
    ResultChange.objects.bulk_create(changes)
    services.close_round(round_=round_one, by_user=staff)
    round_two = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round_two, by_user=staff)

    User = get_user_model()
    password = "bench-" + secrets.token_hex(8)
    users = User.objects.filter(player__registrations__event=event)
    User.objects.filter(pk__in=users.values("pk")).update(password=make_password(password))
    by_pk = {u.pk: u for u in User.objects.filter(pk__in=users.values("pk"))}
    by_pk[staff.pk] = User.objects.get(pk=staff.pk)
    store, expires = SessionStore(), timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    sessions: dict[int, str] = {}
    rows = []
    for user in by_pk.values():
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            "_auth_user_id": str(user.pk),
            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
            "_auth_user_hash": user.get_session_auth_hash(),
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        sessions[user.pk] = key
    Session.objects.bulk_create(rows, batch_size=2000)

    matches, tokens = [], {}
    for m in (
        Round.objects.get(pk=round_two.pk)
        .matches.filter(player_b__isnull=False)
        .select_related("player_a__player", "player_b__player__user")
    ):
        a, b = m.player_a.player.user_id, m.player_b.player.user
        matches.append(
            {
                "id": m.pk,
                "a": sessions[a],
                "b": sessions[b.pk],
                "b_user": b.username,
                "b_player_id": m.player_b.player.player_id,
            }
        )
        tokens[b.username] = create_api_token(user=b, name="bench")[1]
    return {
        "event": event.pk,
        "round": 2,
        "staff": sessions[staff.pk],
        "password": password,
        "tokens": tokens,
        "matches": matches,
    }
