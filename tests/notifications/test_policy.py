"""The mail policy and the outbox, in-process: headers, unsubscribe, leases, the relay."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from notifications import delivery, outbox, services, tasks
from notifications.models import EmailStatus, Notification, OutboxTask

from .helpers import hold_lock_elsewhere, item

pytestmark = pytest.mark.django_db


def test_headers_greeting_and_one_click_unsubscribe(
    make_user, mailoutbox, client, django_capture_on_commit_callbacks
):
    ash = make_user(username="ash", first_name="Ash", last_name="Ketchum")
    with django_capture_on_commit_callbacks(execute=True):
        services.notify(kind="pairings_published", items=[item(ash, "p:1")])
    message = mailoutbox[0]
    notification = Notification.objects.get()
    assert "Hello Ash Ketchum," in message.body
    assert message.extra_headers["Message-ID"] == delivery.message_id(notification)
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in message.body

    path = link.removeprefix("https://league.example.org")
    assert client.get(path).status_code == 200  # asks to confirm: scanners open links
    assert "pairings_published" in services.email_kinds_for(ash)
    assert client.post(path).status_code == 200  # no login, no CSRF token (RFC 8058)
    assert "pairings_published" not in services.email_kinds_for(ash)
    assert "deck_verdict" in services.email_kinds_for(ash)
    bad = reverse("notification-unsubscribe", args=["forged:token"])
    assert client.post(bad).status_code == 400


def test_message_id_is_the_same_for_every_attempt(make_user):
    ash = make_user()
    services.notify(kind="event_starting", items=[item(ash, "same")])
    notification = Notification.objects.get()
    first = delivery.build_email(notification, ash.email).extra_headers["Message-ID"]
    again = Notification.objects.get().pk
    assert first == delivery.message_id(Notification.objects.get(pk=again))


def test_a_row_in_a_live_attempt_is_skipped_and_taken_once_its_lease_expires(make_user, mailoutbox):
    ash = make_user()
    services.notify(kind="event_starting", items=[item(ash, "leased")])
    now = timezone.now()
    Notification.objects.update(
        email_attempts=1,
        email_lease_until=now + timedelta(minutes=1),
        created_at=now - timedelta(minutes=5),
    )
    assert list(outbox.due_emails()) == []
    assert tasks.send_emails.delay([Notification.objects.get().pk]).get()["sent"] == []

    Notification.objects.update(email_lease_until=now - timedelta(seconds=1))
    assert outbox.relay()["emails"] == 1
    row = Notification.objects.get()
    assert (row.email_status, row.email_attempts, len(mailoutbox)) == (EmailStatus.SENT, 2, 1)


def test_a_standings_request_never_dispatched_is_run_by_the_relay(make_event, staff, monkeypatch):
    from matches import services as match_services
    from matches.models import StandingsSnapshot

    event, _ = make_event(players=4)
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    # The after-commit dispatch is lost (no on_commit callbacks run in this test).
    match_services.request_standings(event=event, round_number=round_.number)
    entry = OutboxTask.objects.get(task="matches.recompute_standings")
    assert entry.done_at is None and not StandingsSnapshot.objects.filter(event=event).exists()

    OutboxTask.objects.update(due_at=timezone.now() - timedelta(minutes=1))
    assert outbox.relay()["tasks"] == 1
    entry.refresh_from_db()
    assert entry.done_at is not None
    assert StandingsSnapshot.objects.filter(event=event, round_number=1).exists()
    assert outbox.relay()["tasks"] == 0


@pytest.mark.django_db(transaction=True)
def test_an_outbox_task_its_dispatcher_marks_meanwhile_is_run_not_skipped():
    entry = OutboxTask.objects.create(task="league.ping")

    def dispatcher_marks_it_dispatched():  # `_send_entry`, just after publishing
        OutboxTask.objects.filter(pk=entry.pk).update(dispatched_at=timezone.now())

    holder = hold_lock_elsewhere(dispatcher_marks_it_dispatched, 0.5)
    assert outbox.run_entry(entry.pk) == "done"
    holder.join()
    entry.refresh_from_db()
    assert entry.done_at is not None and entry.attempts == 1


def test_stale_pending_rows_fail_with_an_error_log(make_user, caplog, settings):
    settings.NOTIFICATION_RETRY_BUDGET_HOURS = 1
    ash = make_user()
    services.notify(kind="event_starting", items=[item(ash, "old")])
    Notification.objects.update(created_at=timezone.now() - timedelta(hours=2))
    outbox.relay()
    assert Notification.objects.get().email_status == EmailStatus.FAILED
    assert any(r.levelname == "ERROR" for r in caplog.records)


def test_notifications_status_command(make_user):
    ash = make_user()
    services.notify(kind="event_starting", items=[item(ash, "a"), item(ash, "b")])
    Notification.objects.filter(key="b").update(email_status=EmailStatus.FAILED)
    out = StringIO()
    call_command("notifications_status", stdout=out)
    text = out.getvalue()
    assert "pending: 1" in text and "failed: 1" in text
    assert "oldest pending: " in text and "broker reachable: " in text


def test_dashboard_mail_status_and_retry(client, make_event, staff, settings):
    from matches import services as match_services

    event, _ = make_event(players=4)
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    match_services.publish_round(round_=round_, by_user=staff)
    Notification.objects.filter(key__startswith=f"pairings:round:{round_.pk}:").update(
        email_status=EmailStatus.FAILED
    )
    client.force_login(staff)
    page = client.get(reverse("event-dashboard", args=[event.pk])).content.decode()
    assert "0 sent" in page and "4 failed" in page
    response = client.post(reverse("round-mail-retry", args=[event.pk, round_.number]))
    assert response.status_code == 302
    assert not Notification.objects.filter(email_status=EmailStatus.FAILED).exists()
