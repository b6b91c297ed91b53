"""Idempotency keys: a retried write answers the batch its key recorded, or is refused if the request differs."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import psycopg

from quartermaster.service.store.reading import BATCH_AT, END
from quartermaster.service.store.records import Appended, recorded_from_row

# The key is kept on the first event of the batch it recorded; the batch is read from there.
_BY_KEY = "SELECT request_digest, batch_id, position FROM events WHERE campaign_id = %s AND idempotency_key = %s"


@dataclass(frozen=True)
class Keyed:
    """A client's Idempotency-Key and the digest of the request it came with."""

    key: str
    digest: str


class KeyReused(Exception):
    """The key already recorded a batch for a different request."""

    def __init__(self, key: str, batch: uuid.UUID) -> None:
        super().__init__(key)
        self.key = key
        self.batch = batch


async def replay(conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, keyed: Keyed | None) -> Appended | None:
    """What the key recorded, as a replayed answer; None for a key not seen yet. Call under the campaign's lock."""
    if keyed is None:
        return None
    row = await (await conn.execute(_BY_KEY, (campaign_id, keyed.key))).fetchone()
    if row is None:
        return None
    digest, batch, at = row
    if digest != keyed.digest:
        raise KeyReused(keyed.key, batch)
    cur = await conn.execute(BATCH_AT, {"campaign": campaign_id, "at": at, "batch": batch, "end": END})
    events = [recorded_from_row(r) for r in await cur.fetchall()]
    return Appended(
        batch=batch, first_position=events[0].position, last_position=events[-1].position, events=events, replayed=True
    )
