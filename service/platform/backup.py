"""Backups: every campaign, with its members (tokens' digests included), options, projections and snapshots, copied
in one consistent snapshot while the service runs, and restored into an empty database.

The file is gzip: a first line of JSON (what made it, the migrations its schema had, each table's columns and row
count), then each table's rows in PostgreSQL's COPY text format (one line a row: COPY escapes the newlines inside
a value), then a last line of JSON with the SHA-256 of everything before it, so a cut or damaged file is refused
before anything is written. Rows travel as COPY moves them, through psycopg's public `Cursor.copy`, on the embedded
PostgreSQL and on any other alike: no `pg_dump` of a matching major version is needed.

Two kinds of column do not travel. A transaction id (`xid8`, the events' `tx_id`) belongs to the cluster that made
it: copied into a newer cluster whose transaction counter is behind it, the feed across campaigns (which reads
below the oldest running transaction) would not see those events until the counter caught up. The restored rows
take the column's default instead, the restoring transaction's own id, which keeps the feed's order
`(tx_id, global_position)` the order of `global_position`. And an identity column's sequence is moved past the
restored values, so the next append numbers on from them.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import psycopg
from psycopg import sql

from quartermaster.service.platform.migrate import available, migrate
from quartermaster.service.platform.version import VERSION

FORMAT = "quartermaster-backup/1"
# Written into a backup, never restored: the restoring database's own ledger of migrations is made by migrating it.
_LEDGER = "schema_migrations"
_ROWS_PER_WRITE = 2000


class BackupError(RuntimeError):
    """A backup that cannot be made or restored, in a sentence saying why and what to do."""


class Table(msgspec.Struct, frozen=True):
    name: str
    columns: list[str]
    rows: int
    # Identity columns, whose sequences move past the restored values.
    identities: list[str] = []


class Header(msgspec.Struct, frozen=True):
    format: str
    quartermaster: str
    made_at: str
    migrations: list[str]
    tables: list[Table]

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)

    @property
    def campaigns(self) -> int:
        return next((t.rows for t in self.tables if t.name == "campaigns"), 0)


class Trailer(msgspec.Struct, frozen=True):
    sha256: str


_header = msgspec.json.Decoder(Header)
_trailer = msgspec.json.Decoder(Trailer)

# The schema's own tables, in an order that restores every row after the rows it references.
_TABLES = """
SELECT c.relname,
       coalesce((SELECT array_agg(DISTINCT f.confrelid::regclass::text)
                 FROM pg_constraint f WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid), '{}')
FROM pg_class c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
ORDER BY c.relname
"""
_COLUMNS = """
SELECT a.attname, a.atttypid = 'xid8'::regtype, a.attidentity <> ''
FROM pg_attribute a
WHERE a.attrelid = %s::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
ORDER BY a.attnum
"""


def _tables(conn: psycopg.Connection[Any]) -> list[tuple[str, list[str], list[str]]]:
    """Every table of the schema but the migrations' ledger, referenced tables first: (name, columns, identities)."""
    found = {name: set(refs) for name, refs in conn.execute(_TABLES).fetchall()}
    ordered: list[str] = []
    while len(ordered) < len(found):
        ready = sorted(n for n, refs in found.items() if n not in ordered and refs <= set(ordered) | {n})
        if not ready:  # a cycle of foreign keys: none of this project's tables has one
            ready = sorted(n for n in found if n not in ordered)
        ordered += ready
    tables = []
    for name in ordered:
        if name == _LEDGER:
            continue
        columns = conn.execute(_COLUMNS, (name,)).fetchall()
        tables.append(
            (name, [c for c, xid, _ in columns if not xid], [c for c, xid, identity in columns if identity and not xid])
        )
    return tables


class _Hashing:
    """A binary file that hashes what is written to or read from it."""

    def __init__(self, file: gzip.GzipFile) -> None:
        self.file = file
        self.digest = hashlib.sha256()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.digest.update(data)
        self.file.write(data)

    def readline(self) -> bytes:
        line = self.file.readline()
        self.digest.update(line)
        return line


def _nothing(rows: int) -> None:
    return None


def backup(
    conninfo: str, target: Path, total: Callable[[int], object] = _nothing, done: Callable[[int], object] = _nothing
) -> Header:
    """Write every campaign to `target` (replaced only once complete), from one consistent snapshot of the database;
    `total` is told how many rows there are, then `done` of rows as they are written (for a progress bar)."""
    partial = target.with_name(target.name + ".partial")
    try:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            # One snapshot for every table: what the service commits meanwhile is in none of them, or in all.
            with conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                ledger = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
                if ledger is None or not ledger[0]:
                    raise BackupError("This database has no Quartermaster tables: there is nothing to back up.")
                migrations = [v for (v,) in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
                tables = []
                for name, columns, identities in _tables(conn):
                    count = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(name))).fetchone()
                    tables.append(Table(name, columns, count[0] if count else 0, identities))
                header = Header(
                    FORMAT,
                    VERSION,
                    datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                    migrations,
                    tables,
                )
                total(header.rows)
                with gzip.open(partial, "wb", compresslevel=6) as raw:
                    out = _Hashing(raw)
                    out.write(msgspec.json.encode(header) + b"\n")
                    for table in tables:
                        statement = sql.SQL("COPY {} ({}) TO STDOUT").format(
                            sql.Identifier(table.name), sql.SQL(", ").join(map(sql.Identifier, table.columns))
                        )
                        with conn.cursor().copy(statement) as copy:
                            for chunk in copy:
                                out.write(chunk)
                                done(bytes(chunk).count(b"\n"))
                    raw.write(msgspec.json.encode(Trailer(out.digest.hexdigest())) + b"\n")
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return header


@contextmanager
def _reading(source: Path) -> Iterator[tuple[Header, _Hashing]]:
    try:
        with gzip.open(source, "rb") as raw:
            into = _Hashing(raw)
            try:
                header = _header.decode(into.readline())
            except msgspec.DecodeError:
                raise BackupError(
                    f"{source} is not a Quartermaster backup (its first line is not one's header)."
                ) from None
            if header.format != FORMAT:
                raise BackupError(
                    f"{source} is a backup of format {header.format!r}; this Quartermaster ({VERSION}) reads "
                    f"{FORMAT!r}."
                )
            yield header, into
    except (gzip.BadGzipFile, EOFError, OSError) as error:
        if isinstance(error, FileNotFoundError):
            raise BackupError(f"There is no file {source}.") from None
        raise BackupError(f"{source} cannot be read as a Quartermaster backup: {error}.") from None


def check(source: Path) -> Header:
    """Read a backup through to its end and compare its digest, writing nothing; its header when it is whole."""
    with _reading(source) as (header, into):
        for table in header.tables:
            for _ in range(table.rows):
                if not into.readline().endswith(b"\n"):
                    raise BackupError(f"{source} is cut short in table {table.name}: it cannot be restored.")
        _check_trailer(source, into)
    return header


def _check_trailer(source: Path, into: _Hashing) -> None:
    expected = into.digest.hexdigest()
    try:
        trailer = _trailer.decode(into.file.readline())
    except msgspec.DecodeError:
        raise BackupError(f"{source} is cut short: its last line is missing, so it cannot be trusted.") from None
    if trailer.sha256 != expected:
        raise BackupError(f"{source} is damaged: its content does not match the digest written at its end.")


@dataclass(frozen=True)
class Restored:
    header: Header
    applied: list[str]


def restore(
    conninfo: str, source: Path, total: Callable[[int], object] = _nothing, done: Callable[[int], object] = _nothing
) -> Restored:
    """Build the database at `conninfo` from a backup: migrate it, then copy every row in one transaction, so that a
    failure leaves it as it was. The database must hold no campaign; the file is checked whole before anything."""
    header = check(source)
    known = {m.version for m in available()}
    newer = [m for m in header.migrations if m not in known]
    if newer:
        raise BackupError(
            f"{source} was made by a newer Quartermaster ({header.quartermaster}, with migrations "
            f"{', '.join(newer)}); upgrade this one ({VERSION}) to restore it."
        )
    applied = migrate(conninfo)
    total(header.rows)
    with psycopg.connect(conninfo, autocommit=True) as conn, conn.transaction():
        row = conn.execute("SELECT count(*) FROM campaigns").fetchone()
        if row and row[0]:
            raise BackupError(
                f"This database already holds {row[0]} campaign(s); a backup is restored into an empty one. Give "
                "`--database-url` a new database, or move the embedded data folder aside (see `--data-dir`)."
            )
        here = {name: columns for name, columns, _ in _tables(conn)}
        with _reading(source) as (_, into):
            for table in header.tables:
                if table.name not in here:
                    raise BackupError(f"{source} holds a table {table.name} this Quartermaster does not know.")
                missing = set(table.columns) - set(here[table.name])
                if missing:
                    raise BackupError(f"{source}'s table {table.name} has columns this one lacks: {sorted(missing)}.")
                statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
                    sql.Identifier(table.name), sql.SQL(", ").join(map(sql.Identifier, table.columns))
                )
                with conn.cursor().copy(statement) as copy:
                    left = table.rows
                    while left:
                        lines = [into.readline() for _ in range(min(left, _ROWS_PER_WRITE))]
                        copy.write(b"".join(lines))
                        left -= len(lines)
                        done(len(lines))
                for column in table.identities:
                    conn.execute(
                        sql.SQL(
                            "SELECT setval(pg_get_serial_sequence(%s, %s), coalesce(max({}), 0) + 1, false) FROM {}"
                        ).format(sql.Identifier(column), sql.Identifier(table.name)),
                        (table.name, column),
                    )
    return Restored(header, applied)
