"""The pool's watchdog (service/platform/database.py): an answer that does not come within the statement timeout and a
second ends the wait with AnswerLost and a connection closed, never lent again; long work on one connection, many
statements and pauses between them, is never cut; an idle connection has no timer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

import psycopg
import pytest

from quartermaster.service.platform import database
from quartermaster.service.platform.database import ANSWER_SLACK_SECONDS, LOOK_SECONDS, AnswerLost
from quartermaster.service.platform.settings import Settings
from quartermaster.service.store.outcome import CommitOutcomeUnknown, transaction
from tests.faults.proxy import Cut, CuttingProxy

try:
    import uvloop
except ImportError:  # Windows: the service runs on asyncio's own loop there
    uvloop = None  # type: ignore[assignment]

STATEMENT_SECONDS = 0.2
BOUND = STATEMENT_SECONDS + ANSWER_SLACK_SECONDS
SENTENCE = f"The database did not answer within {BOUND:g} seconds; the connection was closed."
# Both event loops the service runs on: the watchdog reads and shuts a socket psycopg's wait has a reader on.
RUNNERS: dict[str, Callable[[Coroutine[Any, Any, Any]], Any]] = {"asyncio": asyncio.run}
if uvloop is not None:
    RUNNERS["uvloop"] = uvloop.run


def _pool(url: str) -> Any:
    settings = Settings(statement_timeout=STATEMENT_SECONDS, pool_min=1, pool_max=2, pool_timeout=5)
    return database.pool(settings, url, configure=database.configure)


@pytest.mark.parametrize("loop", RUNNERS)
def test_an_answer_later_than_the_bound_is_lost_and_its_connection_closed_not_lent_again(database_url, loop):
    async def scenario() -> tuple[BaseException | None, float, psycopg.AsyncConnection[Any], dict[str, int], int]:
        async with _pool(database_url) as pool:
            raised: BaseException | None = None
            started = time.monotonic()
            try:
                async with pool.connection() as conn:
                    lost = conn
                    # The server's own limit raised past the watchdog's, as if the answer were lost on the way.
                    await conn.execute("SET statement_timeout = '10s'")
                    await conn.execute("SELECT pg_sleep(3)")
            except psycopg.OperationalError as error:
                raised = error
            waited = time.monotonic() - started
            stats = pool.get_stats()
            async with pool.connection() as conn:  # the next lease gets a connection that answers
                row = await (await conn.execute("SELECT 1")).fetchone()
                assert conn is not lost
            return raised, waited, lost, stats, row[0]

    raised, waited, lost, stats, answered = RUNNERS[loop](scenario())

    assert isinstance(raised, AnswerLost) and str(raised) == SENTENCE
    assert BOUND - 0.1 < waited < BOUND + 1, waited  # not the 3 s the server took
    assert lost.closed and stats.get("returns_bad") == 1
    assert answered == 1


@pytest.mark.parametrize("pipeline", [False, True], ids=["alone", "in-pipeline"])
def test_a_lost_answer_to_commit_is_a_commit_of_unknown_outcome_within_the_bound(database_url, pipeline):
    params = psycopg.conninfo.conninfo_to_dict(database_url)
    cutting = CuttingProxy(params.get("host") or "127.0.0.1", int(params.get("port") or 5432))
    url = psycopg.conninfo.make_conninfo(database_url, host="127.0.0.1", port=cutting.port)

    async def scenario() -> tuple[BaseException, float]:
        async with _pool(url) as pool:
            await pool.wait()
            cutting.arm(Cut(b"COMMIT", before_sending=False, swallow=True))
            started = time.monotonic()
            try:
                async with asyncio.timeout(10):  # without the watchdog, the wait would never end
                    async with transaction(pool, pipeline=pipeline) as conn:
                        await conn.execute("SELECT 1")
            except psycopg.OperationalError as error:
                return error, time.monotonic() - started
            raise AssertionError("the commit was answered")

    try:
        raised, waited = asyncio.run(scenario())
    finally:
        cutting.close()

    assert cutting.cuts == 1
    assert isinstance(raised, CommitOutcomeUnknown) and str(raised) == SENTENCE
    assert isinstance(raised.__cause__, AnswerLost)
    assert waited < BOUND + 1, waited


def test_long_work_on_one_connection_is_never_cut(database_url):
    """Statements one after another past the bound, a pause longer than the bound inside the transaction, a
    server-side cursor read in fetches spread past the bound: each answer comes within the bound of its call."""

    async def scenario() -> list[int]:
        async with _pool(database_url) as pool, transaction(pool) as conn:
            started = time.monotonic()
            while time.monotonic() - started < BOUND + 0.3:
                await conn.execute("SELECT pg_sleep(0.15)")
            await asyncio.sleep(BOUND + 0.3)
            read: list[int] = []
            async with conn.cursor(name="spread") as cur:
                await cur.execute("SELECT generate_series(1, 6)")
                while rows := await cur.fetchmany(2):
                    read += [r[0] for r in rows]
                    await asyncio.sleep(BOUND / 2)
            return read

    assert asyncio.run(scenario()) == [1, 2, 3, 4, 5, 6]


def test_an_idle_connection_has_no_timer(database_url):
    async def scenario() -> tuple[bool, bool]:
        async with _pool(database_url) as pool, pool.connection() as conn:
            await conn.execute("SELECT 1")
            armed = conn.watchdog.timer is not None
            await asyncio.sleep(LOOK_SECONDS * 2)
            return armed, conn.watchdog.timer is None

    assert asyncio.run(scenario()) == (True, True)
