"""Password reset and change on the site's own pages, and one account per e-mail."""

import re

import pytest

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_password_reset_by_email_end_to_end(client, mailoutbox, django_capture_on_commit_callbacks):
    user = UserFactory(username="misty", email="misty@example.test")
    user.set_password("Old-Password-1")  # Django sends no reset link to an unusable password
    user.save()
    assert "Forgot your password?" in client.get("/accounts/login/").content.decode()
    page = client.get("/accounts/password_reset/").content.decode()
    assert "Reset your password" in page and "admin" not in page.lower()
    with django_capture_on_commit_callbacks(execute=True):  # the worker sends it after commit
        client.post("/accounts/password_reset/", {"email": "misty@example.test"})
    assert len(mailoutbox) == 1 and "misty" in mailoutbox[0].body
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mailoutbox[0].body).group(1)
    form_url = client.get(link).url  # Django swaps the token for a session and redirects
    response = client.post(
        form_url, {"new_password1": "Psyduck-Swims-42", "new_password2": "Psyduck-Swims-42"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Psyduck-Swims-42")


def test_signup_does_not_say_an_email_is_known_and_mails_its_owner(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    """Issue 17: saying "an account already uses this address" told anyone which addresses
    have accounts. The sign-up goes on as for a new address; the owner gets a mail."""
    UserFactory(username="brock", email="brock@example.test")
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(
            "/accounts/signup/",
            {
                "username": "brock2",
                "email": "Brock@example.test",
                "password1": "Onix-Rocks-77",
                "password2": "Onix-Rocks-77",
            },
        )
    assert "already uses" not in page.content.decode()
    assert page.status_code == 302 and page.url.startswith("/accounts/profile")
    assert [m.to for m in mailoutbox] == [["brock@example.test"]]
    assert "already uses" in mailoutbox[0].body


def test_password_reset_mail_is_sent_by_the_worker_after_the_response(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    """Issue 27: the reset e-mail was sent inside the request, so with a mail server taking
    200 ms a known address answered in 418 ms and an unknown one in 6 ms. Now no SMTP
    happens in the request, known or unknown; an outbox task sends it after commit."""
    from notifications.models import OutboxTask

    user = UserFactory(username="brock", email="brock@example.test")
    user.set_password("Old-Password-1")
    user.save()
    answers = {}
    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        for address in ("brock@example.test", "nobody@example.test"):
            answers[address] = client.post("/accounts/password_reset/", {"email": address})
    assert mailoutbox == []  # nothing was sent while the pages answered
    assert {r.status_code for r in answers.values()} == {302}
    assert len({r.url for r in answers.values()}) == 1  # the same answer for both
    # One task per request, known address or not: the same work either way.
    tasks = OutboxTask.objects.order_by("pk")
    assert [t.task for t in tasks] == ["league.send_password_reset"] * 2
    assert [t.kwargs["email"] for t in tasks] == list(answers)
    assert "token" not in str([t.kwargs for t in tasks])  # the worker makes the link

    for callback in after_commit:  # the commit: the worker runs the task
        callback()
    assert [m.to for m in mailoutbox] == [["brock@example.test"]]
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mailoutbox[0].body).group(1)
    assert client.get(link).status_code == 302  # a valid link: swapped for a session
    assert not OutboxTask.objects.filter(done_at__isnull=True).exists()
