"""While PostgreSQL is unreachable: answer 503 quickly, say what is known about the write, recover quickly after.

The pool waits at most `pool_timeout` seconds for a connection, so a request during an outage is answered 503 in
about that time instead of hanging for psycopg_pool's default 30 s. Its reconnect attempts back off exponentially
(1 s, 2 s, 4 s, ...) up to `reconnect_timeout`, which therefore caps the backoff; after that the pool stops trying on
its own and grows again as soon as a request asks for a connection, so the first request after the database is back
reconnects at once rather than waiting out a long backoff. A connection that broke while idle is found by the first
request that uses it; that request also starts a sweep of the idle connections (`pool.check()`), so the next ones
do not each meet another broken connection.

Every other wait on the database is bounded too. PostgreSQL stops a statement after `statement_timeout` and a wait
for a lock after `lock_timeout` (both set for every pooled connection when it connects), and ends a session left
idle in a transaction. The answer itself may never come (a proxy or a network that loses it with the connection
still up): every wait of a pooled connection for the server (`BoundedConnection.wait`) gives up a second after the
statement timeout, and closes the connection, so that a connection whose state is unknown is never lent to the next
request; a write cut off so answers that its outcome is unknown. Each of these answers 503 with Retry-After and a
sentence: a lock not had in time, a statement stopped, a database that is read-only (a standby, or
`default_transaction_read_only`) all wrote nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import psycopg
from litestar import Litestar, Request, Response
from psycopg import errors
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from quartermaster.service.http.problems import respond
from quartermaster.service.platform.settings import Settings
from quartermaster.service.store.outcome import NothingWritten, refused_by_the_server
from quartermaster.service.store.turns import CampaignBusy

log = logging.getLogger("quartermaster")

# Long enough for PostgreSQL to restart after a crash; short enough that a client's retry is soon.
RETRY_AFTER_SECONDS = 2
# The pool stops retrying on its own after this long, and grows again on demand (see above).
RECONNECT_TIMEOUT = 2.0
# psycopg's minimum: how long one connection attempt may take when the server does not answer at all.
CONNECT_TIMEOUT = 2


# A session that stays idle inside a transaction this long is ended by PostgreSQL, its locks with it: no client of
# this service pauses that long between two statements of one transaction.
IDLE_IN_TRANSACTION_SECONDS = 60
# How much longer than the statement timeout a wait for an answer may last before the answer counts as lost.
ANSWER_SLACK_SECONDS = 1.0
# What psycopg raises when a wait given a timeout runs out (an OperationalError); looked up rather than imported,
# since psycopg keeps it private (pinned to one minor; tests/unit/test_private_pieces.py is its canary).
_WAIT_TIMEOUT: type[BaseException] = getattr(errors, "_WaitTimeout", TimeoutError)


class BoundedConnection(psycopg.AsyncConnection[Any]):
    """A connection whose every wait for the server lasts at most `answer_seconds` (the class of the pool's)."""

    answer_seconds: float | None = None

    async def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        try:
            return await super().wait(gen, interval=interval, timeout=timeout or self.answer_seconds)
        except _WAIT_TIMEOUT as error:
            # The protocol is half way through an exchange: nothing more can be read from or sent on it safely.
            self.pgconn.finish()
            raise psycopg.OperationalError(
                f"The database did not answer within {self.answer_seconds:g} seconds; the connection was closed."
            ) from error


def server_options(settings: Settings, conninfo: str) -> str:
    """The connection string's `options`, with this service's timeouts after whatever it already says."""
    given = psycopg.conninfo.conninfo_to_dict(conninfo).get("options") or ""
    ours = (
        f"-c statement_timeout={round(settings.statement_timeout * 1000)}"
        f" -c lock_timeout={round(settings.lock_timeout * 1000)}"
        f" -c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_SECONDS * 1000}"
    )
    return f"{given} {ours}".strip()


def pool(
    settings: Settings,
    conninfo: str,
    configure: Callable[[Any], Any] | None = None,
    connection_class: type[Any] = psycopg.AsyncConnection,
) -> AsyncConnectionPool:
    """The app's pool, not yet open, with the timeouts that keep an outage short and every wait bounded.

    `connection_class` is the connection the pool would make without the bound (service.lineage's, which admits only
    a server this process may write to); the pool's connections are that class with every wait bounded.
    """
    bounded = type(
        "BoundedConnection",
        (BoundedConnection, connection_class),
        {"answer_seconds": settings.statement_timeout + ANSWER_SLACK_SECONDS},
    )
    return AsyncConnectionPool(
        conninfo,
        connection_class=bounded,
        min_size=settings.pool_min,
        max_size=settings.pool_max,
        open=False,
        configure=configure,
        timeout=settings.pool_timeout,
        reconnect_timeout=RECONNECT_TIMEOUT,
        kwargs={
            "autocommit": True,
            "connect_timeout": CONNECT_TIMEOUT,
            "options": server_options(settings, conninfo),
            # A server that vanished without closing the connection is noticed within about ten seconds.
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
        },
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


def on_database_unavailable(request: Request[Any, Any, Any], exc: psycopg.OperationalError) -> Response[bytes]:
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
    if refused_by_the_server(exc):
        # PostgreSQL answered, with an error of its own (a deadlock broken, a serialization failure...): the
        # transaction was rolled back there.
        return _nothing_written(
            request, f"The database could not do this just now (SQLSTATE {exc.sqlstate}).", "database-refused"
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


def _nothing_written(request: Request[Any, Any, Any], detail: str, kind: str) -> Response[bytes]:
    written = "" if request.method in ("GET", "HEAD") else " Nothing was written."
    return respond(
        503, f"{detail}{written} Try again in a few seconds.", kind, headers={"Retry-After": str(RETRY_AFTER_SECONDS)}
    )


def on_campaign_busy(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    """The campaign's write lock, or this server's share of connections for it, was not had in time."""
    return _nothing_written(
        request,
        "This campaign is busy with another change that takes a while (a rebuild, a long undo, or many at once), "
        "and this one did not get its turn in time.",
        "campaign-busy",
    )


def on_statement_timeout(request: Request[Any, Any, Any], exc: errors.QueryCanceled) -> Response[bytes]:
    return _nothing_written(
        request, "The database took too long to answer, so the request was stopped.", "database-timeout"
    )


def on_read_only(request: Request[Any, Any, Any], exc: errors.ReadOnlySqlTransaction) -> Response[bytes]:
    return _nothing_written(
        request,
        "The database accepts no changes at the moment (it is read-only: a standby, or under maintenance).",
        "database-read-only",
    )


HANDLERS: dict[type[Exception], Callable[[Request[Any, Any, Any], Any], Response[bytes]]] = {
    psycopg.OperationalError: on_database_unavailable,
    errors.LockNotAvailable: on_campaign_busy,
    CampaignBusy: on_campaign_busy,
    errors.QueryCanceled: on_statement_timeout,
    errors.ReadOnlySqlTransaction: on_read_only,
}
