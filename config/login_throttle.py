"""Login throttling, by account and by address, with django-axes.

Every password check goes through `django.contrib.auth.authenticate` with the request (the
login form, the admin's, and any API password authentication that remains), and axes'
backend refuses it once the account or the address has `AXES_FAILURE_LIMIT` failures in the
cool-off window. The answer is 429 with a message that says what happened and when to try
again: JSON `{"code": "login-throttled", "detail"}` under /api/, the page
`registration/locked_out.html` elsewhere.

The address is `config.client_address.client_ip`, the one every throttle counts.

Unlocking: the lock lifts by itself after `AXES_COOLOFF_TIME`; staff can lift it at once
in the admin (Axes → Access attempts: delete the rows) or with `manage.py axes_reset_ip
ADDRESS` / `axes_reset_username NAME`; a successful login resets the account's count.
"""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext


def _minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def lockout_response(request, original_response=None, credentials=None):
    minutes = _minutes()
    detail = ngettext(
        "Too many failed logins for this account or from this address. Try again in "
        "%(minutes)s minute, or ask the league's organiser or an administrator to unlock it.",
        "Too many failed logins for this account or from this address. Try again in "
        "%(minutes)s minutes, or ask the league's organiser or an administrator to unlock it.",
        minutes,
    ) % {"minutes": minutes}
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "login-throttled", "detail": detail}, status=429)
    return render(request, "registration/locked_out.html", {"detail": detail}, status=429)
