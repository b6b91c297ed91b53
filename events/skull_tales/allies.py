"""Allies: hired at the Tavern or drawn from the bag, paid, lost, dismissed, their loyalty rolled."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.skull_tales.pirates import PaidFrom

# The Ally an event is about.
AllyId = Annotated[str, Meta(description="The Ally, by id.")]
# An Ally as it comes into the campaign, hired or drawn: the id it is known by from then on, and its Charisma.
NewAllyId = Annotated[str, Meta(description="The Ally's id in this campaign.")]
AllyCharisma = Annotated[int, Meta(description="The Ally's Charisma.")]
# The Ally's die in a confronted roll (its loyalty, a Mutiny).
AllyDie = Annotated[int, Meta(description="The Ally's die.")]


class AllyHired(Event, kw_only=True, tag="ally.hired"):
    """A Pirate hired an Ally at the Tavern: 3 Time Units, its Salary and Fame cost, +3 Coins and +3 Fame per
    point of Charisma above the hirer's.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern; Book I: The Characters, Allies.
    """

    pirate_id: Annotated[str, Meta(description="The hirer, by id.")]
    ally_id: NewAllyId
    archetype: Annotated[str, Meta(description="The Ally's archetype (`Bosun`).")]
    charisma: AllyCharisma
    salary: Annotated[int, Meta(description="The Ally's Salary.")]
    fame_cost: Annotated[int, Meta(description="The Ally's Fame cost.")]
    paid_from: PaidFrom = "personal"

    EXAMPLES = (
        {"pirate_id": "anne", "ally_id": "bosun", "archetype": "Bosun", "charisma": 2, "salary": 10, "fame_cost": 5},
    )
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


class AllyDrawn(Event, kw_only=True, tag="ally.drawn"):
    """An Ally drawn at random from the Ally bag, without pay: one of the Lone Pirate's three at the start of a Solo
    campaign, or of the three a stranded or marooned Captain plays «Castaways» with.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Game Modes, Lone Pirates ("In Solo Mode, you choose a Pirate
    as Captain and 3 random Allies"; "will draw three Allies at random to play the corresponding Adventure").
    """

    ally_id: NewAllyId
    archetype: Annotated[str, Meta(description="The Ally's archetype (`Cook`).")]
    charisma: AllyCharisma
    salary: Annotated[int, Meta(description="The Ally's Salary, paid from the next Port on.")]
    fame_cost: Annotated[int, Meta(description="The Ally's Fame cost, paid from the next Port on.")]
    pirate_id: Annotated[str, Meta(description="The Pirate who leads it (the Lone Pirate, or the castaway).")]
    reason: Annotated[
        Literal["solo_start", "castaways"],
        Meta(description="`solo_start` (a Solo campaign's start) or `castaways` (a marooned Captain's Adventure)."),
    ] = "solo_start"

    EXAMPLES = (
        {"ally_id": "cook", "archetype": "Cook", "charisma": 2, "salary": 10, "fame_cost": 5, "pirate_id": "anne"},
    )
    VIEWS = ("pirates", "pirate", "ship", "turn")


class AllyUpkeepPaid(Event, kw_only=True, tag="ally.upkeep_paid"):
    """An Ally's Salary was paid for this Port.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: The Characters, Allies; Book II: Port Phase, Setup.
    """

    ally_id: AllyId
    paid_from: Annotated[
        Literal["personal", "crew_booty"], Meta(description="`personal` (the hirer's) or `crew_booty`.")
    ] = "personal"

    EXAMPLES = ({"ally_id": "bosun"},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


class AllyDied(Event, kw_only=True, tag="ally.died"):
    """An Ally died.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Allies; Wounds and Revival.
    """

    ally_id: AllyId

    EXAMPLES = ({"ally_id": "bosun"},)
    VIEWS = ("ship",)


class AllyDismissed(Event, kw_only=True, tag="ally.dismissed"):
    """An Ally was dismissed (or left).

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: The Characters, Allies.
    """

    ally_id: AllyId

    EXAMPLES = ({"ally_id": "bosun"},)
    VIEWS = ("ship",)


class AllyLoyaltyRolled(Event, kw_only=True, tag="ally.loyalty_rolled"):
    """Admiral setting: a hirer and their Ally made a confronted Charisma roll at the start of the Port Phase; the
    Ally stays only if the hirer wins.

    Rulebook: Skull Tales: Full Sail! rulebook, Appendix II: Admiral Mode, Port Phase; Book I: Dice Rolls, Confronted rolls.
    """

    ally_id: AllyId
    hirer_roll: Annotated[int, Meta(description="The hirer's die.")]
    ally_roll: AllyDie

    EXAMPLES = ({"ally_id": "bosun", "hirer_roll": 5, "ally_roll": 2},)
    VIEWS = ("ship",)


__all__ = ["AllyDied", "AllyDismissed", "AllyDrawn", "AllyHired", "AllyLoyaltyRolled", "AllyUpkeepPaid"]
