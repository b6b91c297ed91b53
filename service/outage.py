"""While PostgreSQL is unreachable: answer 503 quickly, say what is known about the write, recover quickly after.

The pool waits at most `pool_timeout` seconds for a connection, so a request during an outage is answered 503 in
about that time instead of hanging for psycopg_pool's default 30 s. Its reconnect attempts back off exponentially
(1 s, 2 s, 4 s, ...) up to `reconnect_timeout`, which therefore caps the backoff; after that the pool stops trying on
its own and grows again as soon as a request asks for a connection, so the first request after the database is back
reconnects at once rather than waiting out a long backoff. A connection that broke while idle is found by the first
request that uses it; that request also starts a sweep of the idle connections (`pool.check()`), so the next ones
do not each meet another broken connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import psycopg
from litestar import Litestar, Request, Response
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from service.problems import respond
from service.settings import Settings
from service.store.outcome import NothingWritten

log = logging.getLogger("quartermaster")

# Long enough for PostgreSQL to restart after a crash; short enough that a client's retry is soon.
RETRY_AFTER_SECONDS = 2
# The pool stops retrying on its own after this long, and grows again on demand (see above).
RECONNECT_TIMEOUT = 2.0
# psycopg's minimum: how long one connection attempt may take when the server does not answer at all.
CONNECT_TIMEOUT = 2


def pool(
    settings: Settings,
    conninfo: str,
    configure: Callable[[Any], Any] | None = None,
    connection_class: type[Any] = psycopg.AsyncConnection,
) -> AsyncConnectionPool:
    """The app's pool, not yet open, with the timeouts that keep an outage short."""
    return AsyncConnectionPool(
        conninfo,
        connection_class=connection_class,
        min_size=settings.pool_min,
        max_size=settings.pool_max,
        open=False,
        configure=configure,
        timeout=settings.pool_timeout,
        reconnect_timeout=RECONNECT_TIMEOUT,
        kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
    )


def sweep(app: Litestar) -> None:
    """Check the pool's idle connections in the background (one sweep at a time), replacing the broken ones."""
    pool: AsyncConnectionPool | None = getattr(app.state, "pool", None)
    if pool is None or getattr(app.state, "sweeping", None) is not None:
        return

    async def run() -> None:
        try:
            await pool.check()
        except Exception:  # a sweep that fails is retried by the next broken connection; never crash the loop
            log.warning("checking the pool's connections failed", exc_info=True)
        finally:
            app.state.sweeping = None

    app.state.sweeping = asyncio.get_running_loop().create_task(run())


def on_database_unavailable(request: Request, exc: psycopg.OperationalError) -> Response:
    """503 with Retry-After, saying whether the request wrote anything when the server knows."""
    sweep(request.app)
    retry = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    lineage = getattr(request.app.state, "lineage", None)
    refusal = lineage.refusal() if lineage is not None else None
    if isinstance(exc, PoolTimeout) and refusal is not None:
        return respond(
            503, f"{refusal} So nothing was written now. Try again in a few seconds.", "former-primary", headers=retry
        )
    if isinstance(exc, PoolTimeout):
        return respond(
            503,
            "The database did not answer in time, so nothing was written. Try again in a few seconds.",
            "database-unavailable",
            headers=retry,
        )
    if isinstance(exc, NothingWritten) or request.method in ("GET", "HEAD"):
        return respond(
            503,
            "The connection to the database broke before anything was recorded, so nothing was "
            "written. Try again in a few seconds.",
            "database-unavailable",
            headers=retry,
        )
    log.warning("the connection broke during %s %s; the outcome is unknown: %s", request.method, request.url.path, exc)
    return respond(
        503,
        "The connection to the database broke while this was being recorded, and the server cannot tell whether "
        "it was. Send the same request again with the same event ids or the same Idempotency-Key: if it was "
        "recorded, the answer is what was recorded and nothing is written twice. Or read the log to see.",
        "outcome-unknown",
        headers=retry,
    )


HANDLERS: dict[type[Exception], Callable[[Request, Any], Response]] = {
    psycopg.OperationalError: on_database_unavailable
}
