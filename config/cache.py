"""Django's Redis cache, with one `redis.Redis` client per connection pool.

Django's `RedisCacheClient.get_client` builds a new `redis.Redis` object for every cache
operation; building one fills its table of response callbacks, which costs more than the
round trip itself (about 0.3 ms of CPU, seven times on a pairings page: a profile of
`benchmarks/profile_report.py` showed it). A `redis.Redis` object holds no connection of
its own (the pool does) and is safe to share between threads, so this keeps one per pool.
Everything else is Django's backend, unchanged.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
