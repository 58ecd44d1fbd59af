"""Personal API tokens (profile page, hashed at rest), no Basic auth, `Idempotency-Key` on
API writes, and an identical repeated report that changes nothing and tells nobody."""

import base64
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.models import ApiToken
from league.services.tokens import hash_key
from matches import services
from matches.models import ResultReport
from notifications.models import Notification
from tests.factories import user_of

pytestmark = pytest.mark.django_db


def wins(match, side="a") -> dict:
    return {"games": [{"outcome": side}] * (match.round.event.best_of // 2 + 1)}


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def posted(make_event, staff):
    event, _ = make_event(players=2)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    return round_.matches.get()


def test_a_token_is_made_on_the_profile_page_shown_once_stored_hashed_and_revoked(client, posted):
    user = user_of(posted.player_a)
    client.force_login(user)
    page = client.post(reverse("profile-tokens"), {"name": "my script"}).content.decode()
    key = re.search(r"shown only this once:</strong><br><code>([^<]+)</code>", page).group(1)
    token = ApiToken.objects.get(user=user)
    assert token.key_hash == hash_key(key) and key not in (token.key_hash, token.prefix)
    assert key not in client.get(reverse("profile")).content.decode()  # never shown again
    url = f"/api/matches/{posted.pk}/report/"
    report = wins(posted)
    assert token_client(key).post(url, report, format="json").status_code == 200
    assert ApiToken.objects.get(pk=token.pk).last_used_at is not None
    client.post(reverse("profile-tokens"), {"revoke": token.pk})
    assert not ApiToken.objects.exists()
    assert token_client(key).post(url, report, format="json").status_code == 401


def test_basic_auth_is_not_accepted_and_the_schema_documents_tokens(posted):
    user = user_of(posted.player_a)
    user.set_password("a-long-password-1")
    user.save()
    basic = APIClient()
    raw = base64.b64encode(f"{user.username}:a-long-password-1".encode()).decode()
    basic.credentials(HTTP_AUTHORIZATION=f"Basic {raw}")
    answer = basic.post(f"/api/matches/{posted.pk}/report/", {"games": []}, format="json")
    assert answer.status_code in (401, 403)
    schema = APIClient().get("/api/schema/?format=json").json()
    assert schema["components"]["securitySchemes"]["tokenAuth"]["name"] == "Authorization"
    assert "basicAuth" not in schema["components"]["securitySchemes"]


def test_a_write_retried_with_its_idempotency_key_answers_as_the_first_did(posted):
    from league.services.tokens import create_api_token

    _, key = create_api_token(user=user_of(posted.player_a), name="app")
    api = token_client(key)
    url = f"/api/matches/{posted.pk}/report/"
    report = wins(posted)
    first = api.post(url, report, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = api.post(url, report, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 200
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    other = api.post(url, wins(posted, "b"), format="json",
                     HTTP_IDEMPOTENCY_KEY="k-1")  # fmt: skip
    assert other.status_code == 422 and other.json()["code"] == "idempotency-key-reused"
    assert ResultReport.objects.filter(match=posted).count() == 1


@pytest.mark.parametrize("through", ["page", "api"])
def test_an_identical_repeated_report_changes_nothing_and_notifies_nobody(
    client, posted, through, django_capture_on_commit_callbacks
):
    user = user_of(posted.player_a)
    opponent = user_of(posted.player_b)

    def report():
        with django_capture_on_commit_callbacks(execute=True):
            if through == "page":
                client.force_login(user)
                data = {}
                for i in range(1, len(wins(posted)["games"]) + 1):
                    data |= {f"game_{i}": "me", f"reason_{i}": "played"}
                return client.post(reverse("match-report", args=[posted.pk]), data)
            api = APIClient()
            api.force_authenticate(user)
            return api.post(f"/api/matches/{posted.pk}/report/", wins(posted), format="json")

    assert report().status_code in (200, 302)
    reports = list(ResultReport.objects.filter(match=posted).values_list("pk", "superseded"))
    told = Notification.objects.filter(recipient=opponent, kind="result_reported").count()
    assert told == 1
    assert report().status_code in (200, 302)
    assert list(ResultReport.objects.filter(match=posted).values_list("pk", "superseded")) == (
        reports
    )
    assert Notification.objects.filter(recipient=opponent, kind="result_reported").count() == 1


def test_a_cached_token_is_refused_at_once_when_revoked_deactivated_or_its_user_deleted(posted):
    """The token and its user come from the cache after the first use; a revoke, a
    deactivated account and a deleted user are seen by the very next request, and a read
    that raced the revoke cannot put the token back."""
    from django.core.cache import cache

    from league.services.tokens import create_api_token, revoke_api_token, token_key, user_for_key

    user = user_of(posted.player_a)
    url = f"/api/matches/{posted.pk}/"
    token, key = create_api_token(user=user, name="app")
    assert token_client(key).get(url).status_code == 200
    kept = cache.get(token_key(token.key_hash))
    assert kept["user"] == user.pk
    user.is_active = False
    user.save()
    assert token_client(key).get(url).status_code == 401
    user.is_active = True
    user.save()
    assert token_client(key).get(url).status_code == 200
    assert revoke_api_token(user=user, token_id=token.pk)
    assert token_client(key).get(url).status_code == 401
    cache.add(token_key(token.key_hash), kept, 300)  # a read that raced the revoke
    assert user_for_key(key) is None
    token, key = create_api_token(user=user, name="app 2")
    assert user_for_key(key) == user
    user.delete()
    assert token_client(key).get(url).status_code == 401


def test_a_busy_token_is_marked_used_at_most_once_a_minute(posted):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league.services.tokens import create_api_token, user_for_key

    token, key = create_api_token(user=user_of(posted.player_a), name="app")
    with CaptureQueriesContext(connection) as first:
        assert user_for_key(key) is not None
    assert len(first) == 2  # the token with its user; last_used_at
    used = ApiToken.objects.get(pk=token.pk).last_used_at
    with CaptureQueriesContext(connection) as again:
        for _ in range(3):
            assert user_for_key(key) is not None
    assert len(again) == 0
    assert ApiToken.objects.get(pk=token.pk).last_used_at == used


def test_with_a_worker_a_use_is_marked_in_the_cache_and_the_worker_writes_it(posted):
    """With a worker, a lookup writes nothing: the use waits in the cache for the worker's
    `write_uses` (every minute), which writes it once; a use a minute later is marked and
    written again. The answer costs the request what a session read costs."""
    from datetime import timedelta

    from celery import current_app
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from league.services.tokens import create_api_token, token_key, user_for_key, write_uses

    current_app.conf.task_always_eager = False  # the root conftest restores it
    token, key = create_api_token(user=user_of(posted.player_a), name="app")
    with CaptureQueriesContext(connection) as first:
        assert user_for_key(key) is not None
    assert len(first) == 1  # the token with its user, and no write
    assert ApiToken.objects.get(pk=token.pk).last_used_at is None
    assert write_uses() == 1
    used = ApiToken.objects.get(pk=token.pk).last_used_at
    assert timezone.now() - used < timedelta(seconds=30)
    assert write_uses() == 0  # a mark written is not written again

    # A minute later the cached token is used again: marked once, written once.
    slot = token_key(hash_key(key))
    cache.set(slot, {**cache.get(slot), "used": used.timestamp() - 120})
    with CaptureQueriesContext(connection) as later:
        for _ in range(3):
            assert user_for_key(key) is not None
    assert len(later) == 0
    assert write_uses() == 1
    assert ApiToken.objects.get(pk=token.pk).last_used_at > used
    from league.tasks import write_token_uses

    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert write_token_uses.name in beat  # the worker's every minute
