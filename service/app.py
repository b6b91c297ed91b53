"""The Litestar application: a lifespan-owned connection pool, the routes, problem answers, request logs."""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from litestar import Litestar, Request, get
from litestar.exceptions import ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from psycopg_pool import AsyncConnectionPool

from service import documentation, problems, web
from service.auth import DEPENDENCIES
from service.live import Wakeups
from service.migrate import pending
from service.routes import archive, audit, campaigns, dice, events, games, live, undo, views
from service.settings import Settings
from service.store import Store

log = logging.getLogger("quartermaster.requests")


class RequestLog:
    """One JSON line per request: method, path, status, milliseconds. Never headers, so never a token."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            log.info(json.dumps({
                "at": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "method": scope["method"], "path": scope["path"], "status": status,
                "ms": round((time.perf_counter() - started) * 1000, 2),
            }))


def on_validation(request: Request, exc: ValidationException) -> Any:
    """Litestar's checks of query and path parameters, as a sentence naming the parameter."""
    parts = []
    for item in exc.extra or []:
        if isinstance(item, dict):
            parts.append(f"{item.get('source', 'parameter')} parameter `{item.get('key')}`: {item.get('message')}")
    detail = "; ".join(parts) + "." if parts else (exc.detail or "The request is not valid.")
    return problems.respond(400, detail[0].upper() + detail[1:], "invalid-parameter")


def _configure_pool(conn: psycopg.AsyncConnection) -> None:
    # jsonb arrives as text we decode with msgspec where needed; skip psycopg's json.loads entirely.
    conn.adapters.register_loader("jsonb", psycopg.types.string.TextLoader)


def create_app(settings: Settings, conninfo: str) -> Litestar:
    """The app for one database. Migrations must already be applied (the CLI does it before serving)."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        pool = AsyncConnectionPool(
            conninfo, min_size=settings.pool_min, max_size=settings.pool_max, open=False,
            configure=_async_configure, kwargs={"autocommit": True},
        )
        await pool.open(wait=True)
        app.state.pool = pool
        app.state.store = Store(pool)
        app.state.wakeups = Wakeups(conninfo)
        await app.state.wakeups.start()
        try:
            yield
        finally:
            await app.state.wakeups.stop()
            await pool.close()

    @get("/healthz", summary="Liveness", include_in_schema=True)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @get("/readyz", summary="Readiness: the database answers and every migration is applied")
    async def readyz(request: Request) -> Any:
        try:
            async with request.app.state.pool.connection(timeout=2) as conn:
                missing = await pending(conn)
        except psycopg.Error as error:
            return problems.respond(503, f"The database does not answer: {error}", "not-ready")
        if missing:
            return problems.respond(503, f"Migrations not applied yet: {', '.join(missing)}.", "not-ready")
        return {"status": "ready"}

    return Litestar(
        route_handlers=[
            healthz, readyz, *campaigns.ROUTES, *events.ROUTES, *undo.ROUTES, *dice.ROUTES, *live.ROUTES,
            *archive.ROUTES, *views.ROUTES, *audit.ROUTES, *games.ROUTES, *web.ROUTES,
        ],
        lifespan=[lifespan],
        dependencies=DEPENDENCIES,
        exception_handlers={ValidationException: on_validation, **problems.HANDLERS},
        middleware=[RequestLog],
        request_max_body_size=settings.max_body_bytes,
        # The page under /schema is our own and loads nothing from another host; the document is completed from the
        # event types (service.documentation).
        openapi_config=OpenAPIConfig(title="Quartermaster", version="0.1.0", path="/schema",
                                     render_plugins=[documentation.Page(), documentation.Document()]),
        # Our request log is the one line per request; Litestar's own logging setup would wrap it.
        logging_config=None,
        debug=False,
    )


async def _async_configure(conn: psycopg.AsyncConnection) -> None:
    _configure_pool(conn)


CONNINFO_VARIABLE = "QUARTERMASTER_CONNINFO"


def from_environment() -> Litestar:
    """The app for worker processes started by `quartermaster serve --workers N` (an app factory for uvicorn)."""
    return create_app(Settings.from_env(), os.environ[CONNINFO_VARIABLE])
