from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from notifications import delivery, services, tasks
from notifications.models import (
    DEFAULT_EMAIL_KINDS,
    EmailPreference,
    EmailStatus,
    Notification,
    NotificationKind,
)
from notifications.services import NotificationItem
from rules.errors import DomainError

from .helpers import item

pytestmark = pytest.mark.django_db


def test_notify_twice_with_the_same_keys_writes_and_emails_once(
    make_user, mailoutbox, django_capture_on_commit_callbacks
):
    ash, misty = make_user(), make_user()
    items = [item(ash, "pairings:round:1:user:a"), item(misty, "pairings:round:1:user:m")]

    with django_capture_on_commit_callbacks(execute=True):
        first = services.notify(kind=NotificationKind.PAIRINGS_PUBLISHED, items=items)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        second = services.notify(kind="pairings_published", items=items)

    assert (first, second) == (2, 0)
    assert callbacks == []
    assert Notification.objects.count() == 2
    assert sorted(m.to[0] for m in mailoutbox) == sorted([ash.email, misty.email])
    assert set(Notification.objects.values_list("email_status", flat=True)) == {EmailStatus.SENT}


def test_repeated_key_within_one_call_keeps_the_first(
    make_user, django_capture_on_commit_callbacks
):
    ash = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        count = services.notify(
            kind="result_reported",
            items=[item(ash, "k", subject="First"), item(ash, "k", subject="Second")],
        )
    assert count == 1
    assert Notification.objects.get().subject == "First"


def test_notify_skips_unknown_recipients_and_refuses_unknown_kinds(make_user):
    ash = make_user()
    ghost = NotificationItem(recipient_id=ash.pk + 10_000, key="ghost", subject="s", body="b")
    assert services.notify(kind="event_starting", items=[ghost, item(ash, "real")]) == 1
    with pytest.raises(ValueError):
        services.notify(kind="no_such_kind", items=[item(ash, "x")])
    with pytest.raises(ValueError):
        services.notify(kind="event_starting", items=[item(ash, "y", subject="two\nlines")])
    assert services.notify(kind="event_starting", items=[]) == 0


def test_email_preferences_are_respected(make_user, mailoutbox, django_capture_on_commit_callbacks):
    default_user = make_user()
    opted_out = make_user()
    services.set_email_kinds(user=opted_out, kinds=["deck_verdict"])
    no_address = make_user(email="")
    inactive = make_user(is_active=False)
    everyone = [default_user, opted_out, no_address, inactive]

    with django_capture_on_commit_callbacks(execute=True):
        services.notify(kind="standings_published", items=[item(u, f"s{u.pk}") for u in everyone])
        # The round clock is not e-mailed by default.
        services.notify(kind="round_clock", items=[item(u, f"c{u.pk}") for u in everyone])
        services.notify(kind="deck_verdict", items=[item(u, f"d{u.pk}") for u in everyone])

    status = {(n.recipient_id, n.kind): n.email_status for n in Notification.objects.all()}
    assert status == {
        (default_user.pk, "standings_published"): EmailStatus.SENT,
        (default_user.pk, "round_clock"): EmailStatus.NOT_REQUESTED,
        (default_user.pk, "deck_verdict"): EmailStatus.SENT,
        (opted_out.pk, "standings_published"): EmailStatus.NOT_REQUESTED,
        (opted_out.pk, "round_clock"): EmailStatus.NOT_REQUESTED,
        (opted_out.pk, "deck_verdict"): EmailStatus.SENT,
        **{(u.pk, kind): EmailStatus.NOT_REQUESTED for u in (no_address, inactive)
           for kind in ("standings_published", "round_clock", "deck_verdict")},
    }  # fmt: skip
    assert sorted((m.to[0], m.subject) for m in mailoutbox) == sorted(
        [
            (default_user.email, f"Subject s{default_user.pk}"),
            (default_user.email, f"Subject d{default_user.pk}"),
            (opted_out.email, f"Subject d{opted_out.pk}"),
        ]
    )


def test_email_kinds_default_and_saved(make_user):
    user = make_user()
    assert services.email_kinds_for(user) == list(DEFAULT_EMAIL_KINDS)
    assert "round_clock" not in DEFAULT_EMAIL_KINDS
    services.set_email_kinds(user=user, kinds=["round_clock", "deck_verdict"])
    assert services.email_kinds_for(user) == ["deck_verdict", "round_clock"]
    services.set_email_kinds(user=user, kinds=[])
    assert EmailPreference.objects.get(user=user).kinds == []
    with pytest.raises(DomainError) as error:
        services.set_email_kinds(user=user, kinds=["deck_verdict", "spam"])
    assert error.value.code == "unknown-kind"


def test_mark_read_and_unread_count(make_user):
    ash, misty = make_user(), make_user()
    services.notify(kind="event_starting", items=[item(ash, f"a{i}") for i in range(3)])
    services.notify(kind="event_starting", items=[item(misty, "m")])
    theirs = Notification.objects.get(recipient=misty)
    first, *_ = Notification.objects.filter(recipient=ash).order_by("pk")

    assert services.unread_count(ash) == 3
    assert services.mark_read(user=ash, notification_ids=[first.pk, theirs.pk]) == 1
    assert services.unread_count(ash) == 2
    assert services.unread_count(misty) == 1
    assert services.mark_read(user=ash) == 2
    assert services.mark_read(user=ash) == 0
    assert services.unread_count(ash) == 0

    from django.contrib.auth.models import AnonymousUser

    assert services.unread_count(AnonymousUser()) == 0
    assert services.unread_count(None) == 0


def test_fan_out_to_500_players_is_a_few_tasks_and_few_queries(
    django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    user_model = get_user_model()
    user_model.objects.bulk_create(
        user_model(username=f"fan{i}", email=f"fan{i}@example.org") for i in range(500)
    )
    players = list(user_model.objects.filter(username__startswith="fan"))
    items = [item(p, f"pairings:round:9:user:{p.pk}") for p in players]

    with (
        mock.patch.object(tasks.send_emails, "delay") as delay,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        django_assert_max_num_queries(8),
    ):
        assert services.notify(kind="pairings_published", items=items) == 500

    assert len(callbacks) <= 3
    batches = [call.args[0] for call in delay.call_args_list]
    assert all(len(batch) <= services.EMAIL_BATCH_SIZE for batch in batches)
    assert sorted(pk for batch in batches for pk in batch) == sorted(
        Notification.objects.values_list("pk", flat=True)
    )


def test_email_content_uses_the_kind_template_or_the_default(
    make_user, mailoutbox, django_capture_on_commit_callbacks
):
    ash = make_user(username="ash")
    with django_capture_on_commit_callbacks(execute=True):
        services.notify(
            kind="pairings_published",
            items=[item(ash, "p", subject="Round 3 pairings", body="Table 4 vs Gary & <Brock>")],
        )
        services.notify(kind="deck_verdict", items=[item(ash, "d", body="Deck OK", url="")])
    pairing, verdict = sorted(mailoutbox, key=lambda m: m.subject != "Round 3 pairings")

    assert pairing.subject == "Round 3 pairings"
    assert "Hello ash," in pairing.body
    assert "Table 4 vs Gary & <Brock>" in pairing.body  # plain text is not HTML-escaped
    assert "Check in at your table" in pairing.body
    assert "https://league.example.org/events/1/" in pairing.body
    assert pairing.extra_headers["Auto-Submitted"] == "auto-generated"
    html, mimetype = pairing.alternatives[0]
    assert mimetype == "text/html"
    assert "Table 4 vs Gary &amp; &lt;Brock&gt;" in html
    assert "See your pairing" in html
    assert 'href="https://league.example.org/events/1/"' in html

    assert "Deck OK" in verdict.body
    assert "Check in at your table" not in verdict.body
    assert "https://league.example.org/inbox/preferences/" in verdict.body


def test_running_the_task_again_sends_nothing(
    make_user, mailoutbox, django_capture_on_commit_callbacks
):
    ash = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        services.notify(kind="dispute_resolved", items=[item(ash, "r")])
    notification = Notification.objects.get()
    assert len(mailoutbox) == 1

    result = tasks.send_emails.delay([notification.pk]).get()

    assert result["sent"] == []
    assert len(mailoutbox) == 1
    notification.refresh_from_db()
    assert (notification.email_status, notification.email_attempts) == (EmailStatus.SENT, 1)
    assert notification.emailed_at is not None


def test_mail_server_fails_twice_then_works_and_the_email_arrives_once(
    make_user, mailoutbox, settings, django_capture_on_commit_callbacks
):
    from .backends import FlakyBackend

    settings.EMAIL_BACKEND = "tests.notifications.backends.FlakyBackend"
    FlakyBackend.failures = 2
    ash, misty = make_user(), make_user()

    with django_capture_on_commit_callbacks(execute=True):
        services.notify(kind="result_reported", items=[item(ash, "a"), item(misty, "m")])

    assert FlakyBackend.attempts == 4  # two failures, then one send per e-mail
    assert sorted(m.to[0] for m in mailoutbox) == sorted([ash.email, misty.email])
    first, second = Notification.objects.order_by("pk")
    assert {first.email_status, second.email_status} == {EmailStatus.SENT}
    # Only the refused row is charged; the rest of the batch waits, uncharged.
    assert first.email_attempts == 3
    assert "SMTPServerDisconnected" in first.email_error
    assert (second.email_attempts, second.email_error) == (1, "")


def test_gives_up_when_the_retry_budget_is_spent_with_an_error_log(
    make_user, mailoutbox, settings, django_capture_on_commit_callbacks, caplog
):
    from datetime import timedelta

    from django.utils import timezone

    from .backends import FlakyBackend

    settings.EMAIL_BACKEND = "tests.notifications.backends.FlakyBackend"
    settings.NOTIFICATION_RETRY_BUDGET_HOURS = 2
    FlakyBackend.failures = 1_000
    ash, misty = make_user(), make_user()
    services.notify(kind="event_starting", items=[item(ash, "a"), item(misty, "m")])
    # Written three hours ago: any transient refusal now is past the budget.
    Notification.objects.update(created_at=timezone.now() - timedelta(hours=3))

    with django_capture_on_commit_callbacks(execute=True):
        tasks.send_emails.delay(list(Notification.objects.values_list("pk", flat=True)))

    assert mailoutbox == []
    assert FlakyBackend.attempts == 2  # one per row: each refusal charges only its row
    for notification in Notification.objects.all():
        assert notification.email_status == EmailStatus.FAILED
        assert notification.email_attempts == 1
        assert notification.email_error.startswith("SMTPServerDisconnected")
    assert [r.levelname for r in caplog.records if "failed for good" in r.message] == ["ERROR"] * 2


def test_a_permanent_refusal_fails_that_row_and_delivers_the_rest(
    make_user, mailoutbox, settings, django_capture_on_commit_callbacks
):
    from .backends import RejectingBackend

    settings.EMAIL_BACKEND = "tests.notifications.backends.RejectingBackend"
    ash, misty, brock = make_user(), make_user(), make_user()
    RejectingBackend.refused = {misty.email}

    with django_capture_on_commit_callbacks(execute=True):
        services.notify(
            kind="event_starting", items=[item(u, f"k{u.pk}") for u in (ash, misty, brock)]
        )

    assert sorted(m.to[0] for m in mailoutbox) == sorted([ash.email, brock.email])
    refused = Notification.objects.get(recipient=misty)
    assert refused.email_status == EmailStatus.FAILED
    assert refused.email_attempts == 1
    assert "550" in refused.email_error


def test_retry_countdown_doubles_from_the_base_up_to_the_cap(settings):
    settings.NOTIFICATION_RETRY_BASE_SECONDS = 30
    settings.NOTIFICATION_RETRY_MAX_SECONDS = 900
    assert [delivery.retry_countdown(n) for n in range(4)] == [30, 60, 120, 240]
    assert delivery.retry_countdown(10) == 900


def test_task_retries_only_the_pending_ids_with_backoff(make_user, settings):
    from .backends import FlakyBackend

    settings.EMAIL_BACKEND = "tests.notifications.backends.FlakyBackend"
    settings.NOTIFICATION_RETRY_BASE_SECONDS = 30
    FlakyBackend.failures = 1
    ash, misty = make_user(), make_user()
    services.notify(kind="event_starting", items=[item(ash, "a"), item(misty, "m")])
    ids = sorted(Notification.objects.values_list("pk", flat=True))
    Notification.objects.filter(pk=ids[1]).update(email_status=EmailStatus.SENT)
    Notification.objects.filter(pk=ids[0]).update(email_attempts=2)  # the third is refused

    with (
        mock.patch.object(tasks.send_emails, "retry", side_effect=RuntimeError("retry")) as retry,
        pytest.raises(RuntimeError),
    ):
        tasks.send_emails.apply(args=[ids], retries=2)
    assert retry.call_args.kwargs["args"] == [[ids[0]]]
    assert retry.call_args.kwargs["countdown"] == 120


def test_retry_failed_emails_sends_again(make_user, mailoutbox, django_capture_on_commit_callbacks):
    ash = make_user()
    services.notify(kind="event_starting", items=[item(ash, "a")])
    Notification.objects.update(email_status=EmailStatus.FAILED, email_attempts=5)

    ids = list(Notification.objects.values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.retry_failed_emails(notification_ids=ids) == 1

    assert len(mailoutbox) == 1
    assert Notification.objects.get().email_status == EmailStatus.SENT


def test_requeue_stalled_emails(make_user, mailoutbox, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    ash = make_user()
    keys = ["new", "stalled", "ancient"]
    services.notify(kind="event_starting", items=[item(ash, key) for key in keys])
    now = timezone.now()
    Notification.objects.filter(key="stalled").update(created_at=now - timedelta(hours=2))
    Notification.objects.filter(key="ancient").update(created_at=now - timedelta(days=3))

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.requeue_stalled_emails.delay().get() == 1

    assert [m.subject for m in mailoutbox] == ["Subject stalled"]


def test_clear_expired_sessions():
    from datetime import timedelta

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    now = timezone.now()
    Session.objects.create(session_key="old", session_data="", expire_date=now - timedelta(days=1))
    Session.objects.create(session_key="new", session_data="", expire_date=now + timedelta(days=1))
    tasks.clear_expired_sessions.delay()
    assert list(Session.objects.values_list("session_key", flat=True)) == ["new"]


def test_beat_schedule_runs_clearsessions_at_03_30():
    from notifications.schedule import BEAT_SCHEDULE

    entry = BEAT_SCHEDULE["notifications.clear-expired-sessions"]
    assert entry["task"] == tasks.clear_expired_sessions.name
    assert entry["schedule"].hour == {3}
    assert entry["schedule"].minute == {30}


def test_a_broker_failure_after_commit_is_logged_not_raised(
    make_user, django_capture_on_commit_callbacks, caplog
):
    ash = make_user()
    tasks.send_emails.app.conf.task_always_eager = False  # the root conftest restores it
    with (
        mock.patch.object(tasks.send_emails, "delay", side_effect=ConnectionError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert services.notify(kind="event_starting", items=[item(ash, "a")]) == 1

    assert Notification.objects.get().email_status == EmailStatus.PENDING
    assert "broker down" in caplog.text
