"""Which PostgreSQL server this process writes to: a former primary is refused, and a new primary makes it forget.

A multi-host `DATABASE_URL` with `target_session_attrs=read-write` takes the first listed server that accepts
writes. After a failover, that can be the old primary come back as a primary (restarted by hand, or by a supervisor
that did not know it had been replaced): it accepts writes, and everything written there is lost to the promoted
server, which is where every other event went. So each new connection (never each statement: a connection is made
once and lent for many appends) is admitted only after this module has read who answers it:

- the cluster's system identifier (`pg_control_system()`): a primary and every standby made from it by
  `pg_basebackup` share it; another cluster has another;
- the timeline of its write-ahead log (the first part of the current WAL file's name, which PostgreSQL 15 takes
  from the timeline it is inserting on; `pg_control_checkpoint()`'s only moves at the next checkpoint, which a
  promotion requests but does not wait for): a standby promoted starts a new timeline, one higher than any its
  cluster's history holds, and a former primary stays on the timeline it had;
- the position of the log's end (`pg_current_wal_lsn()`), and the database's oid.

The process remembers the highest timeline of its cluster it has met. A server of the same cluster on a lower
timeline is a former primary: the connection is closed and the next listed server tried; if none is left, the pool
has no connection to lend and requests are answered 503 with the refusal's sentence (service/http/outage.py) until the
current primary answers. A server on a higher timeline is a failover; another cluster or another database is a
restore or a move; the same timeline with a log ending before the position last seen there is an older copy
restored. In those three cases the server is admitted and the process forgets every cached state (Store.forget):
a promotion without synchronous commit may have lost the last commits, and a restore surely has.

What "the server it last wrote to" means across processes and restarts: a process that has met no server yet (just
started, or the first of several workers) asks every server the URL lists (in parallel, read only, each bounded by
the connect timeout) before it admits the first, and takes the highest timeline of the cluster among them as what
it has seen. So a fresh process also refuses a former primary while the promoted server, or any standby following
it, answers. Why not a row in the database recording the primary's identity: a former primary holds its own copy of
that row, written before the failover and consistent with its own timeline, so nothing read from it alone can tell
it is stale; the only witness is another server of the cluster on a later timeline. When the former primary is the
only server that answers a fresh process, nothing can tell, which is why the operator's guide (standby) says a former
primary comes back only as a standby (`pg_rewind`), never as a primary.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import psycopg
from psycopg.conninfo import conninfo_attempts_async, conninfo_to_dict, make_conninfo

from quartermaster.service.platform import metrics

log = logging.getLogger("quartermaster")

# Who answers a connection. On a standby (read from, or probed) the timeline is the one it replays: the latest
# restartpoint's, or the one its WAL receiver streams when later.
IDENTITY = """
SELECT s.system_identifier::text, pg_is_in_recovery(),
       CASE WHEN pg_is_in_recovery()
            THEN greatest((SELECT timeline_id FROM pg_control_checkpoint()),
                          coalesce((SELECT max(received_tli) FROM pg_stat_wal_receiver), 0))
            ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int END,
       ((CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END)
        - '0/0'::pg_lsn)::bigint,
       (SELECT oid FROM pg_database WHERE datname = current_database())::bigint
FROM pg_control_system() s
"""

# How long a refusal is named in the 503s that follow it (the pool retries connecting meanwhile).
REFUSAL_SHOWN_SECONDS = 10.0
# How long asking the other listed servers may take, each.
PROBE_TIMEOUT = 2.0


@dataclass(frozen=True)
class Server:
    """Who answered one connection."""

    system: str
    standby: bool
    timeline: int
    lsn: int
    database: int
    where: str


async def identify(conn: psycopg.AsyncConnection[Any]) -> Server:
    """Read who answers this connection (an idle connection; left idle)."""
    async with conn.cursor() as cur:
        await cur.execute(IDENTITY)
        row = await cur.fetchone()
    if not conn.autocommit:
        await conn.rollback()
    assert row is not None
    info = conn.info
    return Server(row[0], row[1], row[2], row[3], row[4], f"{info.host}:{info.port}")


class FormerPrimary(psycopg.OperationalError):
    """Every server that accepts writes is one this process must not write to."""


class Lineage:
    """The server this process writes to, as far as it has met it: its cluster, the highest timeline of that cluster
    it has met, and the furthest log position it has seen there."""

    def __init__(self) -> None:
        self.known: Server | None = None
        self.on_change: list[Callable[[str], Any]] = []
        self._refused: tuple[float, str] | None = None
        self._lock: asyncio.Lock | None = None

    def refusal(self) -> str | None:
        """The sentence of a refusal made in the last few seconds, if any."""
        if self._refused is None or time.monotonic() - self._refused[0] > REFUSAL_SHOWN_SECONDS:
            return None
        return self._refused[1]

    def connection_class(self) -> type[psycopg.AsyncConnection[Any]]:
        """A connection class for psycopg_pool whose `connect` admits only a server this process may write to."""
        return _guarded(self)

    async def admit(self, conn: psycopg.AsyncConnection[Any], others: list[dict[str, Any]]) -> str | None:
        """Judge a new connection: None to keep it, or the sentence saying why it is refused. `others`: the other
        servers the URL lists (connection parameters), asked before the first server is judged."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        server = await identify(conn)
        async with self._lock:
            if self.known is None and others:
                await self._probe(server, others)
            return self.judge(server)

    def judge(self, server: Server) -> str | None:
        """Keep or refuse a server by what this process has met (module docstring); remember what it learns."""
        known = self.known
        if known is None:
            self.known = server
            return None
        if server.system != known.system or server.database != known.database:
            self._change(server, f"{server.where} is another database than the one this process read before")
        elif server.timeline < known.timeline:
            sentence = (
                f"The database server at {server.where} accepts writes but is a former primary: it is on timeline "
                f"{server.timeline}, and a server of the same cluster has been promoted since (timeline "
                f"{known.timeline}). Nothing is written there; writes wait for the current primary. Bring the former "
                "primary back as a standby of the current one (pg_rewind), never as a primary."
            )
            self._refused = (time.monotonic(), sentence)
            metrics.SERVERS_REFUSED.inc()
            log.warning("%s", sentence)
            return sentence
        elif server.timeline > known.timeline:
            self._change(
                server,
                f"{server.where} is on timeline {server.timeline}, after timeline {known.timeline}: a standby was "
                "promoted, and any commit it had not received is lost",
            )
        elif not server.standby and server.lsn < known.lsn:
            self._change(
                server,
                f"the log of {server.where} ends before the position this process last saw there: an older copy "
                "was restored",
            )
        elif not server.standby:
            self.known = replace(known, lsn=max(known.lsn, server.lsn), where=server.where)
        return None

    def _change(self, server: Server, why: str) -> None:
        self.known = server
        log.warning("now writing to %s (timeline %s): %s", server.where, server.timeline, why)
        for listener in self.on_change:
            listener(why)

    async def _probe(self, server: Server, others: list[dict[str, Any]]) -> None:
        """Ask every other listed server who it is, read only; remember the latest timeline of `server`'s cluster
        met (as a standby's, so that its log position is not taken for the primary's)."""

        async def ask(params: dict[str, Any]) -> Server | None:
            try:
                async with await psycopg.AsyncConnection.connect(
                    make_conninfo("", **{**params, "target_session_attrs": "any"}),
                    autocommit=True,
                    connect_timeout=max(1, int(PROBE_TIMEOUT)),
                ) as other:
                    return await asyncio.wait_for(identify(other), PROBE_TIMEOUT)
            except (psycopg.Error, OSError, TimeoutError):
                return None

        met = [s for s in await asyncio.gather(*(ask(p) for p in others)) if s and s.system == server.system]
        if met:
            latest = max(met, key=lambda s: s.timeline)
            self.known = replace(latest, standby=True, lsn=0)


def _guarded(lineage: Lineage) -> type[psycopg.AsyncConnection[Any]]:
    class Guarded(psycopg.AsyncConnection[Any]):
        """An async connection made one listed server at a time, each judged by the lineage before it is lent."""

        guard: ClassVar[Lineage] = lineage

        @classmethod
        async def connect(cls, conninfo: str = "", **kwargs: Any) -> Guarded:
            attempts = await conninfo_attempts_async(conninfo_to_dict(conninfo))
            failures: list[str] = []
            refused = False
            for n, attempt in enumerate(attempts):
                try:
                    conn = await super().connect(make_conninfo("", **attempt), **kwargs)
                except psycopg.OperationalError as error:
                    if len(attempts) == 1:
                        raise
                    failures.append(f"{attempt.get('host')}:{attempt.get('port')}: {error}")
                    continue
                try:
                    sentence = await cls.guard.admit(conn, attempts[:n] + attempts[n + 1 :])
                except BaseException:
                    await conn.close()
                    raise
                if sentence is None:
                    return conn
                await conn.close()
                failures.append(sentence)
                refused = True
            kind = FormerPrimary if refused else psycopg.OperationalError
            raise kind("No database server could be written to: " + " ".join(failures))

    return Guarded


async def writable(conninfo: str) -> str:
    """The connection string of the one listed server a process that has met none may write to (the module's
    judgement, with every listed server asked): for the steps before serving (migrations, refolds), which use
    connections of their own. Raises FormerPrimary or psycopg.OperationalError when there is none."""
    guarded = Lineage().connection_class()
    async with await guarded.connect(conninfo, autocommit=True) as conn:
        return make_conninfo(conninfo, host=conn.info.host, port=str(conn.info.port), hostaddr=None)
