"""The shared box: which box of cards each campaign's owner says its cards come from (migration 0012)."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

import msgspec

_BOX_OF = "SELECT box_key, name FROM campaign_boxes WHERE campaign_id = %s"
_NAME = """
INSERT INTO campaign_boxes (campaign_id, box_key, name) VALUES (%s, %s, %s)
ON CONFLICT (campaign_id) DO UPDATE SET box_key = EXCLUDED.box_key, name = EXCLUDED.name, named_at = now()
"""
_KNOWN_KEY = "SELECT campaign_id FROM campaign_boxes WHERE box_key = %s LIMIT 1"
_SHARING = """
SELECT b.campaign_id, c.name, c.game, b.name FROM campaign_boxes b JOIN campaigns c ON c.campaign_id = b.campaign_id
WHERE b.box_key = %s ORDER BY c.created_at, b.campaign_id
"""
_LEAVE = "DELETE FROM campaign_boxes WHERE campaign_id = %s"


class Box(msgspec.Struct, frozen=True):
    """The box a campaign's cards come from: its key, shared by the campaigns using it, and this owner's name for it."""

    key: str
    name: str


class Sharing(msgspec.Struct, frozen=True):
    """A campaign that shares a box: its id, its title, its game, and its owner's name for the box."""

    campaign_id: uuid.UUID
    title: str
    game: str
    box_name: str


class UnknownBox(Exception):
    """No campaign holds this box key."""


def new_key() -> str:
    """A box key nobody can guess: the owner who names a box first tells it to the others."""
    return "box_" + secrets.token_hex(16)


class Boxes:
    def __init__(self, pool: Any) -> None:
        self.pool = pool

    async def box_of(self, campaign_id: uuid.UUID) -> Box | None:
        async with self.pool.connection() as conn:
            row = await (await conn.execute(_BOX_OF, (campaign_id,))).fetchone()
        return Box(*row) if row else None

    async def name_box(self, campaign_id: uuid.UUID, name: str, key: str | None) -> Box:
        """Name the campaign's box; with a key, the box other campaigns already share (UnknownBox if none does)."""
        async with self.pool.connection() as conn:
            if key is not None:
                if await (await conn.execute(_KNOWN_KEY, (key,))).fetchone() is None:
                    raise UnknownBox(key)
            else:
                row = await (await conn.execute(_BOX_OF, (campaign_id,))).fetchone()
                key = row[0] if row else new_key()
            await conn.execute(_NAME, (campaign_id, key, name))
        return Box(key, name)

    async def leave_box(self, campaign_id: uuid.UUID) -> bool:
        async with self.pool.connection() as conn:
            cur = await conn.execute(_LEAVE, (campaign_id,))
        return bool(cur.rowcount > 0)

    async def sharing(self, key: str) -> list[Sharing]:
        """The campaigns whose cards come from the box with this key, oldest first."""
        async with self.pool.connection() as conn:
            rows = await (await conn.execute(_SHARING, (key,))).fetchall()
        return [Sharing(*row) for row in rows]
