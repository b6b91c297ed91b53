"""The ship, her crew and her Hold: bought, upgraded, damaged, repaired; Groups of Pirates; Goods traded, gained,
spent."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.skull_tales.captaincy import CaptainId
from quartermaster.events.skull_tales.pirates import Coins, CostInCoins, Reason

# A kind of Goods, and how many of its tokens, as the Hold's events count them.
Goods = Annotated[str, Meta(description="The Goods.")]
Tokens = Annotated[int, Meta(description="How many tokens.")]


class ShipBought(Event, kw_only=True, tag="ship.bought"):
    """The Captain bought a ship at the Docks: 1 Time Unit and its price from the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    Send `pirate_id` and `ship_type`: the ship's figures come from the catalogue.
    """

    pirate_id: CaptainId
    ship_type: Annotated[str, Meta(description="`Schooner`, `Frigate` or `Brigantine`.")]
    name: Annotated[str, Meta(description="The name the crew gives her.")] = ""
    sails: Annotated[int, Meta(description="Sails.")]
    sails_max: Annotated[int, Meta(description="Sails with every upgrade.")]
    hold: Annotated[int, Meta(description="Hold columns.")]
    hold_max: Annotated[int, Meta(description="Hold columns with every upgrade.")]
    cannons: Annotated[int, Meta(description="Cannons.")]
    price: Annotated[int, Meta(description="Her price in Coins.")]
    speed: Annotated[int, Meta(description="Her Speed modifier.")] = 0

    EXAMPLES = ({"pirate_id": "anne", "ship_type": "Schooner", "name": "The Swift"},)
    VIEWS = ("ship", "ledger")


class ShipUpgraded(Event, kw_only=True, tag="ship.upgraded"):
    """The Captain fitted the ship with an upgrade at the Docks: 1 Time Unit and its cost from the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    Send `pirate_id` and `upgrade`: its cost and effect come from the catalogue.
    """

    pirate_id: CaptainId
    upgrade: Annotated[str, Meta(description="The upgrade (`Cannon`).")]
    cost: CostInCoins
    effect: Annotated[
        Literal["hold", "sails", "cannon", "permanent", "single", "consumable"], Meta(description="What it changes.")
    ]
    limit: Annotated[int, Meta(description="How many the ship may carry (Cannons 5, a single Mortar).")] = 1
    ammunition: Annotated[Literal["chainshot", "grapeshot"] | None, Meta(description="For Ammunition, which kind.")] = (
        None
    )

    EXAMPLES = ({"pirate_id": "anne", "upgrade": "Cannon"},)
    VIEWS = ("ship", "ledger")


class ShipDamaged(Event, kw_only=True, tag="ship.damaged"):
    """The ship took Impacts on the rigging and the hold; tokens in a lost Hold column were discarded.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Naval Combat, Assign Impacts.
    """

    sails: Annotated[int, Meta(description="Impacts on the sails.")] = 0
    hold: Annotated[int, Meta(description="Impacts on the hold.")] = 0
    discarded_goods: Annotated[dict[str, int], Meta(description="Goods tokens discarded, by Goods.")] = {}
    discarded_cannons: Annotated[int, Meta(description="Cannons discarded.")] = 0

    EXAMPLES = ({"sails": 1},)
    VIEWS = ("ship",)


class ShipRepaired(Event, kw_only=True, tag="ship.repaired"):
    """The Captain had the ship repaired at the Docks: 1 Time Unit, 50 Coins per sail and 25 per Hold Impact from
    the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    """

    pirate_id: CaptainId
    sails: Annotated[int, Meta(description="Sails repaired.")] = 0
    hold: Annotated[int, Meta(description="Hold Impacts repaired.")] = 0

    EXAMPLES = ({"pirate_id": "anne", "sails": 1},)
    VIEWS = ("ship", "ledger")


class UpgradeUsed(Event, kw_only=True, tag="upgrade.used"):
    """A single-use upgrade (a Signal Codex) or Ammunition was used up.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks (upgrades).
    """

    upgrade: Annotated[str, Meta(description="The upgrade.")]

    EXAMPLES = ({"upgrade": "Signal Codex"},)
    VIEWS = ("ship",)


class GroupHired(Event, kw_only=True, tag="group.hired"):
    """The Captain hired a Group of Pirates at the Tavern: 1 Time Unit and 30 Coins from the Crew's Booty; at most
    6 Groups.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern.
    """

    pirate_id: CaptainId
    cost: CostInCoins = 30

    EXAMPLES = ({"pirate_id": "anne"},)
    VIEWS = ("ship", "ledger")


class GroupLost(Event, kw_only=True, tag="group.lost"):
    """A Group of Pirates was eliminated: the Captain loses 3 Fame and Morale drops 3.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Voyage Components; Morale.
    """

    reason: Reason = ""

    EXAMPLES = ({"reason": "boarded by the Redcoats"},)
    VIEWS = ("pirates", "pirate", "ship", "turn")


class GoodsTraded(Event, kw_only=True, tag="goods.traded"):
    """The Captain traded Goods at the Docks (2 Time Units); proceeds and costs go through the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks (Trade).
    One kind of Goods per event; `trade.made` records a whole Trade action.
    """

    pirate_id: CaptainId
    goods: Annotated[str, Meta(description="The Goods (`Rum`).")]
    quantity: Tokens
    direction: Annotated[Literal["buy", "sell", "deliver"], Meta(description="`buy`, `sell` or `deliver`.")]
    price: Annotated[int, Meta(description="Coins per token; Sugar's is the die x 10.")]
    roll: Annotated[int | None, Meta(description="The die that prices Sugar.")] = None
    sellable: Annotated[bool, Meta(description="False for Prisoners, which are only delivered.")] = True

    EXAMPLES = ({"pirate_id": "anne", "goods": "Rum", "quantity": 2, "direction": "sell"},)
    VIEWS = ("ship", "ledger")


TradeDirection = Literal["buy", "sell", "deliver"]


class TradeLine(msgspec.Struct, frozen=True, kw_only=True):
    """One kind of Goods sold, delivered or bought in a Trade action."""

    goods: Annotated[str, msgspec.Meta(description="The Goods as the Trade chart names them: Wood, Rum, Sugar...")]
    quantity: Annotated[int, msgspec.Meta(gt=0, description="How many tokens of these Goods.")]
    direction: Annotated[
        TradeDirection,
        msgspec.Meta(
            description="`sell` and `buy` at the chart's price; `deliver` Prisoners to the Brotherhood for the reward."
        ),
    ]
    price: Annotated[
        Coins, msgspec.Meta(description="Coins per token, from the catalogue's Trade chart; Sugar's is its die x 10.")
    ] = 0
    roll: Annotated[int | None, msgspec.Meta(description="The die that prices Sugar (1-6).")] = None
    sellable: Annotated[
        bool, msgspec.Meta(description="False for Prisoners, which are delivered, never sold (from the catalogue).")
    ] = True


class TradeMade(Event, kw_only=True, tag="trade.made"):
    """The Captain trades at the Docks: one Trade action sells, delivers and buys several Goods for 2 Time Units.

    Sales and deliveries are made first and their Coins go to the Crew's Booty; then the purchases are paid from it.
    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks (Trade).
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Captain, who alone trades at the Docks.")]
    lines: Annotated[
        list[TradeLine],
        msgspec.Meta(min_length=1, description="Each kind of Goods traded, with how many and which way."),
    ]

    VIEWS = ("pirates", "pirate", "ship", "ledger", "turn")
    EXAMPLES = (
        {
            "pirate_id": "anne",
            "lines": [
                {"goods": "Rum", "quantity": 2, "direction": "sell", "price": 10},
                {"goods": "Sugar", "quantity": 1, "direction": "sell", "price": 40, "roll": 4},
                {"goods": "Wood", "quantity": 1, "direction": "buy", "price": 15},
            ],
        },
    )


class GoodsGained(Event, kw_only=True, tag="goods.gained"):
    """Goods went into the Hold: plunder, a Whale, the Diving Bell, an island.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Plunder after boarding.
    """

    goods: Goods
    quantity: Tokens
    source: Annotated[str, Meta(description="Where they came from.")]
    pirate_id: Annotated[str | None, Meta(description="The Character who plundered them (1 Fame per token).")] = None

    EXAMPLES = ({"goods": "Rum", "quantity": 1, "source": "plunder", "pirate_id": "anne"},)
    VIEWS = ("ship",)


class GoodsSpent(Event, kw_only=True, tag="goods.spent"):
    """The crew used Goods: Supplies each Voyage Day, Rum for Morale, Wood for repairs.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Travel Round; Morale.
    """

    goods: Goods
    quantity: Tokens = 1
    purpose: Annotated[str, Meta(description="What for.")] = ""
    roll: Annotated[
        int | None,
        Meta(
            description="A Rum token at sea: the die (1-6) whose result raises Morale; the fold adds it, and gives "
            "every Pirate 1 Destiny Point (Book III: Voyage Phase, Voyage Components, Rum Token)."
        ),
    ] = None

    EXAMPLES = (
        {"goods": "Supplies", "quantity": 1, "purpose": "a Voyage Day"},
        {"goods": "Rum", "quantity": 1, "purpose": "Morale", "roll": 4},
    )
    VIEWS = ("ship",)


__all__ = [
    "GoodsGained",
    "GoodsSpent",
    "GoodsTraded",
    "GroupHired",
    "GroupLost",
    "ShipBought",
    "ShipDamaged",
    "ShipRepaired",
    "ShipUpgraded",
    "TradeDirection",
    "TradeLine",
    "TradeMade",
    "UpgradeUsed",
]
