"""The Voyage Phase's crew round and its end: schemes in the «Cabins», a lost Voyage."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event

Coin = Literal["gold", "silver", "copper"]


class SchemeResolved(Event, kw_only=True, tag="scheme.resolved"):
    """A Pirate other than the Captain schemed in the «Cabins» with a hidden coin (or an empty hand), against the
    coin of a Group the Captain may have set on Guard.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Crew Round.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate scheming, by id.")]
    coin: Annotated[Coin | None, Meta(description="`gold`, `silver`, `copper`, or none for an empty hand.")]
    guard: Annotated[Coin | None, Meta(description="The Guard's coin, or none when nobody Guards.")] = None
    roll: Annotated[int | None, Meta(description="Gold (Raid): the die, +3 Coins from the Crew's Booty.")] = None
    goods: Annotated[
        Literal["Rum", "Supplies"] | None, Meta(description="Copper (Theft): the token discarded to heal all Wounds.")
    ] = None

    EXAMPLES = ({"pirate_id": "mary", "coin": None},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


class AllySchemeResolved(Event, kw_only=True, tag="ally_scheme.resolved"):
    """In Solo Mode an Ally whose number the die showed schemes in the «Cabins», guarded or not.

    Unguarded, or winning the confronted Charisma roll, the Ally takes as many Coins from the Crew's Booty and
    Trust Points as its Charisma (a wounded Ally first spends a Supplies token on its Wounds, if there is one);
    losing, it loses 5 Trust Points and schemes no more this Voyage, and a guarding Ally gains 1 Trust Point; a tie
    does nothing. The fold adds each side's Charisma to its die.
    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase Sequence, Crew Round (Scheme, Solo Mode).
    """

    ally_id: Annotated[str, msgspec.Meta(description="The hired Ally that schemes.")]
    guard: Annotated[
        str | None,
        msgspec.Meta(
            description="Who Guards: `group` (a Group of Pirates), the Captain's id, another hired Ally's id, or "
            "nobody (null)."
        ),
    ] = None
    ally_roll: Annotated[
        int | None, msgspec.Meta(description="The scheming Ally's Charisma die (1-6); none when nobody Guards.")
    ] = None
    guard_roll: Annotated[
        int | None, msgspec.Meta(description="The guard side's Charisma die (1-6); none when nobody Guards.")
    ] = None
    supplies: Annotated[
        bool,
        msgspec.Meta(
            description="A wounded Ally that got away spent a Supplies token from the Hold to discard its Wounds."
        ),
    ] = False

    VIEWS = ("ship", "ledger")
    EXAMPLES = ({"ally_id": "cook"}, {"ally_id": "cook", "guard": "anne", "ally_roll": 2, "guard_roll": 5})


class CrewSurrendered(Event, kw_only=True, tag="crew.surrendered"):
    """The Voyage was lost: the ship surrendered or sank, the crew revolted, or every Character lay in the
    «Sickbay»; each Pirate loses all Coins and non-starting items, the Captain all the Crew's Booty.

    The Goods in the Hold and the ship, which the text does not name, stay unless the campaign's options
    `surrender_goods` or `surrender_ship` say "lost".
    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, End of the Voyage Phase.
    """

    cause: Annotated[
        Literal["surrendered", "sunk", "revolt", "sickbay"],
        Meta(description="`surrendered`, `sunk`, `revolt` or `sickbay`."),
    ]

    EXAMPLES = ({"cause": "surrendered"},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")


__all__ = ["AllySchemeResolved", "Coin", "CrewSurrendered", "SchemeResolved"]
