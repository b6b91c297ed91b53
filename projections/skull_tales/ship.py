"""The Captain's ship: types, upgrades, damage and repairs, Cannons, Groups of Pirates, the Hold and its Cargo Rate,
and the Goods trade at the Docks.

Skull Tales: Full Sail! rulebook, Book II: Locations, Docks; Book III: Voyage Phase, Important Concepts; Book III:
Voyage Phase Sequence, Crew Round; Book III: Naval Combat.
"""

from __future__ import annotations

import math

from msgspec.structs import replace

from quartermaster.events.skull_tales import (
    GoodsGained,
    GoodsSpent,
    GoodsTraded,
    GroupHired,
    GroupLost,
    ShipBought,
    ShipDamaged,
    ShipRepaired,
    ShipUpgraded,
    TradeLine,
    TradeMade,
    UpgradeUsed,
)
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.booty import bosun_acted, loan_spent, move, pay, require_captain, spend_time
from quartermaster.projections.skull_tales.captaincy import morale_max
from quartermaster.projections.skull_tales.options import active
from quartermaster.projections.skull_tales.pirates import add_fame, lose_fame
from quartermaster.projections.skull_tales.state import (
    Ship,
    SkullTales,
    active_pirate,
    change,
    destiny_cap,
    in_play,
    put,
    require_phase,
)
from quartermaster.projections.skull_tales.words import count

MAX_CANNONS = 5
MAX_GROUPS = 6
SAIL_REPAIR, HOLD_REPAIR = 50, 25  # Book II: Locations, Docks
PRISONER_REWARD = 25
BUYABLE_LIMITED = ("Wood", "Supplies", "Rum")
GROUP_LOST_FAME = 3
TRADE_TIME_UNITS = 2  # "By spending 2 Time Units, you can trade" (Book II: Locations, Docks)


def southern_lady() -> Ship:
    """The crew's first ship, "The Southern Lady" (Book III: Voyage Phase, Important Concepts): a Brigantine with 3 Cannons, printed so."""
    return Ship(
        name="The Southern Lady",
        ship_type="Brigantine",
        sails=3,
        sails_max=6,
        hold=7,
        hold_max=9,
        cannons=3,
        groups=4,
        speed=-1,
        goods={"Rum": 2, "Supplies": 3},
    )


def tokens(ship: Ship) -> int:
    return sum(ship.goods.values()) + ship.cannons


def hold_spaces(ship: Ship) -> int:
    """Two tokens per column of the Hold still afloat."""
    return 2 * (ship.hold - ship.hold_impacts)


def sunk(ship: Ship) -> bool:
    """The «Hold» Impact token stands one column left of the Hold's capacity ("Hold Capacity: 7 (place an Impact
    token on column 8 ...)", Book III: Voyage Phase, Important Concepts; "one space to the left of the maximum «Hold»
    capacity", Book III: Voyage Phase, Game Setup), and each Impact moves it one column right: it reaches column 1,
    and the ship sinks, when no column is left, not while column 1 still holds cargo."""
    return ship.hold - ship.hold_impacts <= 0


def cargo_rate(state: SkullTales, ship: Ship) -> int:
    """Tokens fill columns from the right: columns 1-4 give 2, 5-7 give 3, 8-10 give 4 (Book III: Voyage Phase Sequence, Crew Round)."""
    columns = math.ceil(tokens(ship) / 2)
    rate = 2 if columns <= 4 else 3 if columns <= 7 else 4
    if active(state.options, "cabin_boy.voyage.cargo_rate_minus_1"):
        rate -= 1
    return rate


def _ship(state: SkullTales) -> Ship:
    if state.ship is None:
        raise Rejection("The crew has no ship yet.")
    return state.ship


def _check_hold(ship: Ship, doing: str) -> None:
    if tokens(ship) > hold_spaces(ship):
        broken(
            f"The Hold cannot {doing}: it has room for {count(hold_spaces(ship), 'token')} and would hold "
            f"{tokens(ship)} (Goods and Cannons)."
        )


def ship_bought(state: SkullTales, event: ShipBought) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    doing = f"buy a {event.ship_type}"
    bosun = require_captain(state, p.id, doing, bosun_may=True)
    require_phase(state, "port", "Buying a ship")
    smaller = 1 if active(state.options, "admiral.voyage.ships_minus_1") else 0
    old = state.ship
    # The old ship's Sails, Cannons and Upgrades bargain the price and are lost; Coins and Goods stay (Book II: Locations, Docks).
    new = Ship(
        name=event.name or event.ship_type,
        ship_type=event.ship_type,
        sails=event.sails - smaller,
        sails_max=event.sails_max - smaller,
        hold=event.hold - smaller,
        hold_max=event.hold_max - smaller,
        cannons=event.cannons - smaller,
        groups=(old.groups if old and state.options.ship_purchase_keeps_groups else 0),
        speed=event.speed,
        goods=dict(old.goods) if old else {},
    )
    _check_hold(new, f"take the old ship's Goods into the new {event.ship_type} (sell some first)")
    state = spend_time(state, p.id, 1, doing)
    state = loan_spent(state, "ship", event.price, p.id)
    state = pay(state, "crew_booty", event.price, doing, "ship", p.name)
    return replace(bosun_acted(state, p.id, bosun), ship=new)


def ship_upgraded(state: SkullTales, event: ShipUpgraded) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    ship = _ship(state)
    doing = f"buy the {event.upgrade} upgrade"
    bosun = require_captain(state, p.id, doing, bosun_may=True)
    require_phase(state, "port", "Upgrading the ship")
    upgrades = dict(ship.upgrades)
    if event.effect == "hold":
        if ship.hold >= ship.hold_max:
            broken(f"{p.name} cannot {doing}: the {ship.ship_type}'s Hold is at its maximum of {ship.hold_max}.")
        ship = replace(ship, hold=ship.hold + 1)
    elif event.effect == "sails":
        if ship.sails >= ship.sails_max:
            broken(f"{p.name} cannot {doing}: the {ship.ship_type}'s Sails are at their maximum of {ship.sails_max}.")
        ship = replace(ship, sails=ship.sails + 1)
    elif event.effect == "cannon":
        if ship.cannons >= MAX_CANNONS:
            broken(f"{p.name} cannot {doing}: the ship already carries {MAX_CANNONS} Cannons, the most it may.")
        ship = replace(ship, cannons=ship.cannons + 1)
        _check_hold(ship, "take another Cannon")
    else:
        key = f"{event.upgrade} ({event.ammunition})" if event.ammunition else event.upgrade
        if upgrades.get(key, 0) >= event.limit:
            broken(f"{p.name} cannot {doing}: the ship already has {upgrades[key]} and may have {event.limit}.")
        upgrades[key] = upgrades.get(key, 0) + 1
        ship = replace(ship, upgrades=upgrades, upgrade_kinds={**ship.upgrade_kinds, key: event.effect})
    cost = event.cost + (20 if active(state.options, "admiral.port.upgrade_plus_20") else 0)
    state = spend_time(state, p.id, 1, doing)
    state = loan_spent(state, "ship", cost, p.id)
    state = pay(state, "crew_booty", cost, doing, "upgrade", p.name)
    return replace(bosun_acted(state, p.id, bosun), ship=ship)


def upgrade_used(state: SkullTales, event: UpgradeUsed) -> SkullTales:
    ship = _ship(state)
    if ship.upgrades.get(event.upgrade, 0) == 0:
        have = ", ".join(ship.upgrades) or "none"
        raise Rejection(f"The ship has no {event.upgrade} to use (upgrades: {have}).")
    kind = ship.upgrade_kinds.get(event.upgrade)
    if kind == "permanent":
        broken(
            f"The {event.upgrade} is a permanent upgrade: it stays on the ship when used (Book II: Locations, Docks)."
        )
    elif kind == "consumable":
        # Ammunition: "Discard it at the end of the Voyage Phase if it was used" (Book II: Locations, Docks).
        require_phase(state, "voyage", f"Firing the {event.upgrade}")
        if event.upgrade in ship.ammunition_used:
            return state
        return replace(state, ship=replace(ship, ammunition_used=[*ship.ammunition_used, event.upgrade]))
    return replace(state, ship=_without_upgrade(ship, event.upgrade))


def _without_upgrade(ship: Ship, upgrade: str) -> Ship:
    upgrades = {**ship.upgrades, upgrade: ship.upgrades[upgrade] - 1}
    if upgrades[upgrade] == 0:
        del upgrades[upgrade]
    return replace(ship, upgrades=upgrades)


def discard_used_ammunition(state: SkullTales) -> SkullTales:
    """The Voyage's end discards the Ammunition fired in it (Book II: Locations, Docks)."""
    ship = state.ship
    if ship is None or not ship.ammunition_used:
        return state
    for upgrade in ship.ammunition_used:
        if ship.upgrades.get(upgrade, 0):
            ship = _without_upgrade(ship, upgrade)
    return replace(state, ship=replace(ship, ammunition_used=[]))


def ship_damaged(state: SkullTales, event: ShipDamaged) -> SkullTales:
    ship = _ship(state)
    if event.sails < 0 or event.hold < 0:
        raise Rejection("Impacts are counted up; repairs take them away.")
    goods = dict(ship.goods)
    for name, lost in event.discarded_goods.items():
        if goods.get(name, 0) < lost:
            raise Rejection(f"The Hold has {goods.get(name, 0)} {name} and cannot lose {lost}.")
        goods[name] -= lost
        if goods[name] == 0:
            del goods[name]
    if event.discarded_cannons > ship.cannons:
        raise Rejection(f"The ship has {count(ship.cannons, 'Cannon')} and cannot lose {event.discarded_cannons}.")
    ship = replace(
        ship,
        sails_damaged=min(ship.sails_damaged + event.sails, ship.sails),
        hold_impacts=ship.hold_impacts + event.hold,
        goods=goods,
        cannons=ship.cannons - event.discarded_cannons,
    )
    if sunk(ship):
        # "If the «Hold» Impact token reaches 1, the ship sinks." (Book III: Naval Combat, Assign Impacts)
        return replace(state, ship=replace(ship, hold_impacts=ship.hold))
    _check_hold(ship, "keep every token after the Impacts (discard those in the lost columns)")
    return replace(state, ship=ship)


def ship_repaired(state: SkullTales, event: ShipRepaired) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    ship = _ship(state)
    bosun = require_captain(state, p.id, "repair the ship", bosun_may=True)
    require_phase(state, "port", "Repairing the ship")
    if not 0 <= event.sails <= ship.sails_damaged or not 0 <= event.hold <= ship.hold_impacts:
        raise Rejection(
            f"{p.name} cannot repair {count(event.sails, 'Sail')} and {count(event.hold, 'Hold Impact')}: the ship has "
            f"{count(ship.sails_damaged, 'damaged Sail')} and {count(ship.hold_impacts, 'Hold Impact')}."
        )
    cost = SAIL_REPAIR * event.sails + HOLD_REPAIR * event.hold
    state = spend_time(state, p.id, 1, "arrange repairs")
    state = pay(state, "crew_booty", cost, "repair the ship", "repairs", p.name)
    ship = replace(ship, sails_damaged=ship.sails_damaged - event.sails, hold_impacts=ship.hold_impacts - event.hold)
    return replace(bosun_acted(state, p.id, bosun), ship=ship)


def group_hired(state: SkullTales, event: GroupHired) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    ship = _ship(state)
    bosun = require_captain(state, p.id, "hire a Group of Pirates", bosun_may=True)
    require_phase(state, "port", "Hiring a Group of Pirates")
    if ship.groups >= MAX_GROUPS:
        broken(f"{p.name} cannot hire a Group of Pirates: the ship carries {MAX_GROUPS}, the most it may.")
    state = spend_time(state, p.id, 1, "hire a Group of Pirates")
    state = pay(state, "crew_booty", event.cost, "hire a Group of Pirates", "group", p.name)
    return replace(bosun_acted(state, p.id, bosun), ship=replace(ship, groups=ship.groups + 1))


def group_lost(state: SkullTales, event: GroupLost) -> SkullTales:
    ship = _ship(state)
    if ship.groups == 0:
        raise Rejection("The ship has no Group of Pirates left to lose.")
    state = replace(state, ship=replace(ship, groups=ship.groups - 1))
    if state.phase == "voyage":
        state = replace(state, morale=max(state.morale - 3, 0))
    if state.captain is not None:
        state = lose_fame(state, state.captain, GROUP_LOST_FAME, "a Group of Pirates eliminated")
    return state


def goods_traded(state: SkullTales, event: GoodsTraded) -> SkullTales:
    """One kind of Goods traded as a Trade action of its own (logs written before `trade.made`)."""
    p = active_pirate(state, event.pirate_id)
    _ship(state)
    bosun = require_captain(state, p.id, f"trade {event.goods}", bosun_may=True)
    require_phase(state, "port", "Trading Goods")
    # A goods.traded event carries a Trade line's fields, by the same names.
    line = TradeLine(**{field: getattr(event, field) for field in TradeLine.__struct_fields__})
    _check_line(p.name, line)
    state = spend_time(state, p.id, TRADE_TIME_UNITS, "trade")
    return _trade(bosun_acted(state, p.id, bosun), p.id, line)


def trade_made(state: SkullTales, event: TradeMade) -> SkullTales:
    """One Trade action, 2 Time Units in all: sales and deliveries first, into the Crew's Booty, then purchases."""
    p = active_pirate(state, event.pirate_id)
    _ship(state)
    bosun = require_captain(state, p.id, "trade at the Docks", bosun_may=True)
    require_phase(state, "port", "Trading Goods")
    for line in event.lines:
        _check_line(p.name, line)
    state = bosun_acted(spend_time(state, p.id, TRADE_TIME_UNITS, "trade"), p.id, bosun)
    for line in sorted(event.lines, key=lambda line: line.direction == "buy"):
        state = _trade(state, p.id, line)
    return state


def _check_line(name: str, line: TradeLine) -> None:
    if line.quantity <= 0:
        raise Rejection(f"{name} trades a positive number of {line.goods}, not {line.quantity}.")
    if line.goods == "Sugar" and (line.roll is None or not 1 <= line.roll <= 6):
        raise Rejection("Sugar's price is one die x 10: log the die (roll 1-6).")


def _trade(state: SkullTales, pirate_id: str, line: TradeLine) -> SkullTales:
    """One kind of Goods sold, delivered or bought through the Crew's Booty."""
    p = state.pirates[pirate_id]
    ship = _ship(state)
    price = line.roll * 10 if line.goods == "Sugar" and line.roll is not None else line.price
    doing = f"{line.direction} {line.quantity} {line.goods}"
    goods = dict(ship.goods)
    if line.direction == "buy":
        if state.options.goods_buyable == "wood_supplies_rum" and line.goods not in BUYABLE_LIMITED:
            broken(f"{p.name} cannot buy {line.goods}: the Docks sell only Wood, Supplies and Rum.")
        if not line.sellable:
            broken(f"{line.goods} cannot be bought or sold.")
        goods[line.goods] = goods.get(line.goods, 0) + line.quantity
        ship = replace(ship, goods=goods)
        _check_hold(ship, f"take {line.quantity} more {line.goods}")
        state = pay(state, "crew_booty", price * line.quantity, doing, "trade", p.name)
        return replace(state, ship=ship)
    if goods.get(line.goods, 0) < line.quantity:
        raise Rejection(f"{p.name} cannot {doing}: the Hold has {goods.get(line.goods, 0)} {line.goods}.")
    if line.direction == "sell" and not line.sellable:
        broken(f"{line.goods} cannot be sold; deliver them to the Brotherhood for the reward.")
    if line.direction == "deliver" and line.sellable:
        broken(f"{line.goods} tokens are sold, not delivered.")
    goods[line.goods] -= line.quantity
    if goods[line.goods] == 0:
        del goods[line.goods]
    state = replace(state, ship=replace(ship, goods=goods))
    to = "crew_booty"
    if line.direction == "deliver" and state.options.prisoner_reward_to == "personal":
        to = f"pirate:{p.id}"
    return move(state, "source:trade", to, price * line.quantity, doing)


def goods_gained(state: SkullTales, event: GoodsGained) -> SkullTales:
    ship = _ship(state)
    if event.quantity <= 0:
        raise Rejection(f"The crew gains a positive number of {event.goods}, not {event.quantity}.")
    ship = replace(ship, goods={**ship.goods, event.goods: ship.goods.get(event.goods, 0) + event.quantity})
    _check_hold(ship, f"take {event.quantity} {event.goods}")
    state = replace(state, ship=ship)
    if event.pirate_id is not None:
        # A Character who plunders a Goods token gains 1 Fame for it (Book III: Boardings, Plunder after boarding).
        active_pirate(state, event.pirate_id)
        state = add_fame(state, event.pirate_id, event.quantity)
    return state


def goods_spent(state: SkullTales, event: GoodsSpent) -> SkullTales:
    ship = _ship(state)
    have = ship.goods.get(event.goods, 0)
    if event.quantity <= 0 or have < event.quantity:
        raise Rejection(f"The Hold has {have} {event.goods}; it cannot spend {event.quantity}.")
    goods = {**ship.goods, event.goods: have - event.quantity}
    if goods[event.goods] == 0:
        del goods[event.goods]
    state = replace(state, ship=replace(ship, goods=goods))
    if event.goods == "Rum" and state.phase == "voyage":
        return _rum(state, event)
    if event.roll is not None:
        raise Rejection("Only a Rum token spent at sea rolls a die for Morale.")
    return state


RUM_MORALE_SETTING = "cabin_boy.voyage.rum_morale_4"


def _rum(state: SkullTales, event: GoodsSpent) -> SkullTales:
    """A Rum token at sea: "the Captain may spend a Rum token to increase Morale by the result of one die roll ...
    In addition, the Pirates recover 1 Destiny Point" (Book III: Voyage Phase, Voyage Components, Rum Token). The
    Cabin Boy setting raises Morale by 4 without a die. Every Pirate aboard recovers the point, up to the card's
    maximum, once for each token."""
    fixed = active(state.options, RUM_MORALE_SETTING)
    if event.roll is not None:
        if fixed:
            raise Rejection(
                "With the Cabin Boy setting a Rum token raises Morale by 4 without a die; leave the roll out."
            )
        if event.quantity != 1:
            raise Rejection("Each Rum token rolls its own die for Morale: log them one at a time.")
        if not 1 <= event.roll <= 6:
            raise Rejection(f"A Rum token's Morale roll is one die; {event.roll} is not a face.")
    if fixed:
        state = replace(state, morale=min(state.morale + 4 * event.quantity, morale_max(state)))
    elif event.roll is not None:
        state = replace(state, morale=min(state.morale + event.roll, morale_max(state)))
    for p in in_play(state):
        if p.status == "unconscious" and state.options.rum_destiny_to == "conscious":
            continue
        state = put(state, change(p, destiny=min(p.destiny + event.quantity, destiny_cap(p))))
    return state
