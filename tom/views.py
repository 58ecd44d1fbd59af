"""Pages for TOM saves: the event's TOM page (uploads, the laptop's token, standings
compared with TOM's), the upload form, the download. Staff only; thin over `services`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.view_helpers import get_event, require, show_error
from rules.errors import DomainError

from . import selectors, services
from .models import TomSave, TomUpload
from .wording import summary_label


@login_required
def tom_event(request, event_id: int):
    event = get_event(event_id)
    require(request, event, "manage-event")
    tom = selectors.tom_event(event)
    return render(
        request,
        "tom/event.html",
        {
            "event": event,
            "tom": tom,
            "uploads": selectors.recent_uploads(event),
            "refused": services.latest_refused(event),
            "api_url": request.build_absolute_uri(f"/api/tom/events/{event.pk}/saves/"),
        },
    )


@login_required
@require_POST
def tom_upload(request, event_id: int):
    event = get_event(event_id)
    require(request, event, "manage-event")
    upload = request.FILES.get("save")
    if upload is None:
        messages.error(request, _("Choose the TOM save (.tdf) to upload."))
        return redirect("tom-event", event.pk)
    if upload.size > services.MAX_SAVE_BYTES:
        messages.error(
            request,
            _("Nothing was changed. %(why)s")
            % {"why": "file: " + _("the file is too large to be a TOM save.")},  # an element name
        )
        return redirect("tom-event", event.pk)
    try:
        result = services.import_save(
            data=upload.read(),
            by_user=request.user,
            event=event,
            filename=upload.name,
            source=TomUpload.Source.PAGE,
        )
    except DomainError as exc:
        if exc.code == "tdf-invalid" or exc.status == 403:
            messages.error(request, _("Nothing was changed. %(why)s") % {"why": exc.message})
        else:  # kept, with what the organiser can do, on the TOM page
            upload.seek(0)
            services.keep_refused(
                event=event,
                data=upload.read(),
                by_user=request.user,
                filename=upload.name,
                source=TomUpload.Source.PAGE,
                error=exc,
            )
        return redirect("tom-event", event.pk)
    if result.duplicate:
        messages.info(request, _("This save was imported before: nothing changed."))
    else:
        messages.success(
            request, _("TOM save imported: %(summary)s") % {"summary": describe(result.summary)}
        )
    return redirect("event-detail", event.pk)


def describe(summary: dict) -> str:
    parts = [f"{summary_label(k)}: {v}" for k, v in sorted(summary.items()) if v]
    return ", ".join(parts) or _("nothing new.")


@login_required
def tom_download(request, event_id: int):
    event = get_event(event_id)
    require(request, event, "manage-event")
    text = services.export_text(event=event)
    response = HttpResponse(text.encode("utf-8"), content_type="application/xml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{services.export_filename(event)}"'
    return response


@login_required
@require_POST
def tom_token(request, event_id: int):
    event = get_event(event_id)
    require(request, event, "manage-event")
    token = services.new_upload_token(event=event, by_user=request.user)
    messages.warning(
        request,
        _("The TOM laptop's upload token (shown once; the old one no longer works): %(token)s")
        % {"token": token},
    )
    return redirect("tom-event", event.pk)


@login_required
@require_POST
def tom_new_event(request, event_id: int, save_id: int):
    """Import a refused save as a new event of the same season (the TOM page's offer)."""
    event = get_event(event_id)
    require(request, event, "manage-event")
    save = get_object_or_404(TomSave, pk=save_id, event=event)
    try:
        result = services.import_as_new_event(save=save, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
        return redirect("tom-event", event.pk)
    messages.success(
        request,
        _("The save is imported as a new event: %(summary)s")
        % {"summary": describe(result.summary)},
    )
    return redirect("event-detail", result.event.pk)
