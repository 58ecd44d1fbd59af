"""The reader's language: the switcher on every page (`set_language`, Django's view, which
also keeps a signed-in player's choice on their profile) and the log-in page, which sets
the language cookie from the profile (`login`)."""

from __future__ import annotations

from urllib.parse import quote

from django.contrib.auth import views as auth_views
from django.db.models import QuerySet
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from ..languages import set_language_cookie, supported
from ..models import Player


def _csrf_passes(request) -> bool:
    return CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {}) is None


@require_POST
@csrf_exempt
def set_language(request):
    """Django's `set_language` (the cookie, back to `next`); a signed-in player's profile
    keeps the choice for their next log-in and for their e-mails.

    The cookie needs no CSRF token: the public round pages are served whole from a cache
    (`matches.public_pages`) and carry none. The profile is written only with a valid token
    (every page but those), so another site cannot change it."""
    response = django_set_language(request)
    code = supported(request.POST.get("language"))
    if code and request.user.is_authenticated and _csrf_passes(request):
        # A plain update: the language is on no public page, so no page cache is dropped.
        rows = QuerySet(model=Player).filter(user=request.user).exclude(language=code)
        rows.update(language=code)
    return response


class LoginView(auth_views.LoginView):
    """Django's log-in page; on success the profile's language becomes the reader's."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # The sign-up link keeps `next`; built here, the page's sentence is one msgid.
        next_url = context.get(self.redirect_field_name) or ""
        query = f"?next={quote(next_url, safe='/')}" if next_url else ""
        context["signup_url"] = reverse("signup") + query
        return context

    def form_valid(self, form):
        response = super().form_valid(form)
        player = Player.objects.filter(user=form.get_user()).only("language").first()
        code = supported(player.language if player else "")
        if code:
            set_language_cookie(response, code)
        return response


login = LoginView.as_view()
