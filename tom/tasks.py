"""Celery tasks of the TOM app: thin, idempotent, keyed by ids."""

from celery import shared_task

from .services import saves


@shared_task(name="tom.apply_save", acks_late=True)
def apply_save(save_id: int) -> str:
    """Apply a save the laptop script posted (see `tom.services.saves.apply_save`)."""
    return saves.apply_save(save_id=save_id)
