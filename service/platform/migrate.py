"""Forward-only migrations: the SQL files in `migrations/`, applied in name order, each recorded once."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
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


def available() -> list[Migration]:
    """Every migration shipped with this version of Quartermaster, in the order they apply."""
    files = [f for f in resources.files("quartermaster.migrations").iterdir() if f.name.endswith(".sql")]
    return [Migration(f.name.removesuffix(".sql"), f.read_text()) for f in sorted(files, key=lambda f: f.name)]


_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    text        PRIMARY KEY,
    checksum   text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


def migrate(conninfo: str) -> list[str]:
    """Apply every migration not yet applied; answer the versions applied now."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        with conn.transaction():
            # Two servers starting at once: the second waits here, then finds nothing left to do.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            conn.execute(_LEDGER)
            applied: dict[str, str] = dict(conn.execute("SELECT version, checksum FROM schema_migrations").fetchall())
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
            return done


async def missing_migrations(conn: psycopg.AsyncConnection) -> list[str]:
    """The migrations this database still lacks (empty when it is ready)."""
    row = await (await conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")).fetchone()
    applied: set[str] = set()
    if row is not None and row[0]:
        applied = {row[0] for row in await (await conn.execute("SELECT version FROM schema_migrations")).fetchall()}
    return [m.version for m in available() if m.version not in applied]
