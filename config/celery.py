"""The Celery application.

With no `CELERY_BROKER_URL` the settings turn on `task_always_eager`, so tasks run
in-process: the quick start needs no broker. Set the variable to a Redis or RabbitMQ URL to
send tasks to real workers (`make worker`, `make beat`).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
