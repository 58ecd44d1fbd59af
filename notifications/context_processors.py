"""Template context shared by every page."""

from . import services


def unread(request) -> dict:
    """`unread_notifications`: the header badge count (one query; 0 when logged out)."""
    return {"unread_notifications": services.request_unread_count(request)}
