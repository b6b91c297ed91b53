"""Forward-only migrations: the SQL files in `migrations/`, applied in name order, each recorded once.

A database is only ever run by a Quartermaster that knows all of it: one holding a migration this version does not
ship, or a column of the service's tables that no migration of it makes, was migrated by a newer release (or altered
by hand), and this older code would write into a schema it does not understand. `migrate`, `verify` and `serve`
refuse such a database with a sentence, and /readyz never calls it ready.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import psycopg

# Any constant will do; it only has to be the same for every server that migrates this database.
_LOCK_KEY = 0x5155_4152_5445_52  # "QUARTER"


@dataclass(frozen=True)
class Migration:
    version: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


class MigrationError(RuntimeError):
    pass


class NewerDatabase(MigrationError):
    """A database migrated by a newer Quartermaster (or altered by hand) than this one knows; nothing was changed."""


@cache
def available() -> list[Migration]:
    """Every migration shipped with this version of Quartermaster, in the order they apply."""
    files = [f for f in resources.files("quartermaster.migrations").iterdir() if f.name.endswith(".sql")]
    return [Migration(f.name.removesuffix(".sql"), f.read_text()) for f in sorted(files, key=lambda f: f.name)]


@cache
def known_columns() -> frozenset[tuple[str, str]]:
    """The (table, column) pairs the shipped migrations make, from `migrations/columns.txt`."""
    text = resources.files("quartermaster.migrations").joinpath("columns.txt").read_text()
    pairs = (line.split() for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return frozenset((table, column) for table, column in pairs)


def newest_known() -> str:
    return available()[-1].version


def unknown_parts(applied: Iterable[str], columns: Iterable[tuple[str, str]]) -> str | None:
    """The sentence refusing a database with these applied migrations and these columns of the service's tables, or
    None when this version knows every one of them."""
    shipped = {m.version for m in available()}
    newer = sorted(v for v in applied if v not in shipped)
    if newer:
        more = f" (and {len(newer) - 1} more)" if len(newer) > 1 else ""
        return (
            f"This database was migrated by a newer Quartermaster: it has migration {newer[-1]}{more}, and the newest "
            f"this version knows is {newest_known()}. Nothing was changed; run the release that migrated it, or "
            "restore a backup this version made."
        )
    strange = sorted(set(columns) - known_columns())
    if strange:
        table, column = strange[0]
        more = f" (and {len(strange) - 1} more)" if len(strange) > 1 else ""
        return (
            f"This database's table {table} has a column {column}{more} that no migration of this Quartermaster "
            f"makes (the newest it knows is {newest_known()}): a newer release migrated it, or it was altered by "
            "hand. Nothing was changed; run the release that migrated it, or restore a backup this version made."
        )
    return None


_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    text        PRIMARY KEY,
    checksum   text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""

# The columns of the service's own tables in the schema it works in; other tables (an operator's own) are left alone.
_COLUMNS = """
SELECT c.relname, a.attname
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
  AND c.relname = ANY(%s) AND a.attnum > 0 AND NOT a.attisdropped
"""


def _tables() -> list[str]:
    return sorted({table for table, _ in known_columns()})


def migrate(conninfo: str) -> list[str]:
    """Apply every migration not yet applied; answer the versions applied now. Raises NewerDatabase, having changed
    nothing, for a database this version does not know all of."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        with conn.transaction():
            # Two servers starting at once: the second waits here, then finds nothing left to do.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            conn.execute(_LEDGER)
            applied: dict[str, str] = dict(conn.execute("SELECT version, checksum FROM schema_migrations").fetchall())
            refusal = unknown_parts(applied, ())
            if refusal is not None:
                raise NewerDatabase(refusal)
            done: list[str] = []
            for migration in available():
                if migration.version in applied:
                    if applied[migration.version] != migration.checksum:
                        raise MigrationError(
                            f"Migration {migration.version} was changed after it was applied; migrations are "
                            "forward-only, so add a new file instead of editing an old one."
                        )
                    continue
                conn.execute(migration.sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, checksum) VALUES (%s, %s)",
                    (migration.version, migration.checksum),
                )
                done.append(migration.version)
            # After applying, in the same transaction: a column no migration makes undoes what was applied with it.
            refusal = unknown_parts((), conn.execute(_COLUMNS, (_tables(),)).fetchall())
            if refusal is not None:
                raise NewerDatabase(refusal)
            return done


async def missing_migrations(conn: psycopg.AsyncConnection) -> list[str]:
    """The migrations this database still lacks (empty when it is ready)."""
    return [m.version for m in available() if m.version not in await _applied(conn)]


async def _applied(conn: psycopg.AsyncConnection) -> set[str]:
    row = await (await conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")).fetchone()
    if row is None or not row[0]:
        return set()
    return {row[0] for row in await (await conn.execute("SELECT version FROM schema_migrations")).fetchall()}


async def unknown_to_this_version(conn: psycopg.AsyncConnection) -> str | None:
    """The sentence refusing a database with a migration or a column this version does not know, or None."""
    columns = await (await conn.execute(_COLUMNS, (_tables(),))).fetchall()
    return unknown_parts(await _applied(conn), columns)


async def not_ready(conn: psycopg.AsyncConnection) -> str | None:
    """Why this database cannot be served by this version (a migration, or a column, it does not know; or one it
    ships not applied yet), or None when it can."""
    refusal = await unknown_to_this_version(conn)
    if refusal is not None:
        return refusal
    missing = await missing_migrations(conn)
    return f"Migrations not applied yet: {', '.join(missing)}." if missing else None
