"""Password reset by e-mail, sent by the worker after the response (issue 27).

Django's reset form sends its e-mail inside the request, so a known address answered in
the time the mail server took and an unknown one at once: the page told anyone which
addresses have accounts. `request_password_reset` (the form's `save`) only records one
outbox task per matching account (`league.send_password_reset`, by name); the worker
makes the link and sends the mail (`send_password_reset`). Both answers do the same query
and no SMTP; the link's token is made by the worker, never stored.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from notifications import outbox

SUBJECT_TEMPLATE = "registration/password_reset_subject.txt"
EMAIL_TEMPLATE = "registration/password_reset_email.html"


@transaction.atomic
def request_password_reset(*, email: str, domain: str, site_name: str, use_https: bool) -> int:
    """Record a reset e-mail for every active account with a usable password at `email`
    (Django's rule, `PasswordResetForm.get_users`), sent after commit by the worker.
    Returns how many were recorded (never shown: the page says the same either way)."""
    users = list(PasswordResetForm().get_users(email))
    for user in users:
        outbox.record_task(
            "league.send_password_reset",
            kwargs={
                "user_id": user.pk,
                "domain": domain,
                "site_name": site_name,
                "use_https": use_https,
            },
        )
    return len(users)


def send_password_reset(*, user_id: int, domain: str, site_name: str, use_https: bool) -> bool:
    """Send the reset link to the account, as Django's form would have (its templates and
    token), if the account may still reset its password. Returns whether it was sent."""
    user = get_user_model()._default_manager.filter(pk=user_id, is_active=True).first()
    email_field = get_user_model().get_email_field_name()
    if user is None or not user.has_usable_password() or not getattr(user, email_field):
        return False
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
    PasswordResetForm().send_mail(SUBJECT_TEMPLATE, EMAIL_TEMPLATE, context, None, address)
    return True
