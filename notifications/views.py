"""The inbox: the user's notifications, marking them read, and e-mail preferences."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from rules.errors import DomainError

from . import services
from .forms import EmailPreferenceForm, MarkReadForm
from .models import Notification, NotificationKind

PAGE_SIZE = 25


@login_required
def inbox(request):
    notifications = Notification.objects.filter(recipient=request.user).order_by(
        "-created_at", "-id"
    )
    page = Paginator(notifications, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "notifications/inbox.html", {"page": page})


@login_required
@require_POST
def mark_read(request):
    form = MarkReadForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(_("Choose notifications to mark as read."))
    ids = None if form.cleaned_data["all"] else form.cleaned_data["id"]
    count = services.mark_read(user=request.user, notification_ids=ids)
    if ids is None:
        messages.success(
            request,
            ngettext(
                "Marked %(count)s notification as read.",
                "Marked %(count)s notifications as read.",
                count,
            )
            % {"count": count},
        )
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "inbox"
    return redirect(target)


@login_required
def preferences(request):
    if request.method == "POST":
        form = EmailPreferenceForm(request.POST)
        if form.is_valid():
            try:
                services.set_email_kinds(user=request.user, kinds=form.cleaned_data["kinds"])
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, _("E-mail preferences saved."))
                return redirect("notification-preferences")
    else:
        form = EmailPreferenceForm(initial={"kinds": services.email_kinds_for(request.user)})
    has_email = bool(getattr(request.user, request.user.get_email_field_name(), ""))
    return render(request, "notifications/preferences.html", {"form": form, "has_email": has_email})


@csrf_exempt  # RFC 8058 one-click: the mail client POSTs without a session; the token is signed
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """The link in every e-mail: no login needed. GET asks to confirm (link scanners open
    links), POST switches that kind of e-mail off."""
    done = request.method == "POST"
    try:
        if done:
            _user_id, kind = services.unsubscribe(token=token)
        else:
            _user_id, kind = services.read_unsubscribe_link(token)
    except DomainError as error:
        return render(
            request, "notifications/unsubscribe.html", {"error": error.message}, status=400
        )
    label = NotificationKind(kind).label if kind in NotificationKind.values else kind
    return render(request, "notifications/unsubscribe.html", {"done": done, "label": label})
