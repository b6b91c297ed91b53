"""Whether a write that lost its connection was recorded: known only until COMMIT is sent.

If the connection breaks before COMMIT is sent, PostgreSQL rolls the transaction back, so nothing was written. Once
COMMIT is on its way, the server may have committed before the break, and only the log can tell. Every write of the
store goes through `transaction` (or `statement` for the one-statement fast path), which raises `NothingWritten` or
`CommitOutcomeUnknown` accordingly; the service answers 503 with that knowledge.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, nullcontext
from typing import Any

import psycopg
from psycopg_pool import PoolTimeout

from quartermaster.service.store.wire import Prepared


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
    """`statement`'s block, a class rather than an asynccontextmanager: with the lane off, every append enters one, and
    the generator behind a contextmanager is several Python frames more on each way in and out."""

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


async def one_row(pool: Any, prepared: Prepared, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """Run one statement in its own implicit transaction on a pooled connection and answer its first row: what
    `statement` does, without a context manager, for the fast path's one statement, which goes through libpq
    itself (service/store/wire.py says why)."""
    conn = await pool.getconn()  # PoolTimeout: no connection was ever had, nothing was sent
    # The fast path waits through libpq itself, not through the connection's own bounded wait (service/http/outage.py):
    # it is bounded here, by a watch over every statement in flight (`_Answers`), which costs a dictionary entry,
    # where an asyncio.timeout per statement costs a timer (the ledger in benchmarks/README.md has what it cost).
    # The entry is made and dropped here rather than through methods of the watch: this runs for every append.
    bound: float | None = getattr(conn, "answer_seconds", None)
    answers: _Answers | None = (getattr(pool, _ANSWERS, None) or _answers(pool)) if bound else None
    # Asked for once and handed on (to current_task and the wire): each time is a getpid() system call.
    loop = asyncio.get_running_loop()
    task = None
    if answers is not None:
        task = asyncio.current_task(loop)
        answers.deadlines[task] = _monotonic() + bound  # type: ignore[operator]
        if answers.watching is None:
            answers.watch()
    try:
        return await prepared.first_row(conn, params, loop)
    except asyncio.CancelledError:
        if answers is not None and answers.was_cut(task):
            # Cut off, wire._exchange closed the connection: the pool replaces it.
            raise CommitOutcomeUnknown(f"The database did not answer within {bound:g} seconds.") from None
        raise
    except psycopg.OperationalError as error:
        if refused_by_the_server(error):
            raise
        raise CommitOutcomeUnknown(str(error)) from error
    finally:
        if answers is not None:
            del answers.deadlines[task]
            if answers.cut:
                answers.cut.discard(task)
        await pool.putconn(conn)


_monotonic = time.monotonic
# The attribute of a pool that holds its watch.
_ANSWERS = "_quartermaster_answers"


class _Answers:
    """The fast path's statements in flight on one pool, each with its deadline; while any is, a task sleeps until
    the soonest of them and cancels the ones past theirs.

    Every connection of a pool has the same bound (service/http/outage.py), so a statement expected later is due later
    and never before the watch wakes. It wakes about once a bound while statements are in flight, rather than four
    times a second: those wake-ups came at the pace of the clock, not of the requests, and under callgrind
    (benchmarks/asgi_cpu.py, where the clock runs fast against the program) they were counted into every append by
    however long the machine's load made the run."""

    # How soon to look again when every statement past its deadline has been cut and is only still finishing.
    PERIOD = 0.25

    def __init__(self) -> None:
        self.deadlines: dict[Any, float] = {}
        self.cut: set[Any] = set()
        self.watching: asyncio.Task[None] | None = None

    def watch(self) -> None:
        """Start watching: `one_row` has put a statement in `deadlines` and no task watches yet."""
        self.watching = asyncio.get_running_loop().create_task(self._watch())

    def was_cut(self, task: Any) -> bool:
        if task not in self.cut:
            return False
        task.uncancel()
        return True

    async def _watch(self) -> None:
        try:
            while self.deadlines:
                now = time.monotonic()
                for task, deadline in list(self.deadlines.items()):
                    if deadline <= now and task not in self.cut:
                        self.cut.add(task)
                        task.cancel()
                waiting = [deadline for task, deadline in self.deadlines.items() if task not in self.cut]
                await asyncio.sleep(min(waiting) - now if waiting else self.PERIOD)
        finally:
            self.watching = None


def _answers(pool: Any) -> _Answers:
    answers: _Answers | None = getattr(pool, _ANSWERS, None)
    if answers is None:
        answers = _Answers()
        setattr(pool, _ANSWERS, answers)
    return answers
