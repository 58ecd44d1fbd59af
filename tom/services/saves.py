"""Saves the laptop script posts, applied by the worker, and saves a page upload refused.

`receive_save` checks the file (a TOM save, at most `MAX_SAVE_BYTES`) and who sends it,
stores it as a pending `TomSave` and records `tom.apply_save` in the outbox: the endpoint
answers 202 at once, and the worker applies the save (`apply_save`) through
`import_save`. The laptop script reads the outcome at the save's status address
(`save_status`). A save already imported is answered at once (nothing is queued).

Lock order, the same as every import's: the event's row first, then rows below it (the
`TomSave`, then what the import writes), so an import never waits on a row while holding
one that another transaction of the event needs first.

A save the event refuses keeps its file (`TomSave.Status.REFUSED`, with the message and
the action the TOM page offers, `SaveDiffers.fix`), so the organiser can act on it:
`import_as_new_event` makes a new event of the same season from it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import permissions
from league.models import Event
from notifications import outbox
from rules.errors import DomainError

from .. import tdf
from ..models import TomEvent, TomSave, TomUpload
from .common import read_save
from .importing import ImportResult, import_save


def _outcome(result: ImportResult) -> dict:
    compared = (
        TomEvent.objects.filter(event=result.event)
        .values_list("standings_compared", flat=True)
        .first()
    )
    return {
        "summary": {
            k: v
            for k, v in result.summary.items()
            if isinstance(v, int) and not isinstance(v, bool)
        },
        "standings_agree": all(c["agree"] for c in compared.values()) if compared else None,
    }


def _refusal(exc: DomainError) -> dict:
    text = getattr(exc, "text", None)  # its template: worded again for each reader
    return {
        "code": exc.code,
        "detail": exc.message,
        "detail_text": text.to_dict() if text is not None else None,
        "fix": getattr(exc, "fix", ""),
    }


@transaction.atomic
def receive_save(*, event: Event, data: bytes, by_user, filename: str = "", source: str) -> TomSave:
    """Store a posted save and queue its import (`tom.apply_save`). Returns the `TomSave`:
    pending, or already `duplicate` when the same file was imported into the event before,
    or the pending one when the same file is still waiting. Raises `tdf-invalid` (not a
    TOM save, too large) and `not-allowed` at once."""
    if not permissions.can(by_user, event, "manage-event"):
        raise DomainError(
            "not-allowed", _("Only the event's organisers can import a TOM save."), status=403
        )
    read_save(data)  # a file that is no TOM save is refused now, not by the worker
    sha = tdf.content_hash(data)
    filename = filename.replace("\x00", "")[:200]
    user = by_user if by_user and by_user.is_authenticated else None
    fields = {"filename": filename, "size": len(data), "source": source, "uploaded_by": user}
    if TomUpload.objects.filter(event=event, sha256=sha).exists():
        return TomSave.objects.create(
            event=event,
            sha256=sha,
            data=b"",
            status=TomSave.Status.DUPLICATE,
            outcome={"summary": {}, "duplicate": True},
            finished_at=timezone.now(),
            **fields,
        )
    waiting = TomSave.objects.filter(event=event, sha256=sha, status=TomSave.Status.PENDING).first()
    if waiting is not None:
        return waiting
    save = TomSave.objects.create(event=event, sha256=sha, data=data, **fields)
    outbox.record_task("tom.apply_save", args=[save.pk], key=f"tom-save:{save.pk}")
    return save


def apply_save(*, save_id: int) -> str:
    """Apply a pending save (the worker's task): import it into its event and record the
    outcome on the `TomSave`. Saves of one event are applied in the order they arrived: the
    pending saves received before this one are applied first, in the same transaction
    (their own tasks then find nothing to do). Idempotent: a save no longer pending is left
    alone. Returns the save's status."""
    with transaction.atomic():
        event_id = TomSave.objects.filter(pk=save_id).values_list("event_id", flat=True).first()
        if event_id is None:
            return "gone"
        event = Event.objects.select_for_update().select_related("season__league").get(pk=event_id)
        waiting = list(
            TomSave.objects.select_for_update(of=("self",))
            .select_related("uploaded_by")
            .filter(event=event, pk__lte=save_id, status=TomSave.Status.PENDING)
            .order_by("pk")
        )
        for save in waiting:
            _apply(save, event)
        return TomSave.objects.values_list("status", flat=True).get(pk=save_id)


def _apply(save: TomSave, event: Event) -> None:
    try:
        result = import_save(
            data=bytes(save.data),
            by_user=save.uploaded_by,
            event=event,
            filename=save.filename,
            source=save.source,
        )
    except DomainError as exc:
        save.status, save.outcome = TomSave.Status.REFUSED, _refusal(exc)
    else:
        save.status = TomSave.Status.DUPLICATE if result.duplicate else TomSave.Status.APPLIED
        save.outcome = {**_outcome(result), "duplicate": result.duplicate}
        save.data = b""  # applied: the event holds it now (`TomEvent.save_data`)
    save.finished_at = timezone.now()
    save.save(update_fields=["status", "outcome", "data", "finished_at"])


def save_status(save: TomSave) -> dict:
    """What the laptop script reads about a save it posted."""
    body = {
        "id": save.pk,
        "event": save.event_id,
        "sha256": save.sha256,
        "status": save.status,
        "duplicate": save.status == TomSave.Status.DUPLICATE,
        "summary": save.outcome.get("summary", {}),
        "standings_agree": save.outcome.get("standings_agree"),
    }
    if save.status == TomSave.Status.REFUSED:
        body |= {"code": save.outcome.get("code", ""), "detail": save.worded_detail}
    return body


def keep_refused(
    *, event: Event, data: bytes, by_user, filename: str, source: str, error: DomainError
) -> TomSave:
    """Keep a save the event refused (a page upload), with the message and the action the
    TOM page offers."""
    return TomSave.objects.create(
        event=event,
        sha256=tdf.content_hash(data),
        data=data,
        size=len(data),
        filename=filename.replace("\x00", "")[:200],
        source=source,
        uploaded_by=by_user if by_user and by_user.is_authenticated else None,
        status=TomSave.Status.REFUSED,
        outcome=_refusal(error),
        finished_at=timezone.now(),
    )


def latest_refused(event: Event) -> TomSave | None:
    """The event's latest save, if it was refused (the TOM page explains it)."""
    latest = TomSave.objects.filter(event=event).defer("data").first()
    return latest if latest is not None and latest.status == TomSave.Status.REFUSED else None


@transaction.atomic
def import_as_new_event(*, save: TomSave, by_user) -> ImportResult:
    """The "import it as a new event" action on a refused save: a new event of the same
    season from the stored file. Raises `not-allowed`, `tdf-invalid`."""
    if save.status != TomSave.Status.REFUSED or not save.data:
        raise DomainError(
            "tdf-differs", _("This save is no longer waiting for a decision."), status=409
        )
    event = save.event
    if not permissions.can(by_user, event, "manage-event"):
        raise DomainError("not-allowed", _("Only the event's organisers can do this."), status=403)
    result = import_save(
        data=bytes(save.data),
        by_user=by_user,
        season=event.season,
        filename=save.filename,
        source=TomUpload.Source.PAGE,
    )
    TomSave.objects.filter(pk=save.pk).update(data=b"", outcome={**save.outcome, "fix": ""})
    return result
