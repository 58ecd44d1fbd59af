"""Kombu's Redis transport without redis-py's own reconnect loop.

redis-py (6+) retries a refused connection three times with a backoff of up to a second
each: a page publishing to a broker that is down waited about 4 s. Publishing here tries
once, within the socket timeouts of the settings' "Broker and mail" block; the worker's
consumer reconnects by Celery's `broker_connection_retry`, and work that was not
published is found by the relay (`notifications.outbox`). Used for `redis://` brokers
(registered for the `redis` scheme in `config/celery.py`).
"""

from kombu.transport import redis as kombu_redis
from redis.backoff import NoBackoff
from redis.retry import Retry


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous=False):
        params = super()._connparams(asynchronous=asynchronous)
        params["retry"] = Retry(NoBackoff(), 0)
        return params


class Transport(kombu_redis.Transport):
    Channel = Channel
