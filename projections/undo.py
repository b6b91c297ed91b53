"""Re-checking the log without some batches: what undo and redo ask of the fold before they write anything."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple
from uuid import UUID

from quartermaster.events.base import Event
from quartermaster.projections.game import Game, Meta, Rejection, step


class Entry(NamedTuple):
    """A recorded event ready to fold again."""

    position: int
    batch: UUID
    type: str
    event: Event
    meta: Meta


class Conflict(NamedTuple):
    """A later event the fold refuses once the target is left out."""

    position: int
    type: str
    reason: str


class Recheck(NamedTuple):
    state: Any
    excluded: frozenset[int]
    conflicts: list[Conflict]


def recheck(game: Game[Any], start: Any, entries: Sequence[Entry], excluded: set[int], *, cascade: bool) -> Recheck:
    """Fold `entries` from `start`, leaving out `excluded` positions.

    Without `cascade`, every event the fold now refuses is reported (and skipped, so the rest is still checked).
    With `cascade`, the whole batch of a refused event is left out too, and the fold starts again, until nothing is
    refused: the target and everything that depended on it go together.
    """
    excluded = set(excluded)
    by_batch: dict[UUID, list[int]] = {}
    for entry in entries:
        by_batch.setdefault(entry.batch, []).append(entry.position)
    while True:
        state, conflicts, widened = start, [], False
        for entry in entries:
            if entry.position in excluded:
                continue
            try:
                state = step(game, state, entry.event, entry.meta)
            except Rejection as rejection:
                if cascade:
                    excluded.update(by_batch[entry.batch])
                    widened = True
                    break
                conflicts.append(Conflict(entry.position, entry.type, rejection.reason))
        if not widened:
            return Recheck(state, frozenset(excluded), conflicts)
