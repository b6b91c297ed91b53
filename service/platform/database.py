"""The database connection pool: every connection bounded in how long it waits, connects and stays idle in a
transaction, with the timeouts that keep an outage short.

The pool waits at most `pool_timeout` seconds for a connection, so a request during an outage is answered in about
that time instead of hanging for psycopg_pool's default 30 s. Its reconnect attempts back off exponentially (1 s,
2 s, 4 s, ...) up to `reconnect_timeout`, which therefore caps the backoff; after that the pool stops trying on its
own and grows again as soon as a request asks for a connection, so the first request after the database is back
reconnects at once rather than waiting out a long backoff.

PostgreSQL stops a statement after `statement_timeout` and a wait for a lock after `lock_timeout` (both set for every
pooled connection when it connects), and ends a session left idle in a transaction. The answer itself may never come
(a proxy or a network that loses it with the connection still up): a watchdog on each pooled connection (`Watchdog`)
gives up on an answer a second after the statement timeout and shuts the connection's socket, so that the wait ends
with `AnswerLost` and a connection whose state is unknown is never lent to the next request. What the service
answers then is service/http/outage.py's.
"""

from __future__ import annotations

import asyncio
import logging
import select
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from functools import cached_property
from operator import attrgetter
from typing import Any, ClassVar, Self

import psycopg
from psycopg.abc import Params, Query
from psycopg.pq import TransactionStatus
from psycopg.rows import Row
from psycopg_pool import AsyncConnectionPool

from quartermaster.service.platform.settings import Settings

log = logging.getLogger("quartermaster")

# The pool stops retrying on its own after this long, and grows again on demand (see above).
RECONNECT_TIMEOUT = 2.0
# psycopg's minimum: how long one connection attempt may take when the server does not answer at all.
CONNECT_TIMEOUT = 2
# A session that stays idle inside a transaction this long is ended by PostgreSQL, its locks with it: no client of
# this service pauses that long between two statements of one transaction.
IDLE_IN_TRANSACTION_SECONDS = 60
# How much longer than the statement timeout a wait for an answer may last before the answer counts as lost.
ANSWER_SLACK_SECONDS = 1.0
# How often a watchdog looks at its connection, from a call that waits for the server until it finds it idle outside a
# transaction.
LOOK_SECONDS = ANSWER_SLACK_SECONDS / 4

_ACTIVE = TransactionStatus.ACTIVE
_IDLE = TransactionStatus.IDLE
_BROKEN = TransactionStatus.UNKNOWN


class AnswerLost(psycopg.OperationalError):
    """The database did not answer in time: the connection was closed, and is never lent again."""


class Watchdog:
    """Gives up on an answer that does not come: the watchdog of one pooled connection (`WatchedConnection`).

    Each call of the connection that waits for the server starts the clock (`start`): a cursor's `execute`, a
    server-side cursor's fetches, a transaction's BEGIN (or SAVEPOINT) and its COMMIT (or ROLLBACK): the classes
    below, through documented methods of psycopg only. Once started, the watchdog looks at the connection every
    LOOK_SECONDS (a timer of the event loop) until it finds it idle outside a transaction: an idle connection has no
    timer. When libpq has been waiting for an answer `bound` seconds (the statement timeout and
    ANSWER_SLACK_SECONDS) since the clock last started, with nothing to read on the socket, the answer counts as
    lost: the watchdog shuts the socket down. psycopg's wait then ends as for a server that hung up (an
    OperationalError, the connection marked broken, so the pool closes it rather than lend it again), and the call
    raises that as `AnswerLost`, saying how long it waited.

    The bound is per answer, re-armed by every call, not per lease: a refold or an export runs many statements on
    one connection for minutes and is never cut, each answer having its own bound. A look that finds the connection
    between two statements (in a transaction, not waiting) starts the clock too, so the time the service spends
    between statements never counts. A wait no call starts the clock for (fetching in pipeline mode, a pipeline's
    sync, a server-side cursor's CLOSE) is watched from the previous call or look: every wait of a pooled connection
    is bounded.

    Why the socket is shut down, rather than the connection closed (`pgconn.finish()`) and the waiting task
    cancelled: closing the descriptor while psycopg's wait has a reader registered on it lets the next connection
    reuse the number under that reader (uvloop then stalls, see service/platform/listening.py), and a cancelled wait
    goes through psycopg's handling of a cancelled task, which asks the server to cancel the statement, a request
    that cannot help when the answer was lost, and waits for the server again (an `asyncio.timeout` around each
    statement would end the same way, and needs a scope around every call). `socket.shutdown` leaves the descriptor
    to libpq, which reads the end of the stream and closes it itself.
    """

    __slots__ = ("bound", "expired", "mark", "pgconn", "timer")

    def __init__(self, pgconn: psycopg.pq.abc.PGconn, bound: float) -> None:
        self.pgconn = pgconn
        self.bound = bound
        self.mark = 0.0  # when the clock last started
        self.timer: asyncio.TimerHandle | None = None
        self.expired = False

    def start(self) -> None:
        """Start the clock: a call that waits for the server begins."""
        self.mark = time.monotonic()
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(LOOK_SECONDS, self._look)

    def lost(self) -> AnswerLost:
        """What a call raises once the watchdog has shut its connection (from the error psycopg raised)."""
        return AnswerLost(f"The database did not answer within {self.bound:g} seconds; the connection was closed.")

    def __enter__(self) -> Self:
        """A call that waits for the server, in `with`: the clock starts, and the error psycopg raises once the
        watchdog has shut the connection is raised as `AnswerLost`."""
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        if (
            self.expired
            and isinstance(error, psycopg.OperationalError)
            and not isinstance(error, AnswerLost)  # raised as such already, by a call within this one
        ):
            raise self.lost() from error

    def _look(self) -> None:
        self.timer = None
        pgconn = self.pgconn
        status = pgconn.transaction_status
        if status == _IDLE or status == _BROKEN:
            return  # idle outside a transaction, or closed: nothing is awaited until the next call
        now = time.monotonic()
        wait = LOOK_SECONDS
        if status != _ACTIVE:
            self.mark = now  # between statements: the next one's answer is awaited from now at the earliest
        elif (left := self.mark + self.bound - now) > 0:
            wait = min(wait, left)
        elif pgconn.is_busy() and not _readable(pgconn.socket):
            self._expire()
            return
        # Else the answer is there, read by libpq or waiting on the socket, for psycopg to take (the event loop was
        # busy elsewhere): not lost.
        self.timer = asyncio.get_running_loop().call_later(wait, self._look)

    def _expire(self) -> None:
        self.expired = True
        log.warning("the database did not answer within %g s; closing the connection", self.bound)
        try:
            sock = socket.socket(fileno=self.pgconn.socket)
        except OSError:
            return
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the other end shut it first: psycopg meets that end all the same
        finally:
            sock.detach()  # the descriptor stays libpq's


def _readable(fd: int) -> bool:
    """Whether the socket has something to read."""
    if hasattr(select, "poll"):
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        return bool(poll.poll(0))
    return bool(select.select([fd], [], [], 0)[0])  # Windows, which has no poll()


class WatchedConnection(psycopg.AsyncConnection[Any]):
    """A connection with its watchdog, whose cursors and transactions start its clock (the class of the pool's
    connections)."""

    # The watchdog's bound: `pool` sets the statement timeout of its settings and ANSWER_SLACK_SECONDS.
    answer_seconds: ClassVar[float] = Settings.statement_timeout + ANSWER_SLACK_SECONDS

    @classmethod
    async def connect(cls, conninfo: str = "", **kwargs: Any) -> Self:
        # Set before the connection is judged (service/platform/lineage.py reads who answers it with a cursor).
        kwargs.setdefault("cursor_factory", WatchedCursor)
        conn = await super().connect(conninfo, **kwargs)
        conn.server_cursor_factory = WatchedServerCursor
        return conn

    @cached_property
    def watchdog(self) -> Watchdog:
        return Watchdog(self.pgconn, self.answer_seconds)

    @asynccontextmanager
    async def transaction(
        self, savepoint_name: str | None = None, force_rollback: bool = False
    ) -> AsyncIterator[psycopg.AsyncTransaction]:
        """psycopg's transaction block, whose BEGIN (or SAVEPOINT) and COMMIT (or ROLLBACK) each start the clock."""
        with self.watchdog as watchdog:
            async with super().transaction(savepoint_name, force_rollback) as tx:
                try:
                    yield tx
                finally:
                    watchdog.start()


# A cursor's connection's watchdog, read in C (these run on every statement).
_watchdog_of: Callable[[psycopg.AsyncCursor[Any]], Watchdog] = attrgetter("connection.watchdog")


class WatchedCursor(psycopg.AsyncCursor[Row]):
    """The pool's cursors: `execute` starts the connection's watchdog's clock (fetching from them waits only in
    pipeline mode, for the answers to statements whose `execute` started it)."""

    __slots__ = ()

    async def execute(
        self, query: Query, params: Params | None = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Self:
        # A query of either kind, for psycopg's overloads (plain and template queries), which mypy cannot match for
        # the union of both.
        given: Any = query
        with _watchdog_of(self):
            return await super().execute(given, params, prepare=prepare, binary=binary)

    async def executemany(self, query: Query, params_seq: Iterable[Params], *, returning: bool = False) -> None:
        with _watchdog_of(self):
            await super().executemany(query, params_seq, returning=returning)


class WatchedServerCursor(psycopg.AsyncServerCursor[Row]):
    """The pool's server-side cursors (a refold reads the log through one): DECLARE and each FETCH start the
    connection's watchdog's clock."""

    __slots__ = ()

    async def execute(
        self, query: Query, params: Params | None = None, *, binary: bool | None = None, **kwargs: Any
    ) -> Self:
        with _watchdog_of(self):
            return await super().execute(query, params, binary=binary, **kwargs)

    async def fetchone(self) -> Row | None:
        with _watchdog_of(self):
            return await super().fetchone()

    async def fetchmany(self, size: int = 0) -> list[Row]:
        with _watchdog_of(self):
            return await super().fetchmany(size)

    async def fetchall(self) -> list[Row]:
        with _watchdog_of(self):
            return await super().fetchall()


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

    `connection_class` is the connection the pool would make without the watchdog (service.lineage's, which admits
    only a server this process may write to); the pool's connections are that class with a `Watchdog` each.
    """
    watched = type(
        "WatchedConnection",
        (WatchedConnection, connection_class),
        {"answer_seconds": settings.statement_timeout + ANSWER_SLACK_SECONDS},
    )
    return AsyncConnectionPool(
        conninfo,
        connection_class=watched,
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
