"""The nginx micro-cache of `docs/deploy.md` (`deploy/nginx/micro-cache.conf`, run as its
own process) in front of the live site: it keeps the public round pages a few seconds for
everyone, never keeps a personal answer, and a copy it serves stale never shows a result
older than the event version it names."""

import re
import socket
import time
import urllib.request
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from deploy.nginx import NGINX, start_nginx
from matches import public_pages
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def free_port(first: int = 18410, last: int = 18499) -> int:
    """A port of this project's helper range (18400-18499)."""
    for port in range(first, last):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port")


@pytest.fixture
def proxy(live_server, tmp_path):
    if not Path(NGINX).exists():
        pytest.fail(f"{NGINX} is missing: scripts/test_setup.sh installs it")
    upstream = int(live_server.url.rsplit(":", 1)[1])
    nginx = start_nginx(listen=free_port(), upstream=upstream, prefix=tmp_path / "nginx")
    yield nginx
    nginx.stop()


def fetch(
    port: int, path: str, *, session: str = "", headers: dict | None = None
) -> tuple[int, dict, str]:
    headers = {"Accept-Encoding": "identity", **(headers or {})}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    with urllib.request.urlopen(request) as answer:
        return answer.status, dict(answer.headers), answer.read().decode()


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def test_the_micro_cache_keeps_public_pages_and_never_a_personal_answer(
    proxy, event, ash, misty, round_one
):
    pairings = reverse("round-pairings", args=[event.pk, 1])
    me = reverse("event-me", args=[event.pk]) + "?round=1"
    ash_session, misty_session = session_of(ash.user), session_of(misty.user)

    _, first, body = fetch(proxy.port, pairings, session=ash_session)
    _, second, again = fetch(proxy.port, pairings, session=misty_session)
    assert first["X-Cache"] == "MISS" and second["X-Cache"] == "HIT" and body == again

    for _ in range(2):  # asked twice each: never kept, never another's
        _, head, ash_me = fetch(proxy.port, me, session=ash_session)
        assert head["X-Cache"] != "HIT" and '"opponent": "Misty Waterflower"' in ash_me
        _, head, misty_me = fetch(proxy.port, me, session=misty_session)
        assert head["X-Cache"] != "HIT" and '"opponent": "Ash Ketchum"' in misty_me
    for _ in range(2):  # a search is the player's own page
        _, head, found = fetch(proxy.port, pairings + "?find=Gary", session=ash_session)
        assert head["X-Cache"] != "HIT" and "Your table" in found


def test_a_copy_served_stale_never_shows_a_result_older_than_the_version_it_names(
    proxy, event, round_one
):
    pairings = reverse("round-pairings", args=[event.pk, 1])
    _, head, body = fetch(proxy.port, pairings)
    old = int(head["X-Event-Version"])
    assert "Brock Harrison won" not in body
    match = Match.objects.get(round=round_one, table=2)
    match.status, match.result, match.a_game_wins = Match.Status.FINAL, Match.Result.A, 2
    match.save()  # committed, then the version is bumped
    seen = []
    deadline = time.monotonic() + public_pages.SHARED_MAX_AGE + 15
    while time.monotonic() < deadline:
        _, head, body = fetch(proxy.port, pairings)
        named = int(re.search(r'data-event-version="(\d+)"', body).group(1))
        assert named == int(head["X-Event-Version"])
        seen.append((head["X-Cache"], named))
        # What the page shows is the state at the version it names, or newer; never older.
        if named > old:
            assert "Brock Harrison won 2–0" in body
        if "Brock Harrison won" in body and named > old:
            break
        time.sleep(0.5)
    assert seen[-1][1] > old, seen
    assert any(cache in ("HIT", "STALE", "UPDATING") and named == old for cache, named in seen)


def test_the_micro_cache_keeps_one_copy_per_language_whatever_the_phone_sends(
    proxy, event, round_one, settings, monkeypatch
):
    """The key holds the language as the site picks it (the cookie, else Accept-Language):
    a French reader never gets the English copy, and two phones asking for French in
    different words share one copy."""
    from django.utils.translation import trans_real

    settings.LANGUAGES = [
        ("en", "English"), ("fr", "Français"), ("de", "Deutsch"),
        ("it", "Italiano"), ("es", "Español"), ("pt-br", "Português (Brasil)"),
    ]  # fmt: skip
    # Until the catalogues exist Django falls back to English for every language.
    monkeypatch.setattr(trans_real, "check_for_language", lambda code: True)
    pairings = reverse("round-pairings", args=[event.pk, 1])

    def ask(accept: str = "", cookie: str = "") -> tuple[str, str, str]:
        headers = {"Accept-Language": accept} if accept else {}
        if cookie:
            headers["Cookie"] = f"django_language={cookie}"
        _, head, body = fetch(proxy.port, pairings, headers=headers)
        return head["X-Cache"], head["Content-Language"], body

    assert ask("en-GB,en;q=0.9")[:2] == ("MISS", "en")
    assert ask()[:2] == ("HIT", "en")
    assert ask("fr-FR,fr;q=0.9,en;q=0.8")[:2] == ("MISS", "fr")  # not the English copy
    assert ask("fr-CA")[:2] == ("HIT", "fr")
    assert ask("en-US", cookie="fr")[:2] == ("HIT", "fr")  # the cookie first
    assert ask("xx-YY, de;q=0.7")[:2] == ("MISS", "de")  # the first of the six listed
    assert ask("pt-PT,pt;q=0.9")[:2] == ("MISS", "pt-br")
    assert ask("pt-BR")[:2] == ("HIT", "pt-br")
    assert ask("nl", cookie="nl")[:2] == ("HIT", "en")  # neither is one of the six
