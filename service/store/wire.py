"""The fast path's one statement, prepared once per connection and sent through libpq itself (`psycopg.pq`).

A one-note append is one statement in its own implicit transaction: WRITE_ONE (service/store/writing.py), with
parameters of known types and one timestamp back. psycopg's cursor does for it what a general driver must do on
every execute: look its parameters' types up and dump them through its adapters, decide whether to prepare it, keep
result state, and wait through a generator with a timer beside every wait. `Prepared` sends the same statement as
libpq's PQsendQueryPrepared with text parameters it encodes by their Python types, waits for the socket once, and
loads the answer with the connection's own psycopg loader, so what it answers is what psycopg would have. (What
that saved is in the ledger of benchmarks/README.md.) With the fast lane off (Settings.fast_lane), the store sends
the same statement through psycopg's cursor instead and never calls this module.

Everything else stays with psycopg: the pool, connecting, transactions, pipelines, every other statement. A
connection comes from the pool idle and goes back idle; nothing here changes its settings or transaction state. Only
while a statement is in flight does this module own it, and a statement interrupted there (a cancelled request, a
broken connection) closes the connection, so that the pool replaces it rather than lend it out mid-answer.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import Any, NamedTuple

import psycopg
from psycopg import errors, pq
from psycopg.abc import Loader

_PLACEHOLDER = re.compile(r"%s")
# What the statement's answer can say, read once here rather than through pq's enum on every statement.
_FAILED = pq.ExecStatus.FATAL_ERROR
_ANSWERED = frozenset({pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK})
# libpq's PQsendQueryPrepared, as psycopg's connection wraps it: `_exchange` calls it with the connection.
_RUN_PREPARED = pq.PGconn.send_query_prepared
# What PostgreSQL answers when a connection lost a statement prepared on it (DEALLOCATE ALL, DISCARD ALL).
_NOT_PREPARED = "26000"


def numbered(query: str) -> str:
    """A query written with psycopg's `%s` placeholders, with libpq's numbered ones ($1, $2, ...) in their place.

    The statement keeps one text for both drivers; it holds no literal `%` (psycopg would need it doubled too)."""
    if "%%" in query or "%(" in query:
        raise ValueError("Only plain %s placeholders can be numbered for libpq.")
    count = iter(range(1, query.count("%s") + 1))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", query)


def _uuid_text(value: uuid.UUID) -> bytes:
    """A UUID as psycopg's text dumper writes it (its 32 hex digits, `hex`), from its integer, in C (uuid.UUID's own
    `hex` and `__str__` are Python)."""
    return b"%032x" % value.int


_UUID = uuid.UUID


def _text(value: Any, encoding: str) -> bytes | None:
    """A parameter in PostgreSQL's text input form, by its Python type, as psycopg's text dumpers write it."""
    kind = type(value)
    if kind is str:
        # libpq reads a text parameter up to its first NUL: refuse one, as psycopg's dumper does, rather than cut it.
        if "\x00" in value:
            raise psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return value.encode(encoding)  # type: ignore[no-any-return]
    if value is None:
        return None
    if kind is _UUID:
        return _uuid_text(value)
    if kind is bool:
        return b"t" if value else b"f"
    if kind is int:
        return b"%d" % value
    if kind is datetime or kind is date:
        if kind is datetime and value.tzinfo is None:
            raise TypeError("A naive datetime has no unambiguous timestamptz; give it a time zone.")
        return value.isoformat().encode()  # type: ignore[no-any-return]
    raise TypeError(f"No text form for a parameter of type {kind.__name__}.")


class Prepared:
    """One statement with `%s` placeholders, prepared on each pooled connection at its first use there, whose first
    row comes back loaded by the connection's own loaders."""

    def __init__(self, name: str, query: str) -> None:
        self.name = name.encode()
        self.query = query
        self._text = numbered(query).encode()
        # Per connection, once the statement is prepared there: the encoding of its text and the loaders of the
        # result's columns. Connections the pool has closed are dropped when a new one is added, so this stays about
        # the size of the pool.
        self._ready: dict[psycopg.AsyncConnection[Any], _Ready] = {}

    async def first_row(
        self, conn: psycopg.AsyncConnection[Any], params: Sequence[Any], loop: asyncio.AbstractEventLoop | None = None
    ) -> tuple[Any, ...] | None:
        """Run the statement with `params` on an idle connection in autocommit; its first row, or None. `loop` is
        the running loop, when the caller has it: asking for it is a getpid() system call each time.

        PostgreSQL's errors raise as psycopg raises them (psycopg.errors.UniqueViolation, ...); a connection lost on
        the way raises psycopg.OperationalError."""
        ready = self._ready.get(conn)
        if ready is None:
            ready = await self._prepare(conn)
        encoding = ready.encoding
        # _text's answers, with the commonest cases (None, text without NUL, a UUID, an int, a bool: every parameter
        # of a one-note append) written here rather than called for, once per parameter, each parameter's type read
        # once: this runs for every append.
        values = [
            None
            if value is None
            else value.encode(encoding)
            if (kind := type(value)) is str and "\x00" not in value
            else b"%032x" % value.int  # _uuid_text
            if kind is _UUID
            else b"%d" % value
            if kind is int
            else (b"t" if value else b"f")
            if kind is bool
            else _text(value, encoding)
            for value in params
        ]
        if loop is None:
            loop = asyncio.get_running_loop()
        try:
            result = await _exchange(conn, loop, _RUN_PREPARED, self.name, values)
        except errors.Error as error:
            if error.sqlstate != _NOT_PREPARED:
                raise
            # Something deallocated it on this connection; nothing was run, so preparing again and running is safe.
            del self._ready[conn]
            ready = await self._prepare(conn)
            result = await _exchange(conn, loop, _RUN_PREPARED, self.name, values)
        if not result.ntuples:
            return None
        # Each column loaded, NULL as None, in a loop (a generator, or a wrapper per loader, is a Python frame more).
        row = []
        for column, load in enumerate(ready.loaders):
            value = result.get_value(0, column)
            row.append(None if value is None else load(value))
        return tuple(row)

    async def _prepare(self, conn: psycopg.AsyncConnection[Any]) -> _Ready:
        loop = asyncio.get_running_loop()
        await _exchange(conn, loop, pq.PGconn.send_prepare, self.name, self._text)
        described = await _exchange(conn, loop, pq.PGconn.send_describe_prepared, self.name)
        encoding = conn.info.encoding
        ready = _Ready(
            # psycopg writes text in the connection's encoding, and UTF-8 to a SQL_ASCII database.
            encoding="utf-8" if encoding == "ascii" else encoding,
            loaders=[_loader(conn, described.ftype(column)) for column in range(described.nfields)],
        )
        for gone in [known for known in self._ready if known.closed]:
            del self._ready[gone]
        self._ready[conn] = ready
        return ready


class _Ready(NamedTuple):
    encoding: str
    loaders: list[Callable[[bytes], Any]]


def _loader(conn: psycopg.AsyncConnection[Any], oid: int) -> Callable[[bytes], Any]:
    """How the connection's psycopg loads a text value of this type (the loaders the app registered included); a
    NULL is None without it."""
    # A type psycopg has no loader for comes back as text, as psycopg answers it (the loader of the unknown oid, 0).
    kind: type[Loader] | None = conn.adapters.get_loader(oid, pq.Format.TEXT) or conn.adapters.get_loader(
        0, pq.Format.TEXT
    )
    if kind is None:
        raise TypeError(f"psycopg has no loader for type oid {oid}.")
    return kind(oid, conn).load


async def _exchange(
    conn: psycopg.AsyncConnection[Any], loop: asyncio.AbstractEventLoop, send: Callable[..., None], *args: Any
) -> pq.abc.PGresult:
    """Send one command on an idle nonblocking connection (`send(pgconn, *args)`, a method of libpq's connection) and
    wait on `loop`, the running one, for its one result (its error raised).

    Interrupted before its answer is read (cancelled, or any failure on the way), the connection is left with a
    command in flight, and is closed: the pool then replaces it (putconn of a closed connection)."""
    pgconn = conn.pgconn
    done = False
    try:
        send(pgconn, *args)
        fd = pgconn.socket
        while pgconn.flush():  # 1 while libpq still holds unsent bytes: wait until the socket takes more
            await _ready(loop, loop.add_writer, loop.remove_writer, fd)
        # A command sent this way has one result, then libpq's None, which leaves the connection idle. Each is read
        # only once libpq says it will not block (is_busy), as psycopg's own fetch does.
        results = []
        while True:
            pgconn.consume_input()
            while pgconn.is_busy():
                # _ready(loop, loop.add_reader, loop.remove_reader, fd) written out: every statement waits here, once
                # or more, and a coroutine call per wait was a Python frame more.
                answer = loop.create_future()
                loop.add_reader(fd, answer.set_result, None)
                try:
                    await answer
                finally:
                    loop.remove_reader(fd)
                pgconn.consume_input()
            if (got := pgconn.get_result()) is None:
                break
            results.append(got)
        done = True
    finally:
        if not done:
            pgconn.finish()
    if not results:
        raise psycopg.OperationalError("The server sent no result for the command.")
    result = results[0]
    if result.status == _FAILED:
        raise errors.error_from_result(result, encoding=conn.info.encoding)
    if result.status not in _ANSWERED:
        raise psycopg.InterfaceError(f"Unexpected result status {pq.ExecStatus(result.status).name}.")
    return result


async def _ready(
    loop: asyncio.AbstractEventLoop, add: Callable[..., None], remove: Callable[[int], Any], fd: int
) -> None:
    """Until the socket is ready for what `add` registers (loop.add_reader or add_writer). The loop is passed in:
    asking for the running loop is a getpid() system call each time."""
    ready = loop.create_future()
    add(fd, ready.set_result, None)
    try:
        await ready
    finally:
        remove(fd)
