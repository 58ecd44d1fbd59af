"""Issue 27, "Also": unsubscribe links show no user id and expire."""

from __future__ import annotations

import base64
import json
import time

import pytest
from django.urls import reverse

from notifications import services
from notifications import unsubscribe as links

pytestmark = pytest.mark.django_db


def _link(user, kind="pairings_published") -> str:
    return reverse("notification-unsubscribe", args=[links.make_token(user.pk, kind)])


def test_a_link_shows_no_user_id(make_user):
    ash = make_user(username="ash")
    token = links.make_token(ash.pk, "pairings_published")
    assert links.read_token(token) == (ash.pk, "pairings_published")
    decoded = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    # Encrypted: neither the kind nor the JSON with the id is in it (random bytes are).
    assert b"pairings_published" not in decoded and f"[{ash.pk},".encode() not in decoded
    # Two links for the same user and kind do not even look alike.
    assert token != links.make_token(ash.pk, "pairings_published")


def test_an_expired_link_is_refused_with_a_way_forward(make_user, client, settings):
    ash = make_user(username="ash")
    days = settings.UNSUBSCRIBE_LINK_DAYS
    made_at = int(time.time()) - (days + 1) * 24 * 3600  # a link from an e-mail too old
    payload = json.dumps([ash.pk, "pairings_published"]).encode()
    old = links._fernet().encrypt_at_time(payload, made_at).decode().rstrip("=")
    with pytest.raises(links.ExpiredToken):
        links.read_token(old)
    response = client.post(reverse("notification-unsubscribe", args=[old]))
    assert response.status_code == 400
    assert "expired" in response.content.decode()
    assert "pairings_published" in services.email_kinds_for(ash)
    assert client.post(_link(ash)).status_code == 200  # a link of today works
    assert "pairings_published" not in services.email_kinds_for(ash)


def test_a_link_made_with_another_key_or_changed_is_refused(make_user, client, settings):
    ash = make_user(username="ash")
    token = links.make_token(ash.pk, "pairings_published")
    changed = token[:-6] + ("A" if token[-6] != "A" else "B") + token[-5:]
    assert client.post(reverse("notification-unsubscribe", args=[changed])).status_code == 400
    settings.SECRET_KEY = "another-" + settings.SECRET_KEY
    assert client.get(reverse("notification-unsubscribe", args=[token])).status_code == 400
