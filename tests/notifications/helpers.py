import threading
import time

from django.db import connection, transaction

from notifications.services import NotificationItem


def item(user, key: str, **fields) -> NotificationItem:
    """A `NotificationItem` for `user` with filler text."""
    defaults = {"subject": f"Subject {key}", "body": f"Body of {key}.", "url": "/events/1/"}
    return NotificationItem(recipient_id=user.pk, key=key, **{**defaults, **fields})


def hold_lock_elsewhere(lock, seconds: float) -> threading.Thread:
    """Run `lock()` in a transaction of another thread (its own connection) and keep that
    transaction, and the row locks it took, open for `seconds`: the worker's claim meets
    a row that other work (a dispatcher's update, another claim) holds for a moment.
    Needs committed data (`transaction=True`)."""
    locked = threading.Event()

    def hold():
        try:
            with transaction.atomic():
                lock()
                locked.set()
                time.sleep(seconds)
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert locked.wait(10), "the other transaction never took its lock"
    return thread
