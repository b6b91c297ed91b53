"""Reads from a replica (`QUARTERMASTER_REPLICA_URL`, a standby of the primary): which store answers a read.

A standby replays the primary's log some time after the primary committed it, so its answer may be older than what
the caller has already seen (its own append a moment ago, or another phone's). So a read goes to the replica only
when it can say no less than the caller knows: the caller sends the position it has seen (`seen`), or asks for the
state at a position (`at`, which never changes once written); the replica's own position for the campaign is read
first, and when it is behind that, or the replica does not answer, the primary answers instead. Every answer from
either says the position it reflects and which server gave it. A read that names neither (the latest state, the
latest page of history) goes to the primary: only it knows what "latest" is.

The replica's store has its own cache, so nothing read there is taken for the primary's state; a replica never
receives a write (the store's write statements would fail there: a standby is read-only).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from litestar import Litestar
from litestar.params import Parameter
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import AnyRequest
from quartermaster.service.platform import database
from quartermaster.service.platform.settings import Settings
from quartermaster.service.store import Store

log = logging.getLogger("quartermaster")

SEEN = Parameter(
    default=None,
    description="The latest position of this campaign the caller has seen; with a replica configured, the answer "
    "may come from it when it has reached this position (its `source` and `position` say).",
)

PRIMARY = "primary"
REPLICA = "replica"


async def reading(
    request: AnyRequest, store: Store, campaign_id: uuid.UUID, *, seen: int | None, at: int | None = None
) -> tuple[Store, str]:
    """The store to read this campaign from, and its name (`PRIMARY` or `REPLICA`), by the module's rule."""
    if seen is not None and seen < 0:
        raise Problem(422, f"`seen` must be a position, 0 or more; {seen} is not.", kind="bad-position")
    replica: Store | None = request.app.state.get("replica")
    if replica is None or (seen is None and at is None):
        return store, PRIMARY
    needed = max(seen or 0, at or 0)
    try:
        reached = (await replica.positions([campaign_id])).get(campaign_id)
    except (psycopg.Error, PoolTimeout) as error:
        log.warning("the replica does not answer, the primary does instead: %s", error)
        return store, PRIMARY
    if reached is None or reached < needed:
        return store, PRIMARY
    return replica, REPLICA


async def reached(store: Store, campaign_id: uuid.UUID) -> int:
    """The campaign's position on the server `store` reads from."""
    return (await store.positions([campaign_id])).get(campaign_id, 0)


def open_replica(
    app: Litestar, settings: Settings, configure: Callable[[psycopg.AsyncConnection[Any]], Awaitable[None]]
) -> AsyncConnectionPool | None:
    """The replica's pool, not yet open, and its store on `app.state.replica` (None without a replica URL)."""
    if not settings.replica_url:
        app.state.replica = None
        return None
    pool = database.pool(settings, settings.replica_url, configure=configure)
    app.state.replica = Store(pool)
    return pool
