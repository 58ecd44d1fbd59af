"""403, 404 and 500 are pages in the site's frame (its header, the stylesheet), with the
reason the code gave and a way on: back, home, and "Log in" for someone not signed in.
DEBUG is off here (pytest-django), as on the site."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings

from config import error_pages
from league.models import Event
from tests.pages.conftest import registration_of

pytestmark = pytest.mark.django_db

FRAME = 'header class="site"'


def test_a_refused_decklist_says_why_in_the_sites_frame(client, event, ash, misty):
    event.decklists_open = Event.DecklistsOpen.NEVER
    event.save()
    client.force_login(misty.user)
    url = f"/events/{event.pk}/decks/{registration_of(ash, event).pk}/"
    response = client.get(url, HTTP_REFERER=f"http://testserver/events/{event.pk}/")
    page = response.content.decode()
    assert response.status_code == 403
    assert FRAME in page and "<style>" in page
    assert "Decklists are private until the organiser publishes them." in page
    assert f'href="http://testserver/events/{event.pk}/">Back</a>' in page
    assert 'href="/">Home</a>' in page and 'href="/me/">My events</a>' in page


def test_a_403_to_someone_signed_out_offers_to_log_in(db, rf):
    # Pages send a signed-out visitor to the login page themselves; a refusal that reaches
    # the handler anyway offers it, coming back here.
    request = rf.get("/events/1/decks/2/")
    request.user = AnonymousUser()
    request.csp_nonce = "n"
    response = error_pages.permission_denied(request, PermissionDenied("Staff only."))
    page = response.content.decode()
    assert response.status_code == 403 and "Staff only." in page
    assert 'href="/accounts/login/?next=/events/1/decks/2/"' in page


def test_a_staff_page_refused_to_a_player_names_the_role(client, league, ash):
    client.force_login(ash.user)
    response = client.get(f"/leagues/{league.slug}/staff/")
    assert response.status_code == 403
    page = response.content.decode()
    assert FRAME in page and "Only the league&#x27;s organisers manage its staff." in page


def test_a_404_gives_the_codes_reason_or_a_plain_one(client, event):
    response = client.get(f"/events/{event.pk}/rounds/99/")
    page = response.content.decode()
    assert response.status_code == 404 and FRAME in page
    assert "We couldn&#x27;t find this page" in page
    unknown = client.get("/events/999999/")  # get_object_or_404's message names a model
    assert unknown.status_code == 404
    text = unknown.content.decode()
    assert "matches the given query" not in text and "The address may be mistyped" in text
    assert 'href="/">Home</a>' in text
    nowhere = client.get("/no/such/address/")
    assert nowhere.status_code == 404 and FRAME in nowhere.content.decode()


def test_the_api_keeps_answering_json():
    response = Client().get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"code": "not-found", "detail": "Not found."}


@override_settings(ROOT_URLCONF="tests.pages.error_urls", DEBUG=False)
def test_a_500_is_a_page_in_the_frame_with_a_way_on(db):
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    page = response.content.decode()
    assert response.status_code == 500
    assert FRAME in page and "Something went wrong on our side" in page
    assert "a bug" not in page  # the exception stays in the log
    assert 'href="/">Home</a>' in page
