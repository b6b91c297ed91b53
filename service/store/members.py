"""Campaigns and their members: creating them, reading who plays what, replacing and revoking their tokens.

Member rows are read once per process and kept (`member_credentials`); tokens already matched against a row's hash
are kept too, by their digest (service.tokens.Verified), both in the process's memory (store/memory.py). A row
changes only when the owner replaces a member's token (a new join link) or revokes the member, and that transaction
also sends NOTIFY on `CHANNEL` with the member's id.
Every process listens on a connection of its own (service.listening.Listening) and forgets that member at once;
before a request trusts what is kept, it reads what the listening connection has received (`members_fresh`, a
non-blocking read of the socket), so a notification already delivered is never behind the request it should
refuse. While that connection is down nothing kept is trusted: every request is checked against the database until
it is back.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from quartermaster.projections.game import Game
from quartermaster.service.platform.listening import Listening
from quartermaster.service.store.appending import Writer
from quartermaster.service.store.keys import Keyed, replay
from quartermaster.service.store.locks import HOLD, lock, write_lock
from quartermaster.service.store.memory import MemberRow, Memory
from quartermaster.service.store.outcome import transaction
from quartermaster.service.store.records import Appended, PreparedEvent
from quartermaster.service.store.turns import Turns

# Heard by every process when a member's token is replaced or the member revoked; the payload is the member's id.
CHANNEL = "qm_members"
_NOTIFY = "SELECT pg_notify('qm_members', %s)"

log = logging.getLogger("quartermaster")


async def insert_campaign(
    conn: psycopg.AsyncConnection[Any],
    *,
    campaign_id: uuid.UUID,
    game_id: str,
    name: str,
    owner_id: uuid.UUID,
    owner_name: str,
    token_hash: bytes,
) -> None:
    """Create a campaign at position 0 with its owner, inside the caller's transaction, and take its write lock:
    no other campaign whose lock shares its keys (store/appending.py, write_lock) can then keep this one's writes
    from landing."""
    await conn.execute(
        "INSERT INTO campaigns (campaign_id, game, name) VALUES (%s, %s, %s)", (campaign_id, game_id, name)
    )
    await conn.execute(HOLD, write_lock(campaign_id))
    await _insert_member(conn, campaign_id, owner_id, owner_name, "owner", token_hash)


async def _insert_member(
    conn: psycopg.AsyncConnection[Any],
    campaign_id: uuid.UUID,
    member_id: uuid.UUID,
    name: str,
    role: str,
    token_hash: bytes,
) -> None:
    await conn.execute(
        "INSERT INTO members (member_id, campaign_id, name, role, token_hash) VALUES (%s, %s, %s, %s, %s)",
        (member_id, campaign_id, name, role, token_hash),
    )


class Roster:
    """Campaigns and their members: creating them, reading who plays what, replacing and revoking tokens."""

    # How soon a lost listening connection is tried again, backing off to this many seconds.
    RECONNECT_SECONDS = 2.0

    def __init__(self, pool: Any, memory: Memory, turns: Turns, writer: Writer) -> None:
        self.pool = pool
        self.memory = memory
        self.turns = turns
        self.writer = writer
        self.changes: Listening | None = None

    async def listen_for_member_changes(self, conninfo: str, connect_timeout: int = 2) -> None:
        """Start hearing every process's token replacements and revocations on CHANNEL; stop with
        `stop_listening`. Without it, nothing kept about members is trusted. Each notification forgets that
        member's kept row and tokens; the connection coming up, or lost, forgets every member's."""
        self.changes = Listening(
            conninfo,
            CHANNEL,
            self._heard,
            up=lambda: self.memory.forget_member(None),  # anything changed before LISTEN took effect was never heard
            down=self._deaf,
            connect_timeout=connect_timeout,
            max_pause=self.RECONNECT_SECONDS,
        )
        if not await self.changes.start():
            log.warning("cannot listen for member changes yet; every token is checked against the database")

    def _heard(self, payload: str) -> None:
        try:
            member: uuid.UUID | None = uuid.UUID(payload)
        except ValueError:
            member = None  # not a member's id: forget everyone's rather than trust what may be stale
        self.memory.forget_member(member)

    def _deaf(self) -> None:
        self.memory.forget_member(None)
        log.warning("the connection listening for member changes was lost; every token is checked until it is back")

    async def stop_listening(self) -> None:
        if self.changes is not None:
            await self.changes.stop()
            self.changes = None

    def members_fresh(self) -> bool:
        """Whether what this process keeps about members is up to date: every change already delivered to the
        listening connection applied, and that connection up."""
        changes = self.changes
        return changes is not None and changes.drain()

    async def create_campaign(
        self,
        *,
        campaign_id: uuid.UUID,
        game: Game[Any],
        name: str,
        options: dict[str, Any],
        owner_id: uuid.UUID,
        owner_name: str,
        token_hash: bytes,
        start: Sequence[PreparedEvent],
    ) -> Appended:
        """Create a campaign with its owner and record its first batch (campaign.started, member.joined)."""
        async with transaction(self.pool, pipeline=True) as conn:
            await insert_campaign(
                conn,
                campaign_id=campaign_id,
                game_id=game.id,
                name=name,
                owner_id=owner_id,
                owner_name=owner_name,
                token_hash=token_hash,
            )
            appended = await self.writer.locked(conn, campaign_id, start, actor=str(owner_id), expected_position=0)
        return self.writer.committed(campaign_id, appended)

    async def members(self, campaign_id: uuid.UUID) -> list[tuple[uuid.UUID, str, str, datetime, datetime | None]]:
        """(member_id, name, role, created_at, revoked_at) of every member, revoked ones included."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT member_id, name, role, created_at, revoked_at FROM members WHERE campaign_id = %s"
                " ORDER BY created_at, name",
                (campaign_id,),
            )
            rows: list[tuple[uuid.UUID, str, str, datetime, datetime | None]] = await cur.fetchall()
            return rows

    async def member_credentials(
        self, member_id: uuid.UUID, campaign_id: uuid.UUID | None = None
    ) -> tuple[uuid.UUID, str, str, bytes] | None:
        """(campaign_id, name, role, token_hash) of a member of `campaign_id`, or None.

        With the campaign (every call on a campaign's routes), the look-up names the distribution column and goes to
        one shard under Citus. Without it (signing in from a join link, which knows only the token) it is the store's
        one look-up across campaigns by member id.

        A row changes only by `replace_token` and `revoke`, which every process hears (module docstring), so a row
        read once is kept per process while `members_fresh` says what is kept is up to date. A revoked member's
        row has an empty hash, which no token matches.
        """
        fresh = self.members_fresh()
        known: MemberRow | None = self.memory.members.get(member_id.int) if fresh else None
        if known is not None:
            return known if campaign_id is None or known[0].int == campaign_id.int else None
        generation = self.memory.generation
        async with self.pool.connection() as conn:
            if campaign_id is not None:
                cur = await conn.execute(
                    "SELECT campaign_id, name, role, token_hash FROM members WHERE campaign_id = %s AND member_id = %s",
                    (campaign_id, member_id),
                )
            else:
                cur = await conn.execute(
                    "SELECT campaign_id, name, role, token_hash FROM members WHERE member_id = %s", (member_id,)
                )
            row: MemberRow | None = await cur.fetchone()
        if row is not None and fresh and generation == self.memory.generation:
            self.memory.members[member_id.int] = row
        return row

    async def add_member(
        self,
        campaign_id: uuid.UUID,
        *,
        member_id: uuid.UUID,
        name: str,
        role: str,
        token_hash: bytes,
        joined: PreparedEvent,
        actor: str,
        keyed: Keyed | None = None,
    ) -> Appended:
        """Add a member and record member.joined in the same transaction.

        Sent again with its Idempotency-Key, the member it added is answered (replayed) and nobody is added."""
        async with self.turns.turn(campaign_id), transaction(self.pool, pipeline=True) as conn:
            if keyed is not None:
                await lock(conn, campaign_id)
                done = await replay(conn, campaign_id, keyed)
                if done is not None:
                    return done
            await _insert_member(conn, campaign_id, member_id, name, role, token_hash)
            appended = await self.writer.locked(conn, campaign_id, [joined], actor=actor, keyed=keyed)
        return self.writer.committed(campaign_id, appended)

    async def replace_token(self, campaign_id: uuid.UUID, member_id: uuid.UUID, token_hash: bytes) -> bool:
        """Give a member a new token (its hash): a lost phone's new join link, or the answer that carried the first
        token was lost. The old token is refused by every process from its next request. False when the campaign
        has no such member, or the member was revoked (nothing changes)."""
        async with transaction(self.pool) as conn:
            cur = await conn.execute(
                "UPDATE members SET token_hash = %s WHERE campaign_id = %s AND member_id = %s AND revoked_at IS NULL",
                (token_hash, campaign_id, member_id),
            )
            if cur.rowcount:
                await conn.execute(_NOTIFY, (member_id.hex,))
        self.memory.forget_member(member_id)
        return bool(cur.rowcount)

    async def revoke(self, campaign_id: uuid.UUID, member_id: uuid.UUID) -> datetime | None:
        """Revoke a member: their token is refused by every process from its next request, and no token matches
        their row again. When they were revoked (now, or before), or None when the campaign has no such member."""
        async with transaction(self.pool) as conn:
            cur = await conn.execute(
                "UPDATE members SET token_hash = '\\x'::bytea, revoked_at = coalesce(revoked_at, now())"
                " WHERE campaign_id = %s AND member_id = %s RETURNING revoked_at",
                (campaign_id, member_id),
            )
            row = await cur.fetchone()
            if row is not None:
                await conn.execute(_NOTIFY, (member_id.hex,))
        self.memory.forget_member(member_id)
        return row[0] if row is not None else None
