"""`{% tom_panel event staff %}`: the event page's TOM box for staff (download, upload,
how our standings compare with TOM's)."""

from django import template

from tom import selectors
from tom.wording import summary_label

register = template.Library()


@register.inclusion_tag("tom/_event_panel.html", takes_context=True)
def tom_panel(context, event, staff):
    if not staff:
        return {"show": False}
    tom = selectors.tom_event(event)
    last = selectors.recent_uploads(event, limit=1)
    return {
        "show": True,
        "event": event,
        "tom": tom,
        "last_upload": last[0] if last else None,
        "csrf_token": context.get("csrf_token"),
        "request": context.get("request"),
    }


@register.filter
def tom_label(key: str) -> str:
    """`results_changed` → `results changed`."""
    return summary_label(key)
