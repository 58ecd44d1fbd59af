"""Issue 33's mechanisms, with Django's own catalogues (ours are filled later): the reader's
language from the browser, the switcher on every page kept on the profile, the profile's
language at log-in, notifications and e-mails in the recipient's language and the event's
time zone, and the paper printed in the event's language."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation

from league.models import Player
from notifications.delivery import build_email
from notifications.language import for_user, in_event_language, in_recipients_language
from notifications.models import Notification

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db


def test_the_page_follows_the_browsers_language(client):
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")
    assert response.status_code == 200
    assert response["Content-Language"] == "fr"
    assert '<html lang="fr">' in response.content.decode()
    assert "Accept-Language" in response["Vary"]
    # Brazilian Portuguese is its own language; a language the site has not falls back.
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert response["Content-Language"] == "pt-br"
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="ja")
    assert response["Content-Language"] == "en" and '<html lang="en">' in response.content.decode()


def test_every_page_has_the_switcher_without_javascript(client):
    page = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("set_language")}"' in page
    assert '<select name="language" id="site-language">' in page
    for code, name in settings.LANGUAGES:
        assert f'<option value="{code}" lang="{code}"' in page and name in page
    assert '<option value="en" lang="en" selected>English</option>' in page


def test_the_switcher_sets_the_language_and_keeps_it_on_the_profile(client, ash):
    client.force_login(ash.user)
    response = client.post(
        reverse("set_language"), {"language": "de", "next": reverse("my-events")}
    )
    assert response.status_code == 302 and response["Location"] == reverse("my-events")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    ash.refresh_from_db()
    assert ash.language == "de"
    page = client.get(reverse("my-events"))
    assert page["Content-Language"] == "de" and '<html lang="de">' in page.content.decode()
    # Someone not signed in: the cookie only.
    client.logout()
    response = client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    ash.refresh_from_db()
    assert ash.language == "de"
    # Not one of the site's languages: nothing changes.
    client.force_login(ash.user)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    ash.refresh_from_db()
    assert ash.language == "de"


def test_another_site_cannot_change_the_profiles_language(ash):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ash.user)
    response = browser.post(reverse("set_language"), {"language": "it", "next": "/"})
    # The cookie is set (public round pages carry no token), the profile is not written.
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    ash.refresh_from_db()
    assert ash.language == ""


def test_logging_in_brings_the_profiles_language(client, ash):
    ash.user.set_password("pikachu-thunder-1")
    ash.user.save()
    Player.objects.filter(pk=ash.pk).update(language="it")
    response = client.post(
        reverse("login"),
        {"username": ash.user.username, "password": "pikachu-thunder-1"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    assert page["Content-Language"] == "it"


def test_the_login_pages_sign_up_link_keeps_next(client):
    page = client.get(reverse("login"), {"next": "/events/1/"}).content.decode()
    assert f'<a href="{reverse("signup")}?next=/events/1/">Sign up</a>' in page


def test_the_event_form_sets_the_events_language(client, event, organiser):
    assert event.language == settings.LANGUAGE_CODE
    client.force_login(organiser)
    page = client.get(reverse("event-edit", args=[event.pk])).content.decode()
    assert 'name="language"' in page and "Português (Brasil)" in page


# --- Writing to people --------------------------------------------------------------------


def test_the_recipients_language_then_the_events_then_the_sites(ash, event):
    assert for_user(ash.user, event) == "en"
    event.language = "es"
    assert for_user(ash.user, event) == "es"
    assert for_user(None, event) == "es"
    ash.language = "de"
    assert for_user(ash.user, event) == "de" and for_user(ash, event) == "de"
    assert for_user(None, None) == settings.LANGUAGE_CODE


def test_words_and_times_in_the_recipients_language_and_the_events_zone(ash, event):
    ash.language = "de"
    ash.save(update_fields=["language"])
    event.time_zone = "America/Sao_Paulo"  # UTC-3
    moment = dt.datetime(2026, 3, 14, 18, 30, tzinfo=dt.UTC)  # a Saturday
    with in_recipients_language(ash.user, event) as language:
        assert language == "de" and translation.get_language() == "de"
        written = formats.date_format(timezone.localtime(moment), "l j. F Y, H:i")
    assert written == "Samstag 14. März 2026, 15:30"
    # Back to the reader's language and the site's zone after the block.
    assert translation.get_language() != "de"
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE


def test_the_email_is_rendered_in_the_recipients_language(ash):
    Player.objects.filter(pk=ash.pk).update(language="de")
    ash.user.refresh_from_db()
    notification = Notification.objects.create(
        recipient=ash.user, kind="pairings_published", key="test:de", subject="S", body="B"
    )
    seen = {}
    real = build_email.__globals__["render_to_string"]

    def spy(names, context=None, *args, **kwargs):
        seen[names[-1]] = (translation.get_language(), formats.date_format(dt.date(2026, 3, 1)))
        return real(names, context, *args, **kwargs)

    with mock.patch("notifications.delivery.render_to_string", spy):
        message = build_email(notification, "ash@example.org")
    assert seen == {
        "notifications/email/default.txt": ("de", "1. März 2026"),
        "notifications/email/default.html": ("de", "1. März 2026"),
    }
    html = message.alternatives[0][0]
    assert '<html lang="de">' in html
    assert translation.get_language() == "en"


# --- Paper --------------------------------------------------------------------------------


def test_the_paper_is_printed_in_the_events_language_and_zone(client, event, organiser, ash, misty):
    event.language = "fr"
    event.time_zone = "Europe/Paris"
    event.save(update_fields=["language", "time_zone"])
    make_round(event, [(registration_of(ash, event), registration_of(misty, event))])
    seen = []
    from matches.views import paper

    real = paper.slips_pdf

    def spy(*args, **kwargs):
        seen.append((translation.get_language(), timezone.get_current_timezone_name()))
        return real(*args, **kwargs)

    client.force_login(organiser)
    with mock.patch.object(paper, "slips_pdf", spy):
        response = client.get(
            reverse("round-paper", args=[event.pk, 1, "slips"]), HTTP_ACCEPT_LANGUAGE="de"
        )
    assert response.status_code == 200
    assert seen == [("fr", "Europe/Paris")]


def test_a_deck_sheet_dates_in_the_events_language(event, ash):
    event.language = "de"
    event.save(update_fields=["language"])
    with in_event_language(event):
        assert formats.date_format(dt.date(2026, 12, 24), "j F Y") == "24 Dezember 2026"
        assert timezone.get_current_timezone() == zoneinfo.ZoneInfo(event.zone)


def test_the_standings_table_is_kept_per_language(client, event, snapshots):
    """The Swiss standings table is rendered once per snapshot and kept in the shared
    cache; its headings are words, so it is kept per language: a Spanish reader after an
    English one sees Spanish headings, and the English reader after them still English.
    (The first cut kept one table per snapshot, in whichever language asked first.)"""
    url = reverse("event-standings", args=[event.pk]) + "?round=1"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    with translation.override("es"):
        rank, player = translation.gettext("Rank"), translation.gettext("Player")
    assert (rank, player) != ("Rank", "Player")
    assert f">{rank}</th><th>{player}</th>" in spanish
    assert ">Rank</th><th>Player</th>" in english
    assert (
        ">Rank</th><th>Player</th>" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
