"""Password reset by e-mail, sent by the worker after the response (issue 27).

Django's reset form sends its e-mail inside the request, so a known address answered in
the time the mail server took and an unknown one at once: the page told anyone which
addresses have accounts. `request_password_reset` (the form's `save`) only records one
outbox task (`league.send_password_reset`, by name) for the address typed, known or not;
the worker looks the accounts up, makes the link and sends the mail
(`send_password_reset`). Both answers do the same work and no SMTP; the link's token is
made by the worker, never stored.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from notifications import outbox
from notifications.language import in_recipients_language

SUBJECT_TEMPLATE = "registration/password_reset_subject.txt"
EMAIL_TEMPLATE = "registration/password_reset_email.html"


@transaction.atomic
def request_password_reset(*, email: str, domain: str, site_name: str, use_https: bool) -> None:
    """Record the reset of `email` for the worker (`league.send_password_reset`), whether
    or not an account uses it: the page does the same work for a known and an unknown
    address, and the worker looks the accounts up."""
    outbox.record_task(
        "league.send_password_reset",
        kwargs={"email": email, "domain": domain, "site_name": site_name, "use_https": use_https},
    )


def send_password_reset(*, email: str, domain: str, site_name: str, use_https: bool) -> int:
    """Send the reset link to every active account with a usable password at `email`
    (Django's rule, `PasswordResetForm.get_users`), as Django's form would have (its
    templates and token). Returns how many were sent."""
    form = PasswordResetForm()
    email_field = get_user_model().get_email_field_name()
    sent = 0
    for user in form.get_users(email):
        address = getattr(user, email_field)
        context = {
            "email": address,
            "domain": domain,
            "site_name": site_name,
            "uid": urlsafe_base64_encode(force_bytes(user.pk)),
            "user": user,
            "token": default_token_generator.make_token(user),
            "protocol": "https" if use_https else "http",
        }
        with in_recipients_language(user):  # their profile's language
            form.send_mail(SUBJECT_TEMPLATE, EMAIL_TEMPLATE, context, None, address)
        sent += 1
    return sent
