"""The Captain and the crew's trust: Assignments, elections, Trust and Morale, Mutinies, Command Points."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.skull_tales.allies import AllyDie, AllyId
from quartermaster.events.skull_tales.pirates import Reason, RewardCoins, RewardFame

# The Captain who acts, as the events of the Docks, the ship and the Assignments name them.
CaptainId = Annotated[str, Meta(description="The Captain, by id.")]


class AssignmentTaken(Event, kw_only=True, tag="assignment.taken"):
    """The Captain drew an Assignment at the Docks (1 Time Unit); one is active at a time.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    """

    pirate_id: CaptainId
    assignment: Annotated[str, Meta(description="The Assignment card.")]

    EXAMPLES = ({"pirate_id": "anne", "assignment": "Escort the Governor's Daughter"},)
    VIEWS = ("pirates", "pirate", "ship", "turn")


class AssignmentResolved(Event, kw_only=True, tag="assignment.resolved"):
    """An Assignment was resolved at Port setup; its results go to whoever was Captain when it was completed.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Setup.
    """

    pirate_id: Annotated[str, Meta(description="The Captain at completion, by id.")]
    success: Annotated[bool, Meta(description="Whether the Assignment was completed.")]
    coins: RewardCoins = 0
    fame: RewardFame = 0
    coins_to: Annotated[
        Literal["personal", "crew_booty"], Meta(description="`crew_booty` or the Captain's `personal` booty.")
    ] = "crew_booty"

    EXAMPLES = ({"pirate_id": "anne", "success": True, "coins": 50, "fame": 10},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


class CaptainElected(Event, kw_only=True, tag="captain.elected"):
    """A Pirate became Captain after a successful Adventure with no Captain: the chapter's way, else the most
    Adventure Fame.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, End of the Adventure.
    """

    pirate_id: Annotated[str, Meta(description="The new Captain, by id.")]
    method: Annotated[
        Literal["most_fame", "charisma_tie", "chapter"],
        Meta(description="`most_fame`, `charisma_tie` (a Charisma roll between tied Pirates) or `chapter`."),
    ] = "most_fame"

    EXAMPLES = ({"pirate_id": "anne", "method": "most_fame"},)
    VIEWS = ("pirates", "pirate", "ship", "chapter", "turn")


class TrustChanged(Event, kw_only=True, tag="trust.changed"):
    """A Pirate or an Ally gained or lost Voyage Trust Points (0 to 20).

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Trust Points.
    """

    character_id: Annotated[str, Meta(description="The Pirate or Ally, by id.")]
    amount: Annotated[int, Meta(description="Trust Points gained (negative: lost).")]
    reason: Annotated[str, Meta(description="Why: the Post worked, the Event resolved.")] = ""

    EXAMPLES = ({"character_id": "mary", "amount": 3, "reason": "Cartography"},)
    VIEWS = ("ship",)


class MoraleChanged(Event, kw_only=True, tag="morale.changed"):
    """The crew's Morale rose or fell.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Morale.
    """

    amount: Annotated[int, Meta(description="Morale gained (negative: lost).")]
    reason: Reason = ""

    EXAMPLES = ({"amount": -1, "reason": "no Supplies for a Voyage Day"},)
    VIEWS = ("ship",)


class MutinyResolved(Event, kw_only=True, tag="mutiny.resolved"):
    """A Mutiny was settled by sealed bids of coins, 10 Coins each, which every bidder pays.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Mutiny.
    """

    instigator: Annotated[str, Meta(description="The Pirate who started the Mutiny, by id.")]
    bids: Annotated[
        dict[str, int], Meta(description="Each bidder's coins (the Captain and every Mutineer), by Pirate id.")
    ]
    tie_winner: Annotated[
        str | None, Meta(description="The winner of the confronted Charisma roll between tied bidders.")
    ] = None

    EXAMPLES = ({"instigator": "jack", "bids": {"jack": 3, "anne": 2}},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "chapter", "turn")


class AllyMutinyResolved(Event, kw_only=True, tag="ally_mutiny.resolved"):
    """An Ally whose Trust exceeded the Captain's mutinied: the Captain's Charisma plus Coins/10 against the
    Ally's Charisma plus a die.

    Only the Captain's Trust Points become Fame, on the Record Sheet; everyone else's are reset to 0, Morale to 20.
    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Mutiny.
    """

    ally_id: AllyId
    coins_spent: Annotated[int, Meta(description="Coins the Captain spends.")]
    ally_roll: AllyDie
    tie_winner: Annotated[Literal["captain", "ally"] | None, Meta(description="Who wins a tie.")] = None

    EXAMPLES = ({"ally_id": "bosun", "coins_spent": 20, "ally_roll": 3},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


class CommandIssued(Event, kw_only=True, tag="command.issued"):
    """The Captain used Command Points in a Voyage round: 1 for being Captain, plus the Quarterdeck's Charisma,
    plus Leadership.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Command Points.
    """

    points: Annotated[int, Meta(description="The Command Points used.")]
    quarterdeck_id: Annotated[str | None, Meta(description="The Pirate on the Quarterdeck, by id.")] = None

    EXAMPLES = ({"points": 1},)
    VIEWS = ("ship",)


__all__ = [
    "AllyMutinyResolved",
    "AssignmentResolved",
    "AssignmentTaken",
    "CaptainElected",
    "CommandIssued",
    "MoraleChanged",
    "MutinyResolved",
    "TrustChanged",
]
