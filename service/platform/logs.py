"""Logs: one JSON object per line on standard error, each with its level and the id of the request it belongs to.

Litestar configures the standard library's logging from `CONFIG` (a formatter, a handler, the `quartermaster`
logger). Every HTTP request gets an id (`request_id_for`), answered in the `x-request-id` header, and one `request`
record when the answer has been sent (`request`), both by service/http/edge.py's layers. A
traceback travels inside its record, as the `traceback` field, so every record stays one line. Litestar's own
LoggingMiddleware is not used: it writes a record per body chunk, which for the live stream would be one per event
and per heartbeat.
"""

from __future__ import annotations

import logging
import random
import re
import time
from collections.abc import Iterable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar.logging.config import LoggingConfig

HEADER = "x-request-id"
_HEADER = HEADER.encode()
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


def request_id_for(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The caller's own `x-request-id` when it looks like one, else a new one (128 random bits in hex).

    The bits come from `random`, not the system's source: an id names a request in the logs and guards nothing, and
    os.urandom was a system call on every request. (Each worker process draws from its own seed.)"""
    for name, value in headers:
        if name == _HEADER:
            offered = value.decode("latin-1")
            if _CALLERS_ID.fullmatch(offered):
                return offered
            break
    return f"{random.getrandbits(128):032x}"


class _RequestLine(msgspec.Struct):
    # The fields, in the order, JsonLines writes a request record with.
    at: str
    level: str
    logger: str
    message: str
    request_id: str
    method: str
    path: str
    status: int
    ms: float


_encode_line = msgspec.json.Encoder().encode


def request(rid: str, method: str, path: str, status: int, seconds: float) -> None:
    """The one `request` record of an answer: method, path (never the query or the headers, so never a token), status
    and milliseconds.

    It is written on every request, so where it goes to a stream handler with our formatter and filter it skips
    making and formatting a LogRecord (which cost more than the rest of the request's own layers together) and writes
    the same line under the handler's lock. Any other handler gets a record as usual."""
    if not log.isEnabledFor(logging.INFO):
        return
    if log.filters:  # someone sifts the request records: logging decides, as for any record
        log.handle(_record(rid, method, path, status, round(seconds * 1000, 2)))
        return
    ms = round(seconds * 1000, 2)
    line: str | None = None
    record: logging.LogRecord | None = None
    logger: logging.Logger | None = log
    while logger is not None:
        for handler in logger.handlers:
            if handler.level > logging.INFO:
                continue
            if (
                isinstance(handler, logging.StreamHandler)
                and type(handler.formatter) is JsonLines
                # no filter, or only ours, which puts the request's id on the record (what CONFIG gives): read in
                # place, as a generator over the filters made a frame on every request (any other goes below)
                and (
                    not handler.filters or (len(handler.filters) == 1 and type(handler.filters[0]) is RequestIdOnRecord)
                )
            ):
                if line is None:
                    fields = _RequestLine(_now(), "info", log.name, "request", rid, method, path, status, ms)
                    line = _encode_line(fields).decode() + handler.terminator
                try:
                    with handler.lock:  # type: ignore[union-attr]
                        handler.stream.write(line)
                        handler.stream.flush()
                except Exception:
                    record = record or _record(rid, method, path, status, ms)
                    handler.handleError(record)
            else:
                record = record or _record(rid, method, path, status, ms)
                handler.handle(record)
        logger = logger.parent if logger.propagate else None


_second = (0, datetime.fromtimestamp(0, UTC).strftime("%Y-%m-%dT%H:%M:%S"))


def _now() -> str:
    """The time as JsonLines writes it (UTC, to the millisecond); the date and the second are formatted once a
    second, not once a request."""
    global _second
    now = time.time()
    whole = int(now)
    if whole != _second[0]:
        _second = (whole, datetime.fromtimestamp(whole, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{_second[1]}.{int((now - whole) * 1000):03d}+00:00"


def _record(rid: str, method: str, path: str, status: int, ms: float) -> logging.LogRecord:
    extra = {"request_id": rid, "method": method, "path": path, "status": status, "ms": ms}
    return log.makeRecord(log.name, logging.INFO, __file__, 0, "request", (), None, extra=extra)


def to_stderr() -> None:
    """Every other logger's records (uvicorn's own, psycopg's, the commands') as JSON lines on standard error too:
    the root logger's one handler, set once per process (the CLI's, and each worker's before uvicorn logs)."""
    root = logging.getLogger()
    if any(type(h.formatter) is JsonLines for h in root.handlers):
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    handler.addFilter(RequestIdOnRecord())
    root.addHandler(handler)
    root.setLevel(logging.INFO)


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
    # Unexpected errors are logged once, with their traceback, by the 500 handler in service/http/problems.py.
    log_exceptions="never",
)
