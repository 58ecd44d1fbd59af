"""Read queries for the TOM pages and the event page's panel."""

from league.models import Event

from .models import TomEvent, TomUpload


def tom_event(event: Event) -> TomEvent | None:
    return TomEvent.objects.filter(event=event).first()


def recent_uploads(event: Event, limit: int = 20) -> list[TomUpload]:
    return list(TomUpload.objects.filter(event=event).select_related("uploaded_by")[:limit])
