"""Django's Redis cache, with one redis-py client per connection pool instead of one per command.

Django's RedisCacheClient.get_client() builds a new `redis.Redis` for every cache operation.
With redis-py 8 that constructor rebuilds its table of response callbacks (about 170 entries,
each key upper-cased): about 0.25 ms of CPU per operation, more than the round trip itself, and
every request pays it at least once (sessions are read from the cache). A `redis.Redis` over a
connection pool is safe to share between threads, so each pool keeps one (bench/web_cpu.py:
the live-update check by its key went from 1.8 to 1.2 ms of CPU; docs/benchmarks.md)."""

from __future__ import annotations

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
