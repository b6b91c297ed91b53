"""Events every campaign shares, whatever the game."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from events.base import Event

Role = Literal["owner", "player", "viewer"]

# A note is free text left in the log; a few kilobytes is plenty for "we misread the Raker Shoals rule here".
NOTE_MAX_CHARS = 4000


class Die(msgspec.Struct, frozen=True):
    sides: int
    face: int


class CampaignStarted(Event, kw_only=True, tag="campaign.started"):
    name: str
    game: str
    options: dict[str, Any] = {}


class MemberJoined(Event, kw_only=True, tag="member.joined"):
    member_id: str
    name: str
    role: Role


class NoteAdded(Event, kw_only=True, tag="note.added"):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=NOTE_MAX_CHARS)]



class DiceRolled(Event, kw_only=True, tag="dice.rolled"):
    """Dice thrown at the table or by the server, with every face."""

    dice: list[Die]
    modifier: int = 0
    total: int
    expression: str | None = None
    character_id: str | None = None
    purpose: str | None = None
    skill: str | None = None
    difficulty: int | None = None
    # For pools such as Skull Tales' `4d6>4`: the target each die must exceed, and how many did.
    target: int | None = None
    successes: int | None = None
    required: int | None = None
    success: bool | None = None
    source: Literal["server", "table"] = "table"


class EventUndone(Event, kw_only=True, tag="event.undone"):
    """A marker: the batches holding these positions no longer count. Nothing is deleted."""

    targets: list[int]
    reason: str | None = None


class EventRedone(Event, kw_only=True, tag="event.redone"):
    """A marker: positions undone earlier count again."""

    targets: list[int]
    reason: str | None = None


# Events that change no game's state: the service keeps members in their own table, notes are for people.
BOOKKEEPING = (MemberJoined, NoteAdded)
MARKERS = (EventUndone, EventRedone)
COMMON = (CampaignStarted, MemberJoined, NoteAdded, DiceRolled, EventUndone, EventRedone)
