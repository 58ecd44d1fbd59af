"""The Celery application.

With no `CELERY_BROKER_URL` the settings turn on `task_always_eager`, so tasks run
in-process: the quick start needs no broker. Set the variable to a Redis or RabbitMQ URL to
send tasks to real workers (`make worker`, `make beat`). Broker timeouts, late acks and the
mail policy are set in the "Broker and mail" block of `config/settings.py`.
"""

import os

from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# `redis://` URLs publish through kombu's Redis transport without redis-py's reconnect
# loop (`config/broker.py`); other schemes (amqp://) are untouched.
TRANSPORT_ALIASES["redis"] = "config.broker:Transport"

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
