"""While PostgreSQL is unreachable or slow: answer 503 quickly, saying what is known about the write.

The pool (service/platform/database.py) bounds every wait: for a connection, for a statement, for a lock, for an
answer (each pooled connection's watchdog closes a connection whose answer did not come, raising AnswerLost). Here
each of those ends becomes an answer: 503 with Retry-After and a sentence. A lock not had in time, a statement
stopped, a database that is read-only (a standby, or `default_transaction_read_only`) all wrote nothing; a write cut
off mid-commit, or whose answer was lost, answers that its outcome is unknown. A connection that broke while idle is
found by the first request that uses it; that request also starts a sweep of the idle connections (`pool.check()`),
so the next ones do not each meet another broken connection.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import psycopg
from litestar import Litestar, Request, Response
from psycopg import errors
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from quartermaster.service.http.problems import respond
from quartermaster.service.platform.synchronous import commits_wait
from quartermaster.service.store.outcome import NothingWritten, refused_by_the_server
from quartermaster.service.store.turns import CampaignBusy

log = logging.getLogger("quartermaster")

# Long enough for PostgreSQL to restart after a crash; short enough that a client's retry is soon.
RETRY_AFTER_SECONDS = 2
# A finding that commits wait for a synchronous standby is told in answers for this long after it was made.
WAIT_FINDING_SECONDS = 15.0


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


def note_commits_wait(app: Litestar, sentence: str | None) -> None:
    """What was last found of the database's commits: a sentence while they wait for a synchronous standby."""
    app.state.commits_wait = (sentence, time.monotonic())


def commits_waiting(app: Litestar) -> str | None:
    """The sentence of a recent finding that commits wait for a synchronous standby, else None."""
    found = getattr(app.state, "commits_wait", None)
    if found is None or found[0] is None or time.monotonic() - found[1] > WAIT_FINDING_SECONDS:
        return None
    return str(found[0])


def check_commits(app: Litestar) -> None:
    """Find out in the background (one check at a time) whether the database holds every commit for a synchronous
    standby, as a new leader does after a failover under Patroni's strict synchronous mode: a write that timed out
    or did not get its turn then says so, rather than blaming a long change of its campaign."""
    pool: AsyncConnectionPool | None = getattr(app.state, "pool", None)
    if pool is None or getattr(app.state, "checking_commits", None) is not None:
        return

    async def run() -> None:
        try:
            async with pool.connection(timeout=RETRY_AFTER_SECONDS) as conn:
                note_commits_wait(app, await commits_wait(conn))
        except Exception:  # the next write that fails looks again; never crash the loop
            log.info("could not check whether commits wait for a synchronous standby", exc_info=True)
        finally:
            app.state.checking_commits = None

    app.state.checking_commits = asyncio.get_running_loop().create_task(run())


def _waiting_detail(request: Request[Any, Any, Any], written: str) -> str | None:
    """The answer's sentence while commits wait for a synchronous standby; `written` says what became of this one."""
    check_commits(request.app)
    waiting = commits_waiting(request.app)
    if waiting is None:
        return None
    return (
        "The database holds every commit until a synchronous standby streams to it (as after a failover, while the "
        f"new primary waits for a standby), so this request could not be confirmed in time. {written}"
    )


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
    waiting = _waiting_detail(
        request,
        "It may be recorded once a standby connects. Send the same request again with the same event ids or the "
        "same Idempotency-Key: if it was recorded, the answer is what was recorded and nothing is written twice.",
    )
    if waiting is not None:
        return respond(503, waiting, "outcome-unknown", headers=retry)
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
    waiting = _waiting_detail(request, "It waited behind an earlier write of its campaign.")
    if waiting is not None:
        return _nothing_written(request, waiting, "campaign-busy")
    return _nothing_written(
        request,
        "This campaign is busy with another change that takes a while (a rebuild, a long undo, or many at once), "
        "and this one did not get its turn in time.",
        "campaign-busy",
    )


def on_statement_timeout(request: Request[Any, Any, Any], exc: errors.QueryCanceled) -> Response[bytes]:
    waiting = _waiting_detail(request, "It waited behind an earlier write of its campaign and was stopped.")
    if waiting is not None:
        return _nothing_written(request, waiting, "database-timeout")
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
