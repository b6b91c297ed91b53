"""The event store: every SQL statement about campaigns, members, events, projections and snapshots.

One module per concern: `appending` (the one write statement and the two paths to it), `reading` (states and the
log), `undo` (undo and redo markers), `members` (campaigns and members), `snapshots` (the derived rows and what a
refold reads), `records` (what the store takes and answers), `cache` (the process's folded states), `outcome` (what
a lost connection says about a write), `wire` (the fast path's one statement, sent through libpq itself), `turns`
(a campaign's share of the pool).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from projections.game import BatchRejected
from service import metrics
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

log = logging.getLogger("quartermaster")


class Store(Members, Appending, Reading, Undoing):
    """The event store over one async connection pool."""

    def __init__(self, pool: Any, cache: StateCache | None = None, *, fast_lane: bool = True) -> None:
        self.pool = pool
        # Whether the append takes the fast lane's statement (service/settings.py: Settings.fast_lane).
        self.fast_lane = fast_lane
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

    def forget(self, why: str) -> None:
        """Drop everything this process remembers of the database (states, games, members, tokens): the log it
        was learnt from is no longer the log there is (it went back in time, or another server answers now)."""
        log.warning("forgetting every cached state, game and member: %s", why)
        self.cache.clear()
        self._games.clear()
        self.forget_member(None)  # every kept member row and verified token
        metrics.forgotten()

    def behind(self, campaign_id: uuid.UUID, remembered: tuple[int, Any] | None, position: int | None) -> None:
        """Forget everything if the database's log for a campaign (at `position`, None for no campaign at all)
        ends before what this process committed or read of it (`remembered`, the cache's latest, taken before the
        statement that read `position`: anything committed since cannot then pass for a log gone back).

        Positions name states only along one log. A log that lost its last commits is written on again from its
        real end, and the states this process kept from beyond it would be taken for the new events' states."""
        if remembered is not None and (position is None or position < remembered[0]):
            self.forget(
                f"campaign {campaign_id}'s log ends at position {position or 0}, before position "
                f"{remembered[0]} this process saw committed (a failover that lost commits, or an older copy restored)"
            )


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
