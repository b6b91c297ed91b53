"""The Port Phase's own actions: boarding the ship, Rumors, storytelling."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.skull_tales.pirates import Coins, PirateId, RewardCoins, RewardFame


class PirateBoarded(Event, kw_only=True, tag="pirate.boarded"):
    """A Pirate returned to the Pirate Ship and their Port Phase ended.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Important Concepts; End of the Port Phase.
    `late`: the Time Units ran out before the Pirate was back aboard: 5 Fame lost, unless the Pirate was carried
    aboard Unconscious in this Port.
    """

    pirate_id: PirateId
    late: Annotated[bool, Meta(description="Back aboard after the Time Units ran out.")] = False

    EXAMPLES = ({"pirate_id": "jack"},)
    VIEWS = ("pirates", "pirate", "turn")


class RumorsHeard(Event, kw_only=True, tag="rumors.heard"):
    """A Pirate listened to Rumors (2 Time Units) at the Tavern or the Manor, and kept the Rumor drawn or not.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern; Madame Claude's Manor.
    While a Rumor is kept no more are drawn.
    """

    pirate_id: PirateId
    where: Annotated[Literal["tavern", "manor"], Meta(description="`tavern` (Perception 5) or `manor` (Charisma 4).")]
    kept: Annotated[str | None, Meta(description="The Rumor card kept, if any.")] = None

    EXAMPLES = ({"pirate_id": "mary", "where": "tavern", "kept": "The Lost Galleon"},)
    VIEWS = ("pirates", "pirate", "turn")


class RumorResolved(Event, kw_only=True, tag="rumor.resolved"):
    """A kept Rumor was resolved at the next Port's setup: its reward, or its penalty if failed.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Setup; Locations, Tavern.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate who kept it, by id.")]
    success: Annotated[bool, Meta(description="Whether the Rumor was completed.")]
    coins: RewardCoins = 0
    fame: RewardFame = 0

    EXAMPLES = ({"pirate_id": "mary", "success": True, "coins": 30, "fame": 10},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class StoryTold(Event, kw_only=True, tag="story.told"):
    """A Pirate tells a story at the Tavern: 2 Time Units and a Charisma 6 roll, up to 3 Coins spent for +1 each.

    The fold adds the Pirate's Charisma (and a Destiny Point's +1) to the die and the Coins; a total that exceeds 6
    gains the difference as Fame ("if the final result of the roll is a 9 ... 3 ... is the amount of Fame you gain").
    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern (Storytelling); Book I: Dice Rolls.
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Pirate who tells the story.")]
    roll: Annotated[int, msgspec.Meta(description="The Charisma roll's one die (1-6).")]
    coins: Annotated[Coins, msgspec.Meta(description="Coins spent before rolling, +1 to the roll each: at most 3.")] = 0

    VIEWS = ("pirates", "pirate", "ledger", "turn")
    EXAMPLES = ({"pirate_id": "mary", "roll": 4, "coins": 2},)


__all__ = ["PirateBoarded", "RumorResolved", "RumorsHeard", "StoryTold"]
