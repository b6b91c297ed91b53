"""Coins and booty: Coins found, lost and given, booty buried and recovered, Monsieur Fontaine's loans, Salaries."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.skull_tales.captaincy import CaptainId
from quartermaster.events.skull_tales.pirates import Giver, PaidFrom, PirateId

Lender = Literal["manor", "market", "ship"]

# The island booty is buried on and dug up from.
Island = Annotated[str, Meta(description="The island.")]


class CoinsChanged(Event, kw_only=True, tag="coins.changed"):
    """A Pirate or an Ally found or lost Coins: a Search card, a Goal, a Fallen Enemy token, an Event, a Rumor,
    gambling, a purchase.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, End of the Adventure; Book II: Port Phase, Important Concepts.
    `source` names where they came from (or went): it must be one the rules know.
    """

    pirate_id: Annotated[str | None, Meta(description="The Pirate, by id.")] = None
    ally_id: Annotated[str | None, Meta(description="Or the Ally, by id (half go to the hirer).")] = None
    amount: Annotated[int, Meta(description="Coins gained (negative: lost).")]
    source: Annotated[
        str,
        Meta(description="Where they came from or went: `search_card`, `goal`, `fallen_enemy`, `event`, `rumor`..."),
    ]

    EXAMPLES = ({"pirate_id": "anne", "amount": 10, "source": "search_card"},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class CoinsGiven(Event, kw_only=True, tag="coins.given"):
    """A Pirate handed Coins to another Pirate, or donated them to the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Honor among thieves; Book II: Port Phase, Important Concepts.
    """

    from_pirate: Giver
    to: Annotated[str, Meta(description="The Pirate who receives, by id, or `crew_booty`.")]
    amount: Annotated[int, Meta(description="How many Coins.")]

    EXAMPLES = ({"from_pirate": "mary", "to": "crew_booty", "amount": 5},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


class BootyBuried(Event, kw_only=True, tag="booty.buried"):
    """The Captain buried Crew's Booty on an island.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Docking on an Island.
    """

    pirate_id: CaptainId
    island: Island
    amount: Annotated[int, Meta(description="Coins buried.")]

    EXAMPLES = ({"pirate_id": "anne", "island": "Isla de Muerta", "amount": 10},)
    VIEWS = ("ship", "ledger")


class BootyRecovered(Event, kw_only=True, tag="booty.recovered"):
    """Buried booty was dug up: by a Captain into the Crew's Booty, by a former Captain into their own.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Docking on an Island.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate who digs, by id.")]
    island: Island
    amount: Annotated[int, Meta(description="Coins recovered.")]

    EXAMPLES = ({"pirate_id": "anne", "island": "Isla de Muerta", "amount": 10},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


class LoanTaken(Event, kw_only=True, tag="loan.taken"):
    """A Pirate borrowed up to 50 Coins from Monsieur Fontaine: at the Manor for Time Units and Fame, at the
    Market, or for a ship upgrade.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Madame Claude's Manor; Market Square; Docks.
    """

    pirate_id: PirateId
    amount: Annotated[int, Meta(description="Coins borrowed.")]
    lender: Annotated[Lender, Meta(description="`manor`, `market` or `ship`.")]
    fame: Annotated[int, Meta(description="At the Manor: Fame spent (5 Coins per Time Unit or Fame).")] = 0
    price: Annotated[
        int | None,
        Meta(
            description="At the Market or for the ship: the Coins the Gear card or upgrade costs, as the rules charge "
            "it; the loan is at most what the purse (the Crew's Booty for the ship) lacks. Without it, the next "
            "purchase is held to that."
        ),
    ] = None

    EXAMPLES = (
        {"pirate_id": "mary", "amount": 20, "lender": "market"},
        {"pirate_id": "jack", "amount": 15, "lender": "market", "price": 25},
    )
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class LoanRepaid(Event, kw_only=True, tag="loan.repaid"):
    """A Pirate repaid Monsieur Fontaine, 6 Coins for every 5 borrowed; a ship loan may be repaid from the Crew's
    Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Madame Claude's Manor; Docks.
    """

    pirate_id: PirateId
    amount: Annotated[int, Meta(description="Coins repaid.")]
    paid_from: PaidFrom = "personal"

    EXAMPLES = ({"pirate_id": "mary", "amount": 24},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class SalaryCollected(Event, kw_only=True, tag="salary.collected"):
    """A Pirate collected a Salary at the Docks (1 Time Unit): the card's Salary, or for the Captain 50 and 100
    to the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    """

    pirate_id: PirateId

    EXAMPLES = ({"pirate_id": "jack"},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


__all__ = [
    "BootyBuried",
    "BootyRecovered",
    "CoinsChanged",
    "CoinsGiven",
    "Lender",
    "LoanRepaid",
    "LoanTaken",
    "SalaryCollected",
]
