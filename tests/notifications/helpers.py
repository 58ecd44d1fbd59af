from notifications.services import NotificationItem


def item(user, key: str, **fields) -> NotificationItem:
    """A `NotificationItem` for `user` with filler text."""
    defaults = {"subject": f"Subject {key}", "body": f"Body of {key}.", "url": "/events/1/"}
    return NotificationItem(recipient_id=user.pk, key=key, **{**defaults, **fields})
