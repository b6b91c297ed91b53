"""Logs: one JSON object per line on standard error, each with its level and the id of the request it belongs to.

Litestar configures the standard library's logging from `CONFIG` (a formatter, a handler, the `quartermaster`
logger). `RequestIds` gives every HTTP request an id, answers it in the `x-request-id` header, and writes one
`request` record when the answer has been sent: method, path (never the query or the headers, so never a token),
status and milliseconds. A traceback travels inside its record, as the `traceback` field, so every record stays one
line. Litestar's own LoggingMiddleware is not used: it writes a record per body chunk, which for the live stream
would be one per event and per heartbeat.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar.enums import ScopeType
from litestar.logging.config import LoggingConfig
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

HEADER = "x-request-id"
# A caller may bring its own id (a proxy's, say), if it looks like one; anything else is replaced.
_CALLERS_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
log = logging.getLogger("quartermaster.requests")

# What every LogRecord carries; anything else on a record came from `extra=` and goes into the JSON too.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}
_encode = msgspec.json.Encoder(enc_hook=str).encode


class JsonLines(logging.Formatter):
    """A record as one JSON object on one line: time, level, logger, message, request id, extras, traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "at": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or request_id.get()
        if rid is not None:
            line["request_id"] = rid
        line.update((k, v) for k, v in vars(record).items() if k not in _STANDARD and k != "request_id")
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return _encode(line).decode()


class RequestIdOnRecord(logging.Filter):
    """Copy the request id onto the record where it is made, in case it is written from another thread."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


class RequestIds(ASGIMiddleware):
    """An id per request, in the answer's `x-request-id` header and on every log record written while serving it."""

    scopes = (ScopeType.HTTP,)

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        offered = next((v.decode("latin-1") for k, v in scope["headers"] if k == HEADER.encode()), "")
        rid = offered if _CALLERS_ID.fullmatch(offered) else uuid.uuid4().hex
        token = request_id.set(rid)
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (HEADER.encode(), rid.encode())]
            await send(message)

        try:
            await next_app(scope, receive, sending)
        finally:
            log.info(
                "request",
                extra={
                    "method": scope["method"],
                    "path": scope["path"],
                    "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 2),
                },
            )
            request_id.reset(token)


CONFIG = LoggingConfig(
    formatters={"json": {"()": JsonLines}},
    filters={"request_id": {"()": RequestIdOnRecord}},
    handlers={
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "json",
            "filters": ["request_id"],
        }
    },
    loggers={"quartermaster": {"level": "INFO", "handlers": ["stderr"], "propagate": False}},
    configure_root_logger=False,
    # Unexpected errors are logged once, with their traceback, by the 500 handler in service/problems.py.
    log_exceptions="never",
)
