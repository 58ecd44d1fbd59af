"""The profile form's language (issue 33): chosen from the site's six, blank for the
browser's; saving it makes it the reader's language at once (the cookie) and keeps it for
the player's e-mails (`Player.language`)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _profile(player, **changes) -> dict:
    return {
        "name": player.name,
        "player_id": player.player_id,
        "birth_date": player.birth_date.isoformat(),
        "email": player.user.email,
        **changes,
    }


def test_the_profile_form_offers_the_six_languages_and_the_browsers(client, ash):
    client.force_login(ash.user)
    page = client.get(reverse("profile")).content.decode()
    assert '<select name="language"' in page and 'id="id_language"' in page
    assert '<option value="" selected>The browser&#x27;s language</option>' in page
    for code, name in settings.LANGUAGES:
        assert f'<option value="{code}">{name}</option>' in page


def test_a_language_chosen_on_the_profile_is_kept_and_used_at_once(client, ash):
    client.force_login(ash.user)
    response = client.post(reverse("profile"), _profile(ash, language="pt-br"))
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pt-br"
    ash.refresh_from_db()
    assert ash.language == "pt-br"
    page = client.get(reverse("profile"))
    assert page["Content-Language"] == "pt-br"
    assert '<option value="pt-br" selected>' in page.content.decode()


def test_blank_is_the_browsers_language_again(client, ash):
    ash.language = "de"
    ash.save(update_fields=["language"])
    client.force_login(ash.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.post(reverse("profile"), _profile(ash, language=""))
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""  # deleted
    ash.refresh_from_db()
    assert ash.language == ""
    page = client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="it")
    assert page["Content-Language"] == "it"


def test_a_language_the_site_has_not_is_refused(client, ash):
    client.force_login(ash.user)
    response = client.post(reverse("profile"), _profile(ash, language="ja"))
    assert response.status_code == 200  # the form again, with its error
    ash.refresh_from_db()
    assert ash.language == ""


def test_a_language_picked_with_the_switcher_is_where_the_profile_form_starts(client, ash):
    client.force_login(ash.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"  # picked before signing in
    page = client.get(reverse("profile")).content.decode()
    assert '<option value="es" selected>' in page
