"""Campaigns and their members: creating them, and reading who plays what."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from projections.game import Game
from projections.registry import game as game_by_id
from service.store.appending import HOLD, lock, write_lock
from service.store.keys import Keyed, replay
from service.store.outcome import transaction
from service.store.records import Appended, Campaign, CampaignNotFound, PreparedEvent
from service.store.snapshots import POSITION_OF

_MEMBERS_KEPT = 10_000


async def insert_campaign(
    conn: psycopg.AsyncConnection,
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
    conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, member_id: uuid.UUID, name: str, role: str, token_hash: bytes
) -> None:
    await conn.execute(
        "INSERT INTO members (member_id, campaign_id, name, role, token_hash) VALUES (%s, %s, %s, %s, %s)",
        (member_id, campaign_id, name, role, token_hash),
    )


class Members:
    """Store methods about campaigns and their members."""

    cache: Any
    pool: Any
    _games: dict[int, str]
    _members: dict[int, tuple[uuid.UUID, str, str, bytes]]
    _verified: dict[str, Any]

    async def create_campaign(
        self,
        *,
        campaign_id: uuid.UUID,
        game: Game,
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
            appended = await self._append_locked(conn, campaign_id, start, actor=str(owner_id), expected_position=0)
        return self._committed(campaign_id, appended)

    async def campaign(self, campaign_id: uuid.UUID) -> Campaign:
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute(
                    f"SELECT campaign_id, game, name, created_at, {POSITION_OF} FROM campaigns c"
                    " WHERE campaign_id = %s",
                    (campaign_id,),
                )
            ).fetchone()
        if row is None:
            raise CampaignNotFound(campaign_id)
        return Campaign(*row)

    async def game_of(self, campaign_id: uuid.UUID) -> Game:
        """The game a campaign plays. It never changes, so each process asks the database once per campaign."""
        game_id = self._games.get(campaign_id.int)  # keyed by the id's integer, as StateCache says why
        if game_id is None:
            game_id = self._games[campaign_id.int] = (await self.campaign(campaign_id)).game
        return game_by_id(game_id)

    async def members(self, campaign_id: uuid.UUID) -> list[tuple[uuid.UUID, str, str, datetime]]:
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT member_id, name, role, created_at FROM members WHERE campaign_id = %s"
                " ORDER BY created_at, name",
                (campaign_id,),
            )
            return await cur.fetchall()

    async def member_credentials(
        self, member_id: uuid.UUID, campaign_id: uuid.UUID | None = None
    ) -> tuple[uuid.UUID, str, str, bytes] | None:
        """(campaign_id, name, role, token_hash) of a member of `campaign_id`, or None.

        With the campaign (every call on a campaign's routes), the look-up names the distribution column and goes to
        one shard under Citus. Without it (signing in from a join link, which knows only the token) it is the store's
        one look-up across campaigns by member id.

        Member rows are never updated or deleted, so what was read once stays true and is kept per process; the
        token is still compared against the hash on every request. (Revoking members would need to clear this.)
        """
        known = self._members.get(member_id.int)  # keyed by the id's integer, as StateCache says why
        if known is not None:
            return known if campaign_id is None or known[0].int == campaign_id.int else None
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
            row = await cur.fetchone()
        if row is not None:
            if len(self._members) >= _MEMBERS_KEPT:
                self._members.pop(next(iter(self._members)))
            self._members[member_id.int] = row
        return row

    def verified(self, token: str) -> Any:
        """The member (service.auth.Member) a token was already matched to in this process, or None."""
        return self._verified.get(token)

    def remember_verified(self, token: str, member: Any) -> None:
        """Keep a token matched against its member's hash (service.auth.holder), the oldest forgotten first."""
        if len(self._verified) >= _MEMBERS_KEPT:
            self._verified.pop(next(iter(self._verified)))
        self._verified[token] = member

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
        async with transaction(self.pool, pipeline=True) as conn:
            if keyed is not None:
                await lock(conn, campaign_id)
                done = await replay(conn, campaign_id, keyed)
                if done is not None:
                    return done
            await _insert_member(conn, campaign_id, member_id, name, role, token_hash)
            appended = await self._append_locked(conn, campaign_id, [joined], actor=actor, keyed=keyed)
        return self._committed(campaign_id, appended)

    async def replace_token(self, campaign_id: uuid.UUID, member_id: uuid.UUID, token_hash: bytes) -> None:
        """Give a member a new token (its hash), when the answer that carried the first one was lost.

        Another process may still accept the old token until it restarts, from its cache of members; that token was
        only ever in the lost answer."""
        async with transaction(self.pool) as conn:
            await conn.execute(
                "UPDATE members SET token_hash = %s WHERE campaign_id = %s AND member_id = %s",
                (token_hash, campaign_id, member_id),
            )
        self._members.pop(member_id.int, None)
        self._verified = {token: known for token, known in self._verified.items() if known.id != member_id}
