"""Debian's Chromium, driven by Playwright (never a downloaded browser), and a place for
screenshots (`var/screenshots/`, git-ignored)."""

import os
from pathlib import Path

import pytest

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
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)
