"""Events every campaign shares, whatever the game."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from quartermaster.events.base import Event

Role = Literal["owner", "player", "viewer", "display"]

# A note is free text left in the log; a few kilobytes is plenty for "we misread the Raker Shoals rule here".
NOTE_MAX_CHARS = 4000

ALL_VIEWS = ("*",)


class Die(msgspec.Struct, frozen=True):
    """One die of a roll: how many sides it has and the face it shows."""

    sides: Annotated[int, msgspec.Meta(description="How many sides the die has: 6 for a d6, 12 for a d12.")]
    face: Annotated[int, msgspec.Meta(description="The face it landed on, from 1 to `sides`.")]


class CampaignStarted(Event, kw_only=True, tag="campaign.started"):
    """The campaign began: its name, the game it plays and the rule options the table chose.

    Always the first event of a log, written when the campaign is created.
    """

    name: Annotated[str, msgspec.Meta(description="The campaign's name, as the table calls it.")]
    game: Annotated[
        str,
        msgspec.Meta(
            description="The game's id: `pacg-skull-and-shackles` or "
            "`skull-tales-full-sail` (GET /v1/games lists them)."
        ),
    ]
    options: Annotated[
        dict[str, Any],
        msgspec.Meta(description="The rule options the table chose for this campaign; each game documents its own."),
    ] = {}

    EXAMPLES = ({"name": "The Wormwood Mutiny", "game": "pacg-skull-and-shackles", "options": {}},)
    APPENDED_BY = ()
    WRITTEN_BY = "a campaign starts when it is created (POST /v1/campaigns)"
    VIEWS = ALL_VIEWS


class MemberJoined(Event, kw_only=True, tag="member.joined"):
    """Someone joined the campaign's table as its owner, a player or a viewer, or a table display was linked."""

    member_id: Annotated[str, msgspec.Meta(description="The member's id, as the members list shows it.")]
    name: Annotated[str, msgspec.Meta(description="The member's name.")]
    role: Annotated[
        Role,
        msgspec.Meta(
            description="`owner` (everything), `player` (appends and undoes their own batches), `viewer` (reads) or "
            "`display` (the table display's read-only link: reads, and every write refused)."
        ),
    ]

    EXAMPLES = ({"member_id": "2f1c7d52-54a4-4a5e-9a0f-8a6a4a1f3c11", "name": "Anne", "role": "player"},)
    APPENDED_BY = ()
    WRITTEN_BY = "members join through POST /v1/campaigns/{id}/members"


class NoteAdded(Event, kw_only=True, tag="note.added"):
    """A note left in the log for the people at the table; it changes nothing in the game."""

    text: Annotated[
        str,
        msgspec.Meta(
            min_length=1, max_length=NOTE_MAX_CHARS, description=f"The note, 1 to {NOTE_MAX_CHARS} characters."
        ),
    ]

    EXAMPLES = ({"text": "We misread the Raker Shoals rule here; the next scenario plays it right."},)


class DiceRolled(Event, kw_only=True, tag="dice.rolled"):
    """Dice were thrown, at the table or by the server, with every face they showed.

    A check names its character, skill and difficulty; a pool such as Skull Tales' `4d6>4` names the target each
    die must beat and how many did. What the faces mean (the successes, whether the check succeeded) is the game's
    fold to say (`projections.dice.read`): `POST /rolls` records its reading, and a roll logged whole that says
    otherwise is refused.
    """

    dice: Annotated[list[Die], msgspec.Meta(description="Every die thrown, with the face it shows.")]
    modifier: Annotated[int, msgspec.Meta(description="Added to the sum of the faces (a skill's +2).")] = 0
    total: Annotated[int, msgspec.Meta(description="The sum of the faces plus the modifier.")]
    expression: Annotated[str | None, msgspec.Meta(description="The roll as the table says it: `1d12+2`, `4d6>4`.")] = (
        None
    )
    character_id: Annotated[
        str | None, msgspec.Meta(description="The character (or Skull Tales pirate or ally) who rolled, by id.")
    ] = None
    purpose: Annotated[
        str | None,
        msgspec.Meta(description="What the roll was for, in the table's words: `defeat the Bandit`, `Charisma`."),
    ] = None
    skill: Annotated[str | None, msgspec.Meta(description="The skill rolled, as the character card names it.")] = None
    difficulty: Annotated[int | None, msgspec.Meta(description="The check's difficulty, when it has one.")] = None
    target: Annotated[
        int | None, msgspec.Meta(description="For a pool: the value each die must exceed to count as a success.")
    ] = None
    successes: Annotated[int | None, msgspec.Meta(description="For a pool: how many dice exceeded the target.")] = None
    required: Annotated[int | None, msgspec.Meta(description="For a pool: how many successes the roll needs.")] = None
    success: Annotated[bool | None, msgspec.Meta(description="Whether the roll succeeded, when that is known.")] = None
    source: Annotated[
        Literal["server", "table"],
        msgspec.Meta(description="`table` for physical dice reported by a player, `server` for dice the server threw."),
    ] = "table"

    EXAMPLES = (
        {
            "dice": [{"sides": 8, "face": 7}],
            "modifier": 2,
            "total": 9,
            "expression": "1d8+2",
            "character_id": "lirianne",
            "skill": "Dexterity",
            "difficulty": 8,
            "success": True,
        },
        {
            "dice": [{"sides": 6, "face": 5}, {"sides": 6, "face": 2}, {"sides": 6, "face": 6}],
            "total": 13,
            "expression": "3d6>4",
            "target": 4,
            "successes": 2,
            "required": 1,
            "purpose": "Search",
        },
    )


class EventUndone(Event, kw_only=True, tag="event.undone"):
    """Batches were undone: the events at these positions no longer count, though nothing is deleted."""

    targets: Annotated[list[int], msgspec.Meta(description="The positions of every event undone.")]
    reason: Annotated[str | None, msgspec.Meta(description="Why, in the table's words.")] = None

    EXAMPLES = ({"targets": [14, 15], "reason": "Merisiel was not at the Sea Caves."},)
    APPENDED_BY = ()
    WRITTEN_BY = "undo through POST /v1/campaigns/{id}/undo"
    VIEWS = ALL_VIEWS


class EventRedone(Event, kw_only=True, tag="event.redone"):
    """Batches undone earlier count again."""

    targets: Annotated[list[int], msgspec.Meta(description="The positions of every event that counts again.")]
    reason: Annotated[str | None, msgspec.Meta(description="Why, in the table's words.")] = None

    EXAMPLES = ({"targets": [14, 15], "reason": "She was there after all."},)
    APPENDED_BY = ()
    WRITTEN_BY = "redo through POST /v1/campaigns/{id}/redo"
    VIEWS = ALL_VIEWS


class CampaignForked(Event, kw_only=True, tag="campaign.forked"):
    """This campaign was forked from another: its log up to here is that one's, as the table saw it at a position.

    Written at the end of the forked log, with the forking member's member.joined, in a batch of their own.
    """

    from_campaign: Annotated[str, msgspec.Meta(description="The id of the campaign it was forked from.")]
    from_name: Annotated[str, msgspec.Meta(description="That campaign's name when it was forked.")]
    at: Annotated[int, msgspec.Meta(ge=1, description="The position in that campaign's log the fork was taken at.")]

    EXAMPLES = (
        {"from_campaign": "0b9e2c1e-3d7f-4f6a-9c55-1f0e6f4a2b10", "from_name": "The Wormwood Mutiny", "at": 120},
    )
    APPENDED_BY = ()
    WRITTEN_BY = "a fork through POST /v1/campaigns/{id}/fork"


# Events that change no game's state: the service keeps members in their own table, notes are for people.
BOOKKEEPING = (MemberJoined, NoteAdded, CampaignForked)
MARKERS = (EventUndone, EventRedone)
COMMON = (CampaignStarted, MemberJoined, NoteAdded, DiceRolled, EventUndone, EventRedone, CampaignForked)
