"""Languages: a player's own (`Player.language`) and an event's (`Event.language`, for
what is printed and sent to everyone: slips, deck sheets, pairings e-mails).

The fields are abstract bases of `PlayerRecordFields` and `EventDetailsFields`
(`league.public_record`), kept here so `league/models.py` does not grow. The reader's
language on a page comes from `LocaleMiddleware` (the language cookie, else the browser's
Accept-Language); `league.views.language` keeps a signed-in player's choice on the
profile and sets the cookie from the profile at login. A notification is written in the
recipient's language (`notifications.language`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import translation


def language_choices() -> list[tuple[str, str]]:
    """The site's languages (settings.LANGUAGES), each named in itself."""
    return list(settings.LANGUAGES)


def supported(code: str | None) -> str:
    """`code` if it is one of the site's languages (a variant such as "pt-BR" or "de-at"
    is matched to ours), else ""."""
    if not code:
        return ""
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return ""


def default_language() -> str:
    """A new event's language: the site's (settings.LANGUAGE_CODE)."""
    return settings.LANGUAGE_CODE


class PlayerLanguageField(models.Model):
    language = models.CharField(
        "Language",
        max_length=7,
        blank=True,
        choices=language_choices,
        help_text="Pages and e-mails in this language (empty: the browser's).",
    )

    class Meta:
        abstract = True


class EventLanguageField(models.Model):
    language = models.CharField(
        "Language",
        max_length=7,
        default=default_language,
        choices=language_choices,
        help_text="Match slips, deck sheets and e-mails sent to everyone are in it; each "
        "player's own e-mails follow their profile's language.",
    )

    class Meta:
        abstract = True


def set_language_cookie(response, code: str) -> None:
    """Remember `code` in the browser as Django's `set_language` view does."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
