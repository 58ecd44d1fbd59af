"""The actors of issue 17 against the production settings.

`production_settings` reads what `DJANGO_ENV=production` gives (in a subprocess, so the
real settings module decides, not a copy of it) and applies it to the test process; the
clients then speak HTTPS through the proxy header, as behind the TLS proxy.

`world`: league A (organiser `org-a`) runs an event with round 1 paired and published,
two players of it (`ash-login`, `misty-login`, each with an account), published decklists
where Ash stored an early draft first; a draft event ("Secret Draft Cup") with
registrations, a paired round, standings and decklists; league B whose organiser
(`org-b`) is the "other league's organiser".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
PROD_KEYS = (
    "DEBUG", "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "TRUSTED_PROXY_COUNT", "AXES_FAILURE_LIMIT",
)  # fmt: skip
HTTPS = {"HTTP_X_FORWARDED_PROTO": "https"}


def production_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DJANGO_ENV="production",
        SECRET_KEY="issue-17-" + "k3y-0f-50-ch4racters-or-m0re-for-check-deploy-xyz",
        ALLOWED_HOSTS="league.example.test,testserver",
        DJANGO_SETTINGS_MODULE="config.settings",
        **extra,
    )
    return env


@pytest.fixture(scope="session")
def production_values() -> dict:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({{k: getattr(s, k) for k in {PROD_KEYS!r}}}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=production_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    values = json.loads(out.stdout.strip().splitlines()[-1])
    values["SECURE_PROXY_SSL_HEADER"] = tuple(values["SECURE_PROXY_SSL_HEADER"])
    return values


@pytest.fixture
def production_settings(settings, production_values):
    for key, value in production_values.items():
        setattr(settings, key, value)
    assert settings.SECURE_SSL_REDIRECT and settings.SECURE_HSTS_SECONDS > 0
    return settings


def https_client(user=None) -> Client:
    client = Client(**HTTPS)
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@dataclass
class World:
    org_a: object
    org_b: object
    ash: object
    misty: object
    event: object
    draft: object
    ash_registration: object
    misty_registration: object
    draft_registration: object


EARLY_DRAFT = "4 Early Draft Secret Tech\n"


def build_world() -> World:
    from league import services as league_services
    from league.models import Event
    from matches import services
    from tests.factories import (
        EventFactory,
        LeagueFactory,
        PlayerFactory,
        RegistrationFactory,
        SeasonFactory,
        UserFactory,
        sample_cards,
        sample_deck_text,
    )

    sample_cards()
    org_a = UserFactory(username="org-a")
    org_b = UserFactory(username="org-b")
    LeagueFactory(organisers=[org_b])
    season = SeasonFactory(league=LeagueFactory(organisers=[org_a]))
    ash = UserFactory(username="ash-login")
    misty = UserFactory(username="misty-login")

    def running(name, named_users):
        event = EventFactory(season=season, name=name)
        regs = [
            RegistrationFactory(event=event, player=PlayerFactory(user=u, name=u.username[:4]))
            for u in named_users
        ]
        regs += [RegistrationFactory(event=event) for _ in range(2)]
        for reg in regs:
            owner = reg.player.user or org_a
            for text in (EARLY_DRAFT, sample_deck_text()):
                league_services.submit_deck(registration=reg, text=text, by_user=owner)
        league_services.publish_decklists(event=event, by_user=org_a, published=True)
        round_ = services.pair_next_round(event=event, by_user=org_a)
        services.publish_round(round_=round_, by_user=org_a)
        return event, regs

    event, (ash_reg, misty_reg, *_) = running("Viridian Open", [ash, misty])
    draft, (draft_reg, *_) = running("Secret Draft Cup", [])
    # An event can go back to draft (the organiser un-announces it): everything under it
    # must disappear for everyone but its staff.
    Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT)
    draft.refresh_from_db()
    return World(org_a, org_b, ash, misty, event, draft, ash_reg, misty_reg, draft_reg)


@pytest.fixture
def world(db) -> World:
    return build_world()
