from datetime import timedelta

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from notifications import services
from notifications.context_processors import unread
from notifications.models import EmailStatus, Notification

from .helpers import item

pytestmark = pytest.mark.django_db


@pytest.fixture
def ash(make_user, client):
    user = make_user(username="ash")
    client.force_login(user)
    return user


def notify(user, *keys, kind="pairings_published"):
    services.notify(kind=kind, items=[item(user, key) for key in keys])
    return {n.key: n for n in Notification.objects.filter(key__in=keys)}


def test_inbox_needs_a_login(client):
    response = client.get(reverse("inbox"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_inbox_lists_entries_newest_first_with_unread_highlighted_and_the_header_count(
    client, ash, make_user
):
    rows = notify(ash, "old", "new", "read")
    Notification.objects.filter(key="old").update(created_at=timezone.now() - timedelta(days=1))
    services.mark_read(user=ash, notification_ids=[rows["read"].pk])
    notify(make_user(), "someone-else")

    response = client.get(reverse("inbox"))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Subject new" in page and "Subject old" in page and "Subject read" in page
    assert "Subject someone-else" not in page
    assert page.index("Subject new") < page.index("Subject old")
    assert page.count('class="notification unread"') == 2
    assert page.count('class="notification"') == 1
    assert response.context["unread_notifications"] == 2
    assert '<span class="badge" title="unread">2</span>' in page
    assert 'href="/events/1/"' in page


def test_mark_one_read_then_all(client, ash, make_user):
    rows = notify(ash, "a", "b", "c")
    other = notify(make_user(), "other")["other"]

    response = client.post(reverse("inbox-mark-read"), {"id": [rows["a"].pk, other.pk]})
    assert response.status_code == 302
    assert response["Location"] == reverse("inbox")
    assert services.unread_count(ash) == 2
    assert Notification.objects.get(pk=other.pk).read_at is None

    response = client.post(reverse("inbox-mark-read"), {"all": "1"}, follow=True)
    assert services.unread_count(ash) == 0
    assert response.context["unread_notifications"] == 0
    assert "Marked 2 notifications as read." in response.content.decode()
    assert 'class="badge"' not in response.content.decode()


def test_mark_read_redirects_to_a_safe_next_only(client, ash):
    rows = notify(ash, "a", "b")
    response = client.post(
        reverse("inbox-mark-read"), {"id": rows["a"].pk, "next": "/inbox/?page=2"}
    )
    assert response["Location"] == "/inbox/?page=2"
    response = client.post(
        reverse("inbox-mark-read"), {"id": rows["b"].pk, "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("inbox")


def test_mark_read_refuses_get_and_bad_input(client, ash):
    assert client.get(reverse("inbox-mark-read")).status_code == 405
    assert client.post(reverse("inbox-mark-read"), {}).status_code == 400
    assert client.post(reverse("inbox-mark-read"), {"id": "x"}).status_code == 400
    assert client.post(reverse("inbox-mark-read"), {"id": str(2**70)}).status_code == 400


def test_inbox_is_paginated_with_a_bounded_number_of_queries(
    client, ash, django_assert_max_num_queries
):
    notify(ash, *[f"n{i}" for i in range(30)])
    with django_assert_max_num_queries(8):
        first = client.get(reverse("inbox"))
    assert len(first.context["page"].object_list) == 25
    second = client.get(reverse("inbox"), {"page": 2})
    assert len(second.context["page"].object_list) == 5
    assert "Page 2 of 2" in second.content.decode()


def test_preferences_page_shows_defaults_and_saves(client, ash):
    url = reverse("notification-preferences")
    page = client.get(url).content.decode()
    assert page.count('type="checkbox"') == 13
    # everything but the round clock and judge calls (to staff, and "taken" to the caller)
    assert page.count("checked") == 10
    assert 'value="round_clock"' in page and 'value="webhook_paused"' in page
    assert 'value="penalty"' in page and 'value="result_changed"' in page

    response = client.post(url, {"kinds": ["deck_verdict", "round_clock"]}, follow=True)
    assert response.status_code == 200
    assert "E-mail preferences saved." in response.content.decode()
    assert services.email_kinds_for(ash) == ["deck_verdict", "round_clock"]

    response = client.post(url, {"kinds": ["nope"]})
    assert response.status_code == 200
    assert services.email_kinds_for(ash) == ["deck_verdict", "round_clock"]


def test_context_processor_for_anonymous_and_logged_in(make_user):
    from django.contrib.auth.models import AnonymousUser

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    assert unread(request) == {"unread_notifications": 0}
    user = make_user()
    notify(user, "x", "y")
    request = RequestFactory().get("/")  # the count is asked once per request
    request.user = user
    assert unread(request) == {"unread_notifications": 2}


def test_admin_filters_failed_notifications(admin_client, make_user):
    user = make_user()
    rows = notify(user, "ok", "bad")
    Notification.objects.filter(pk=rows["bad"].pk).update(
        email_status=EmailStatus.FAILED, email_error="SMTPServerDisconnected: gone"
    )
    response = admin_client.get(
        reverse("admin:notifications_notification_changelist"), {"email_status": "failed"}
    )
    assert response.status_code == 200
    assert [n.key for n in response.context["cl"].result_list] == ["bad"]
