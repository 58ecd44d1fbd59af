"""Debian's Chromium, driven by Playwright (never a downloaded browser), and a place for
screenshots (`var/screenshots/`, git-ignored)."""

import os
from pathlib import Path

import pytest
from django.db import connections

from tests.conftest import ROOT

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SHOTS = ROOT / "var" / "screenshots"
# As the machine notes say: headless Chromium as root, without the background networking
# that a closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip


@pytest.fixture
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does it)")
    from playwright.sync_api import sync_playwright

    # Playwright runs an event loop in this thread; the tests' ORM calls stay synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # While Playwright's loop runs, Django's connections are per asyncio context: the
        # test's queries used a connection of their own, which nobody else would close.
        connections.close_all()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


@pytest.fixture(scope="session")
def site(django_db_setup, live_server):
    """pytest-django's live server, started after the test database exists, so that it is
    stopped (and its connections closed) before the database is dropped."""
    return live_server
