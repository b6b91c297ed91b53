"""A connection of its own that LISTENs on one channel and hands on each notification as it arrives, with no timer.

Two parts of the process listen: the member changes (service/store/members.py) and the live updates between
processes (service/application/live.py). psycopg's `notifies()` waits in slices of a tenth of a second, so a process
listening that way wakes ten times a second with nothing to do, a laptop's battery and every benchmark's baseline
paying for it. `Listening` reads the socket only when the event loop says it has data (`add_reader`), and whenever
its owner asks (`drain`): the owner hears each payload (`heard`), and when the connection comes up (`up`, once LISTEN
has taken effect: anything sent before was never heard) and when it is lost (`down`). A lost connection is made again,
backing off from `pause` to `max_pause` seconds, until `stop`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import psycopg

log = logging.getLogger("quartermaster")
# A connection that is up, as libpq says it (read once: drain runs before every request trusts what is kept).
_UP = psycopg.pq.ConnStatus.OK


class Listening:
    """LISTEN on `channel` over a connection of its own (module docstring). Not the pool's: a LISTEN holds its
    connection for the life of the process."""

    def __init__(
        self,
        conninfo: str,
        channel: str,
        heard: Callable[[str], None],
        *,
        up: Callable[[], None],
        down: Callable[[], None],
        connect_timeout: int = 2,
        pause: float = 0.1,
        max_pause: float = 2.0,
    ) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.heard = heard
        self.up = up
        self.down = down
        self.connect_timeout = connect_timeout
        self.pause = pause
        self.max_pause = max_pause
        self.conn: psycopg.AsyncConnection[Any] | None = None
        self._retry: asyncio.Task[None] | None = None
        self._closed = False
        self._fd: int | None = None

    @property
    def listening(self) -> bool:
        return self.conn is not None

    async def start(self) -> bool:
        """Connect and LISTEN; whether it did. If not, it keeps trying in the background."""
        try:
            await self._connect()
            return True
        except (psycopg.Error, OSError, TimeoutError):
            self._reconnect()
            return False

    async def _connect(self) -> None:
        conn = await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, connect_timeout=self.connect_timeout
        )
        try:
            async with asyncio.timeout(self.connect_timeout):  # LISTEN's answer, like every wait, is bounded
                await conn.execute(f"LISTEN {self.channel}")
        except BaseException:
            conn.pgconn.finish()
            raise
        self.conn = conn
        # The socket's number, kept: once libpq has dropped a lost connection it no longer says which it was, and a
        # reader left registered on a closed descriptor (which the next connection may reuse) stalls uvloop.
        self._fd = conn.pgconn.socket
        asyncio.get_running_loop().add_reader(self._fd, self.drain)
        self.up()

    def drain(self) -> bool:
        """Read what the connection has received, without waiting, and hand on each notification; whether the
        connection is up."""
        conn = self.conn
        if conn is None:
            return False
        pgconn = conn.pgconn
        try:
            pgconn.consume_input()
        except psycopg.OperationalError:
            self._lost()
            return False
        while (note := pgconn.notifies()) is not None:
            self.heard(note.extra.decode(errors="replace"))
        if pgconn.status != _UP:
            self._lost()
            return False
        return True

    def _forget_reader(self) -> None:
        if self._fd is not None:
            asyncio.get_running_loop().remove_reader(self._fd)
            self._fd = None

    def _lost(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            self._forget_reader()
            conn.pgconn.finish()
        self.down()
        self._reconnect()

    def _reconnect(self) -> None:
        if self._closed or (self._retry is not None and not self._retry.done()):
            return

        async def again() -> None:
            pause = self.pause
            while not self._closed and self.conn is None:
                await asyncio.sleep(pause)
                try:
                    await self._connect()
                except (psycopg.Error, OSError, TimeoutError):
                    pause = min(pause * 2, self.max_pause)

        self._retry = asyncio.get_running_loop().create_task(again())

    async def stop(self) -> None:
        self._closed = True
        if self._retry is not None:
            self._retry.cancel()
        conn, self.conn = self.conn, None
        if conn is not None:
            self._forget_reader()
            await conn.close()
