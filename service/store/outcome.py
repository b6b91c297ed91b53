"""Whether a write that lost its connection was recorded: known only until COMMIT is sent.

If the connection breaks before COMMIT is sent, PostgreSQL rolls the transaction back, so nothing was written. Once
COMMIT is on its way, the server may have committed before the break, and only the log can tell. Every write of the
store goes through `transaction` (or `statement` for the one-statement fast path), which raises `NothingWritten` or
`CommitOutcomeUnknown` accordingly; the service answers 503 with that knowledge.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import Any

import psycopg
from psycopg_pool import PoolTimeout


class NothingWritten(psycopg.OperationalError):
    """The connection broke before COMMIT was sent: PostgreSQL rolled the transaction back."""


class CommitOutcomeUnknown(psycopg.OperationalError):
    """The connection broke once COMMIT was (or may have been) sent: the write may or may not be recorded."""


def refused_by_the_server(error: psycopg.Error) -> bool:
    """Whether PostgreSQL itself answered with this error (a lock or a statement timeout, a read-only database...):
    the transaction failed there, so nothing was written. Not a connection that broke (class 08), nor the server
    shutting down (57P), which say nothing of what was committed; nor a wait that gave up (no SQLSTATE at all)."""
    state = error.sqlstate
    return state is not None and not state.startswith(("08", "57P"))


@asynccontextmanager
async def transaction(pool: Any, *, pipeline: bool = False) -> AsyncIterator[psycopg.AsyncConnection]:
    """A pooled connection in a transaction; a lost connection says whether COMMIT had been sent."""
    committing = False
    try:
        async with pool.connection() as conn, conn.pipeline() if pipeline else nullcontext(), conn.transaction():
            yield conn
            # The caller's statements have all run (their results were read); leaving the block sends COMMIT.
            committing = True
    except PoolTimeout:
        raise  # no connection was ever had: nothing was sent
    except (NothingWritten, CommitOutcomeUnknown):
        raise
    except psycopg.OperationalError as error:
        if refused_by_the_server(error):
            raise  # answered, with an error: not committed, and the handler says which
        if committing:
            raise CommitOutcomeUnknown(str(error)) from error
        raise NothingWritten(str(error)) from error


def statement(pool: Any) -> _Statement:
    """A pooled connection for one statement in its own implicit transaction (`async with statement(pool) as conn`):
    a lost connection there may have committed, since the statement and its commit are one."""
    return _Statement(pool)


class _Statement:
    """`statement`'s block, a class rather than an asynccontextmanager: every append enters one, and the generator
    behind a contextmanager is several Python frames more on each way in and out."""

    __slots__ = ("conn", "pool")

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    async def __aenter__(self) -> psycopg.AsyncConnection[Any]:
        # getconn and putconn rather than pool.connection(): that one also enters the connection's own block, whose
        # COMMIT on exit is a no-op here (autocommit) that still takes the connection's lock; putconn alone returns a
        # broken connection to be replaced, as it does there.
        conn: psycopg.AsyncConnection[Any] = await self.pool.getconn()  # PoolTimeout: nothing was sent
        self.conn = conn
        return conn

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, _: Any) -> None:
        try:
            if isinstance(error, psycopg.OperationalError) and not refused_by_the_server(error):
                raise CommitOutcomeUnknown(str(error)) from error
        finally:
            await self.pool.putconn(self.conn)
