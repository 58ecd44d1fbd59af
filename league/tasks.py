"""Celery tasks of the league app: thin wrappers that load by id and call one service."""

import os

from celery import shared_task
from django.db import connection


@shared_task(name="league.ping")
def ping() -> dict:
    """Answer with where the task ran: used to check a worker is up and on which database."""
    return {"pong": True, "pid": os.getpid(), "database": connection.settings_dict["NAME"]}
