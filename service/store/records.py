"""What the store takes and answers: events to append, recorded events, appended batches, and its refusals."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, NamedTuple

import msgspec

from quartermaster.events.base import Event
from quartermaster.projections.game import Meta
from quartermaster.projections.undo import Conflict

# The longest override reason kept: a sentence or two, as a table would write it.
MAX_REASON = 500


class Override(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The table's decision to log an event against a rule of the game, with its reason (projections.game.broken).

    Sent beside an event's type and data, kept in the log beside them, shown in history and kept by an export.
    """

    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_REASON)]


class Recorded(msgspec.Struct, frozen=True):
    """An event as the log holds it."""

    position: int
    id: uuid.UUID
    batch: uuid.UUID
    type: str
    schema_version: int
    data: msgspec.Raw
    actor: str
    recorded_at: datetime
    occurred_at: datetime | None = None
    undone_by: int | None = None
    # The table's reason for logging it against a rule of the game (projections.game.broken), or None.
    override: Override | None = None


class PreparedEvent(msgspec.Struct, frozen=True):
    """An event ready to append: already decoded, catalogue names already expanded, not yet given a position.

    A Struct rather than a dataclass: a 1,000-event batch makes a thousand, and a Struct is made in C.
    """

    event: Event
    type: str
    data: bytes  # the event's fields as JSON, without the type
    id: uuid.UUID | None = None
    occurred_at: datetime | None = None
    override: str | None = None  # the table's reason for logging it against a rule of the game


class Row(NamedTuple):
    """A recorded event to fold again (a tuple: a rebuild makes one per event, so it must be cheap)."""

    position: int
    id: uuid.UUID | None  # None when only folding (a rebuild): the fold never reads it
    batch: uuid.UUID | str  # compared for equality only
    type: str
    schema_version: int
    data: bytes  # JSON of the event's fields
    actor: str
    recorded_at: datetime | None  # None when only folding
    occurred_at: datetime | None
    override: str | None = None


class Step(NamedTuple):
    """One event of an appended batch as the append folded it: the event decoded, the state before and after it,
    and the rules of the game it broke under its override (none without one)."""

    event: Event
    before: Any
    after: Any
    noted: Sequence[str]


class Appended(msgspec.Struct, frozen=True):
    """A batch as it was appended (or found already recorded), with what the process cache keeps of it.

    A Struct rather than a frozen dataclass: every append makes one, and a frozen dataclass sets each field through
    object.__setattr__.
    """

    batch: uuid.UUID
    first_position: int
    last_position: int
    events: list[Recorded]
    replayed: bool = False  # True when this was a retry answered from what was already recorded
    # The folded state after the batch, for the process cache once the transaction has committed, and the length of
    # its JSON when it was encoded for a checkpoint (the cache's measure of its size).
    state: Any = None
    size: int | None = None
    # Each event's fold as the append did it (`Step`), for the live feeds to tell the events without decoding or
    # folding them again; None where the batch was not folded here (a retry answered from the log).
    steps: list[Step] | None = None


@dataclass(frozen=True)
class Campaign:
    id: uuid.UUID
    game: str
    name: str
    created_at: datetime
    position: int


class CampaignNotFound(LookupError):
    pass


class StalePosition(Exception):
    """The client's expected position is not the campaign's position."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"expected position {expected}, but the campaign is at {current}")
        self.expected = expected
        self.current = current


class IdReused(Exception):
    """An event id already recorded with different content, or a batch partly recorded."""

    def __init__(self, reasons: list[tuple[int, str]]) -> None:
        super().__init__("; ".join(r for _, r in reasons))
        self.reasons = reasons


class UndoRefused(Exception):
    """Undo or redo cannot start: nothing to undo, a batch that is not the caller's, a batch that is not there."""

    def __init__(self, reason: str, status: int = 409) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


class UndoConflict(Exception):
    """Later events the fold would refuse if the undo or redo went ahead."""

    def __init__(self, conflicts: list[Conflict]) -> None:
        super().__init__("; ".join(c.reason for c in conflicts))
        self.conflicts = conflicts


def meta_of(recorded: Recorded) -> Meta:
    """What the fold knows of a recorded event beside its data."""
    override = recorded.override.reason if recorded.override is not None else None
    return Meta(recorded.position, recorded.actor, recorded.occurred_at, override)


def recorded_from_row(row: Sequence[Any]) -> Recorded:
    """A Recorded from a row of (position, event_id, batch_id, type, schema_version, data, actor, recorded_at,
    occurred_at, override[, undone_by])"""
    position, event_id, batch_id, type_, version, data, actor, recorded_at, occurred_at, override = row[:10]
    undone_by = row[10] if len(row) > 10 else None
    return Recorded(
        position=position,
        id=event_id,
        batch=batch_id,
        type=type_,
        schema_version=version,
        data=msgspec.Raw(data.encode() if isinstance(data, str) else data),
        actor=actor,
        recorded_at=recorded_at,
        occurred_at=occurred_at,
        undone_by=undone_by,
        override=None if override is None else Override(override),
    )
