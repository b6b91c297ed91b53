"""The event store: every SQL statement about campaigns, members, events, projections and snapshots.

`Store` is four parts over one pool, each with its own interface and its dependencies given to it:
- `reader` (reading): campaigns, states and the log;
- `writer` (appending): the one route of an append, to the one write statement (writing);
- `roster` (members): campaigns and members, and hearing their changes;
- `markers` (undo): undo and redo;
and one `memory` (memory), everything the process remembers of the database under one eviction rule. The other
modules: `writing` (the events row declared once, the statements derived from it), `locks` (a campaign's write
lock), `snapshots` (the derived rows and what a refold reads), `records` (what the store takes and answers), `cache`
(the eviction rule and the folded states), `keys` (Idempotency-Keys), `outcome` (what a lost connection says about a
write), `turns` (a campaign's share of the pool), `queue` (reads waiting their turn for a connection).
"""

from __future__ import annotations

from typing import Any

from quartermaster.projections.game import BatchRejected
from quartermaster.service.store.appending import Listener, Writer
from quartermaster.service.store.boxes import Boxes
from quartermaster.service.store.cache import StateCache, state_decoder
from quartermaster.service.store.members import Roster, insert_campaign
from quartermaster.service.store.memory import Memory
from quartermaster.service.store.queue import Queued
from quartermaster.service.store.reading import Reader
from quartermaster.service.store.records import (
    Appended,
    Campaign,
    CampaignNotFound,
    IdReused,
    Override,
    PreparedEvent,
    Recorded,
    Row,
    StalePosition,
    Step,
    UndoConflict,
    UndoRefused,
    meta_of,
)
from quartermaster.service.store.snapshots import CHUNK, PROJECTION, SNAPSHOT_EVERY
from quartermaster.service.store.turns import CampaignBusy, Turns
from quartermaster.service.store.undo import Markers


class Store:
    """The event store over one async connection pool: its parts (module docstring), and the calls the service makes
    on it, each the method of the part that answers it (so typed as that method)."""

    def __init__(self, pool: Any, cache: StateCache | None = None, *, turns: Turns | None = None) -> None:
        self.pool = pool
        self.memory = Memory(cache)
        # No limit unless the app gives one from its settings (service/app.py).
        self.turns = turns if turns is not None else Turns()
        # Called with (campaign, position) after each append this process commits (live updates): not a memory of
        # the database, so not in `memory`, and never forgotten.
        self.on_commit: list[Listener] = []
        # Reads wait their turn for a connection in a bounded queue (store/queue.py), where appends keep the pool's.
        self.reader = Reader(Queued(pool), self.memory)
        self.writer = Writer(pool, self.memory, self.turns, self.reader, self.on_commit)
        self.roster = Roster(pool, self.memory, self.turns, self.writer)
        self.markers = Markers(pool, self.turns, self.writer)
        # The box each campaign's cards come from, shared between campaigns (boxes).
        self.boxes = Boxes(pool)

        # What the process remembers (the objects never change; their contents do).
        self.cache = self.memory.states
        self.verified_tokens = self.memory.tokens
        self.forget = self.memory.forget
        # Appending, undo and redo.
        self.append = self.writer.append
        self.undo = self.markers.undo
        self.redo = self.markers.redo
        # Campaigns and members.
        self.create_campaign = self.roster.create_campaign
        self.add_member = self.roster.add_member
        self.members = self.roster.members
        self.member_credentials = self.roster.member_credentials
        self.members_fresh = self.roster.members_fresh
        self.replace_token = self.roster.replace_token
        self.revoke = self.roster.revoke
        self.listen_for_member_changes = self.roster.listen_for_member_changes
        self.stop_listening = self.roster.stop_listening
        # Reading.
        self.campaign = self.reader.campaign
        self.game_of = self.reader.game_of
        self.projection = self.reader.projection
        self.positions = self.reader.positions
        self.state_at = self.reader.state_at
        self.state_now_at = self.reader.state_now_at
        self.fold_at = self.reader.fold_at
        self.history = self.reader.history
        self.effective_of_types = self.reader.effective_of_types
        self.undone_now = self.reader.undone_now
        self.log_chunks = self.reader.log_chunks
        self.overridden = self.reader.overridden
        self.rows = self.reader.rows

    @property
    def member_generation(self) -> int:
        """Counted up each time a member is forgotten (Memory.generation)."""
        return self.memory.generation


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
    "Step",
    "Store",
    "UndoConflict",
    "UndoRefused",
    "insert_campaign",
    "meta_of",
    "state_decoder",
]
