"""The event store: every SQL statement about campaigns, members, events, projections and snapshots.

One module per concern: `appending` (the one write statement and the two paths to it), `reading` (states and the
log), `undo` (undo and redo markers), `members` (campaigns and members), `snapshots` (the derived rows and what a
refold reads), `records` (what the store takes and answers), `cache` (the process's folded states), `outcome` (what
a lost connection says about a write), `wire` (the fast path's one statement, sent through libpq itself), `turns`
(a campaign's share of the pool).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from projections.game import BatchRejected
from service.store.appending import Appending, write
from service.store.cache import StateCache, state_decoder
from service.store.members import MemberChanges, Members, insert_campaign
from service.store.reading import Reading
from service.store.records import (
    Appended,
    Campaign,
    CampaignNotFound,
    IdReused,
    Override,
    PreparedEvent,
    Recorded,
    Row,
    StalePosition,
    UndoConflict,
    UndoRefused,
    meta_of,
)
from service.store.snapshots import CHUNK, PROJECTION, SNAPSHOT_EVERY
from service.store.turns import CampaignBusy, Turns
from service.store.undo import Undoing
from service.tokens import Verified


class Store(Members, Appending, Reading, Undoing):
    """The event store over one async connection pool."""

    def __init__(self, pool: Any, cache: StateCache | None = None) -> None:
        self.pool = pool
        self.cache = cache or StateCache()
        # No limit until the app sets one from its settings (service/app.py).
        self.turns = Turns()
        # Both keyed by the id's integer (StateCache says why).
        self._games: dict[int, str] = {}
        self._members: dict[int, tuple[uuid.UUID, str, str, bytes]] = {}
        # Tokens already matched against their hash, with their member, keyed by the token's digest (service.auth.holder
        # says why); both forgotten together when a member changes (store/members.py).
        self.verified_tokens = Verified()
        self.member_changes: MemberChanges | None = None
        self.member_generation = 0
        # Called with (campaign, position) after each append this process commits (live updates).
        self.on_commit: list[Callable[[uuid.UUID, int], None]] = []


__all__ = [
    "CHUNK",
    "PROJECTION",
    "SNAPSHOT_EVERY",
    "Appended",
    "BatchRejected",
    "Campaign",
    "CampaignBusy",
    "CampaignNotFound",
    "IdReused",
    "Override",
    "PreparedEvent",
    "Recorded",
    "Row",
    "StalePosition",
    "StateCache",
    "Store",
    "UndoConflict",
    "UndoRefused",
    "insert_campaign",
    "meta_of",
    "state_decoder",
    "write",
]
