"""The Litestar application: a lifespan-owned connection pool, the routes, problem answers, logs and metrics."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import psycopg
from litestar import Litestar, Request, get
from litestar.exceptions import ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.types import ExceptionHandlersMap
from psycopg_pool import AsyncConnectionPool

from quartermaster.service.application.live import Wakeups
from quartermaster.service.http import (
    conventions,
    documentation,
    edge,
    guesses,
    idempotency,
    limits,
    outage,
    page,
    problems,
    replica,
)
from quartermaster.service.http.auth import DEPENDENCIES
from quartermaster.service.http.routes import (
    audit,
    boxes,
    campaigns,
    chronicles,
    dice,
    display,
    events,
    games,
    live,
    posts,
    transfer,
    undo,
    views,
)
from quartermaster.service.platform import database, logs, metrics, workers
from quartermaster.service.platform.collector import Collector
from quartermaster.service.platform.lineage import Lineage
from quartermaster.service.platform.migrate import not_ready
from quartermaster.service.platform.settings import Settings
from quartermaster.service.platform.synchronous import commits_wait
from quartermaster.service.platform.version import VERSION
from quartermaster.service.store import Store
from quartermaster.service.store.turns import Turns


def on_validation(request: Request[Any, Any, Any], exc: ValidationException) -> Any:
    """Litestar's checks of query and path parameters, as a sentence naming the parameter."""
    parts = []
    for item in exc.extra or []:
        if isinstance(item, dict):
            source = item.get("source", "")
            where = getattr(source, "value", source) or "a"
            parts.append(f"{where} parameter `{item.get('key')}`: {item.get('message')}")
    detail = "; ".join(parts) + "." if parts else (exc.detail or "The request is not valid.")
    return problems.respond(400, detail[0].upper() + detail[1:], "invalid-parameter")


@get("/healthz", summary="Liveness", include_in_schema=True)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@get("/readyz", summary="Readiness: the database answers and every migration is applied")
async def readyz(request: Request[Any, Any, Any]) -> Any:
    try:
        async with request.app.state.pool.connection() as conn:
            refusal = await not_ready(conn) or await commits_wait(conn)
    except psycopg.Error as error:
        outage.sweep(request.app)
        refusal = request.app.state.lineage.refusal()
        return problems.respond(
            503,
            refusal or f"The database does not answer, so this server is not ready ({error}).",
            "not-ready",
            headers={"Retry-After": str(outage.RETRY_AFTER_SECONDS)},
        )
    if refusal is not None:
        return problems.respond(503, refusal, "not-ready")
    return {"status": "ready"}


ROUTES = [
    healthz,
    readyz,
    *campaigns.ROUTES,
    *events.ROUTES,
    *undo.ROUTES,
    *dice.ROUTES,
    *live.ROUTES,
    *transfer.ROUTES,
    *views.ROUTES,
    *audit.ROUTES,
    *chronicles.ROUTES,
    *posts.ROUTES,
    *boxes.ROUTES,
    *display.ROUTES,
    *games.ROUTES,
    *page.ROUTES,
    *metrics.ROUTES,
]


def create_app(settings: Settings, conninfo: str) -> Litestar:
    """The app for one database. Migrations must already be applied (the CLI does it before serving)."""
    app = Litestar(
        route_handlers=ROUTES,
        lifespan=[serving(settings, conninfo)],
        dependencies=DEPENDENCIES,
        # What every request gets, given by Litestar's own layers (service/http/edge.py).
        middleware=edge.MIDDLEWARE,
        before_send=edge.HOOKS,
        exception_handlers=_exception_handlers(),
        request_max_body_size=settings.max_body_bytes,
        openapi_config=_documentation(),
        logging_config=logs.CONFIG,
        debug=False,
    )
    _around(app, settings)
    return app


def serving(settings: Settings, conninfo: str) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    """The app's lifespan: what it opens before the first request (the pools, the store, the live feeds, the
    metrics), each closed after the last."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        pool, replica_pool = await _open_store(app, settings, conninfo)
        app.state.wakeups = Wakeups(app.state.store)
        await app.state.wakeups.start()
        metrics.POOLS.pools.append(pool)
        # One of several workers: its metrics where the others' scrapes add them up (service/platform/workers.py).
        shared = workers.folder()
        publishing = asyncio.create_task(workers.publishing(shared)) if shared is not None else None
        # What lives long (start-up's code and catalogues, then the followed campaigns and their streams) is frozen
        # out of the collector's full passes, a step at a time (service/platform/collector.py).
        collector = Collector()
        collector.start()
        try:
            yield
        finally:
            if publishing is not None:
                publishing.cancel()
                await asyncio.gather(publishing, return_exceptions=True)
            await collector.stop()
            await app.state.wakeups.stop()
            await app.state.store.stop_listening()
            metrics.POOLS.pools.remove(pool)
            await pool.close()
            if replica_pool is not None:
                await replica_pool.close()

    return lifespan


async def _open_store(
    app: Litestar, settings: Settings, conninfo: str
) -> tuple[AsyncConnectionPool, AsyncConnectionPool | None]:
    """Open the pool (and the replica's, if any) and the store over it, hearing member changes; both pools."""
    lineage = Lineage()
    pool = database.pool(settings, conninfo, configure=database.configure, connection_class=lineage.connection_class())
    await pool.open(wait=True)
    app.state.pool = pool
    app.state.store = Store(pool, turns=Turns(settings.connections_per_campaign, settings.lock_timeout))
    # Every process hears every token replacement and revocation (service/store/members.py).
    await app.state.store.listen_for_member_changes(conninfo, database.CONNECT_TIMEOUT)
    app.state.lineage = lineage
    lineage.on_change.append(app.state.store.forget)
    replica_pool = replica.open_replica(app, settings, database.configure)
    if replica_pool is not None:
        await replica_pool.open(wait=False)  # a replica that does not answer leaves every read to the primary
    return pool, replica_pool


def _documentation() -> OpenAPIConfig:
    # The page under /schema is our own and loads nothing from another host; the document is completed from the
    # event types (service/http/documentation.py).
    return OpenAPIConfig(
        title="Quartermaster",
        version=VERSION,
        path="/schema",
        render_plugins=[documentation.Page(), documentation.Document()],
    )


def _around(app: Litestar, settings: Settings) -> None:
    """What wraps the app's handler, and the state its routes read: HEAD, the sub-path, the two limits."""
    # HEAD on every GET route, the page and health checks included (service/http/conventions.py).
    app.asgi_handler = conventions.Head(app)
    if settings.root_path:
        app.asgi_handler = edge.Mounted(app.asgi_handler, settings.root_path)
    # The page writes its own addresses under the sub-path (service/http/page.py).
    app.state["root_path"] = settings.root_path
    # The two routes anyone may call carry the limit themselves (service/http/limits.py); it is counted per app.
    app.state[limits.STATE_KEY] = limits.limit(settings.rate_limit)
    # Wrong member tokens, counted per client address in this process (service/http/guesses.py).
    app.state[guesses.STATE_KEY] = guesses.guesses(settings.wrong_tokens)


def _exception_handlers() -> ExceptionHandlersMap:
    """The app's exception handlers, those that answer for the router among them (service/http/edge.py)."""
    handlers: ExceptionHandlersMap = {ValidationException: on_validation}
    # By their items: Litestar's map is keyed by `int | type[Exception]`, and a dict keyed by exception types alone
    # is not one to a type checker.
    for more in (problems.HANDLERS, outage.HANDLERS, idempotency.HANDLERS, edge.HANDLERS):
        handlers.update(more.items())
    return handlers


CONNINFO_VARIABLE = "QUARTERMASTER_CONNINFO"


def from_environment() -> Litestar:
    """The app for worker processes started by `quartermaster serve --workers N` (an app factory for uvicorn)."""
    logs.to_stderr()  # a worker is a new process: uvicorn's own records in it are JSON lines too
    return create_app(Settings.from_env(), os.environ[CONNINFO_VARIABLE])
