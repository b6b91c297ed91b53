"""The database connection pool: every connection bounded in how long it waits, connects and stays idle in a
transaction, with the timeouts that keep an outage short.

The pool waits at most `pool_timeout` seconds for a connection, so a request during an outage is answered in about
that time instead of hanging for psycopg_pool's default 30 s. Its reconnect attempts back off exponentially (1 s,
2 s, 4 s, ...) up to `reconnect_timeout`, which therefore caps the backoff; after that the pool stops trying on its
own and grows again as soon as a request asks for a connection, so the first request after the database is back
reconnects at once rather than waiting out a long backoff.

PostgreSQL stops a statement after `statement_timeout` and a wait for a lock after `lock_timeout` (both set for every
pooled connection when it connects), and ends a session left idle in a transaction. The answer itself may never come
(a proxy or a network that loses it with the connection still up): every wait of a pooled connection for the server
(`BoundedConnection.wait`) gives up a second after the statement timeout, and closes the connection, so that a
connection whose state is unknown is never lent to the next request. What the service answers then is
service/http/outage.py's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from quartermaster.service.platform.settings import Settings

# The pool stops retrying on its own after this long, and grows again on demand (see above).
RECONNECT_TIMEOUT = 2.0
# psycopg's minimum: how long one connection attempt may take when the server does not answer at all.
CONNECT_TIMEOUT = 2
# A session that stays idle inside a transaction this long is ended by PostgreSQL, its locks with it: no client of
# this service pauses that long between two statements of one transaction.
IDLE_IN_TRANSACTION_SECONDS = 60
# How much longer than the statement timeout a wait for an answer may last before the answer counts as lost.
ANSWER_SLACK_SECONDS = 1.0


class BoundedConnection(psycopg.AsyncConnection[Any]):
    """A connection whose every wait for the server lasts at most `answer_seconds` (the class of the pool's)."""

    answer_seconds: float | None = None

    async def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        bound = timeout or self.answer_seconds
        started = time.monotonic()
        try:
            return await super().wait(gen, interval=interval, timeout=bound)
        except psycopg.OperationalError as error:
            # psycopg's own error for a wait that ran out is private: told apart here by what is public, an error
            # the server did not send (no SQLSTATE) once the bound has passed.
            if error.sqlstate is not None or bound is None or time.monotonic() - started < bound:
                raise
            # The protocol is half way through an exchange: nothing more can be read from or sent on it safely.
            self.pgconn.finish()
            raise psycopg.OperationalError(
                f"The database did not answer within {bound:g} seconds; the connection was closed."
            ) from error


async def configure(conn: psycopg.AsyncConnection[Any]) -> None:
    """Each new pooled connection: jsonb arrives as text, decoded with msgspec where needed (never psycopg's
    json.loads)."""
    conn.adapters.register_loader("jsonb", psycopg.types.string.TextLoader)


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
