"""A fork: a new campaign whose log is another's effective log up to a position, folded again.

"Effective" as the table saw it at that position (the rule of `?at=N`): the events undone by then are left out,
and so are the undo and redo markers themselves, so the new log holds only events that count, numbered again from
1. The new log ends with a batch of its own, recorded by the member who forked: `campaign.forked`, naming the
campaign and position it came from, and that member joining as owner. The folding and inserting is the import's
(`service.refold.new_campaign_from_log`); a fork only chooses the rows.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import msgspec

from quartermaster.projections.timeline import MARKER_TYPES, Marker, undone_as_of
from quartermaster.service.application.audit.episodes import effective
from quartermaster.service.application.refold import CHUNK, Row, row_of
from quartermaster.service.store import Store

_encode = msgspec.json.encode


async def undone_at(store: Store, campaign_id: uuid.UUID, at: int) -> dict[int, int]:
    """The positions undone as the log stood at `at`."""
    markers = [
        Marker(r.position, r.type, msgspec.json.decode(r.data)["targets"])
        async for r in effective(store, campaign_id, MARKER_TYPES, upto=at)
    ]
    return undone_as_of(markers, at)


async def forked_rows(
    store: Store, campaign_id: uuid.UUID, at: int, *, origin: dict[str, object], owner_id: uuid.UUID, owner_name: str
) -> AsyncIterator[list[Row]]:
    """The rows of the fork's log, a chunk at a time: the effective events up to `at`, then the fork's own batch."""
    skip = await undone_at(store, campaign_id, at)
    chunk: list[Row] = []
    position = 0
    async for recorded in store.rows(campaign_id, at):
        if recorded.type in MARKER_TYPES or recorded.position in skip:
            continue
        position += 1
        chunk.append(row_of(recorded, position, bytes(recorded.data)))
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    batch, now, actor = uuid.uuid4(), datetime.now(UTC), str(owner_id)
    joined = {"member_id": actor, "name": owner_name, "role": "owner"}
    for type_, data in (("campaign.forked", origin), ("member.joined", joined)):
        position += 1
        chunk.append(Row(position, uuid.uuid4(), batch, type_, 1, _encode(data), actor, now, None))
    yield chunk
