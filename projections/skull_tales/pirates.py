"""Pirates and their Record Sheets: recruiting, Fame, Wounds, Destiny Points, falling Unconscious, inventory,
Cursed, and the Port services that heal."""

from __future__ import annotations

import math

from quartermaster.events.skull_tales import (
    ApprovalGiven,
    CampaignCompleted,
    CurseGained,
    CurseRemoved,
    DestinyChanged,
    FameChanged,
    ItemGained,
    ItemGiven,
    ItemLost,
    ManorEntered,
    PenanceChosen,
    PirateRecruited,
    PirateRevived,
    PirateUnconscious,
    PortServiceBought,
    PurgeUsed,
    TimeSpent,
    WoundsChanged,
)
from quartermaster.projections.game import Rejection, broken
from msgspec.structs import replace

from quartermaster.projections.skull_tales import cards, penance, revive
from quartermaster.projections.skull_tales.booty import bosun_acted, gain_coins, lose_coins, pay, spend_time
from quartermaster.projections.skull_tales.booty import enter_manor, inside_manor, loan_spent
from quartermaster.projections.skull_tales.options import active
from quartermaster.projections.skull_tales.words import count
from quartermaster.projections.skull_tales.state import (
    ATTRIBUTES,
    Item,
    Mark,
    Pirate,
    SkullTales,
    active_pirate,
    attribute,
    change,
    destiny_cap,
    has_skill,
    in_play,
    put,
    require_ashore,
    require_phase,
)

INVENTORY_SPACES = 3  # Book I: Adventure Phase, Cards: starting gear plus 3 non-starting items
LEGENDARY_ITEMS = 5
CHARITY_COINS = 2
LUXURY_COINS = 10
PORT_UNCONSCIOUS = 5  # Book II: Port Phase, Port Components: 5 Coins and 5 Fame
PURGE_DIFFICULTY = 5  # Book II: Feats, Classes and Skills, Mystic Skills: "a Charisma 5 roll"
PURGE_FAME = 3
DESTINY_PER_WOUND = "admiral.adventure.destiny_per_wound"


def wounds_word(amount: int) -> str:
    return count(amount, "Wound")


def recruited(state: SkullTales, event: PirateRecruited) -> SkullTales:
    if event.pirate_id in state.pirates:
        raise Rejection(
            f"There is already a pirate with the id {event.pirate_id!r} ({state.pirates[event.pirate_id].name})."
        )
    if not event.classes:
        raise Rejection(f"{event.name} needs the class or classes printed on the {event.archetype} card.")
    cards.check_values(
        event,
        lambda attribute, value: f"{event.name}'s {attribute} cannot be {value}.",
        f"{event.name}'s card values (Health, Action Points, Destiny Points, Salary) are not possible.",
    )
    cards.check_recruited(state, event)
    crew = [p for p in state.pirates.values() if p.status != "retired"]
    replaced = None
    if event.replaces is not None:
        replaced = state.pirates.get(event.replaces)
        if replaced is None or replaced.status not in ("must_retire", "retired"):
            raise Rejection(f"{event.name} can only replace a retired pirate, and {event.replaces!r} has not retired.")
    # There is one card of each archetype ("12 Characters/Allies cards", Book I: Components): "If two or more players
    # want the same Pirate, the dispute must be resolved at random" (Book I: How to start). A retiring Pirate's
    # replacement may "pick the same archetype again" (Book I: Permanent Injuries and Retirement).
    for other in crew:
        if other.archetype == event.archetype and other.id != event.replaces:
            raise Rejection(
                f"{event.name} cannot be the {event.archetype}: {other.name} already plays that Character Card, and "
                "there is one of each (two players who want the same Pirate draw for it, Book I: How to start)."
            )
    for ally in state.allies.values():
        if ally.status == "hired" and ally.archetype == event.archetype:
            raise Rejection(
                f"{event.name} cannot be the {event.archetype}: that card is in play as "
                f"{state.pirates[ally.hirer].name}'s Ally."
            )
    limit = 1 if state.options.solo else 5
    others = len(crew) - (1 if replaced is not None and replaced.status != "retired" else 0)
    if others + len(hired_allies(state)) >= 5 or others >= limit:
        broken(
            f"{event.name} cannot join: there cannot be more than 5 Characters (Pirates and Allies) in play "
            f"(Book I: The Characters){' and Solo Mode has one Pirate' if state.options.solo else ''}."
        )
    # Book I: Adventure Phase, Adventure Phase Setup: the first chapter starts with the card's Destiny Points (option); a replacement starts "without
    # Coins, Fame, or Destiny Points" (Book I: Permanent Injuries and Retirement, Character Retirement).
    destiny = event.destiny_points if state.options.starting_destiny_points == "max" and replaced is None else 0
    p = Pirate(
        id=event.pirate_id,
        name=event.name,
        archetype=event.archetype,
        player=event.player,
        classes=list(event.classes),
        dominant_hand=event.dominant_hand,
        base={name: getattr(event.attributes, name) for name in ATTRIBUTES},
        action_points=event.action_points,
        health=event.health,
        destiny_max=event.destiny_points,
        salary=event.salary,
        starting_skills=list(event.skills),
        starting_gear=list(event.starting_gear),
        destiny=destiny,
        special_skill_capacity=(
            event.special_skill_capacity
            if event.special_skill_capacity is not None
            else state.options.special_skill_capacity
        ),
        campaigns_completed=event.campaigns_completed,
        replaces=event.replaces,
    )
    state = put(state, p)
    if state.options.solo and state.captain is None:
        # "In Solo Mode, you choose a Pirate as Captain" (Book I: Game Modes, Lone Pirates): the Lone Pirate is it.
        state = replace(state, captain=p.id)
    return state


def hired_allies(state: SkullTales) -> list[str]:
    return [a.id for a in state.allies.values() if a.status == "hired"]


def add_fame(state: SkullTales, pirate_id: str, amount: int) -> SkullTales:
    """Fame gained in an Adventure or a Voyage stays on the Fame Dial until the phase ends (Book I: Adventure Phase, Adventure Components; Book I: Adventure Phase, Adventure Phase Setup)."""
    p = state.pirates[pirate_id]
    if state.phase in ("adventure", "voyage"):
        state = put(state, change(p, phase_fame=p.phase_fame + amount))
        if state.phase == "adventure":
            state = replace(
                state,
                adventure_fame={**state.adventure_fame, pirate_id: state.adventure_fame.get(pirate_id, 0) + amount},
            )
        return state
    return put(state, change(p, fame=p.fame + amount))


def lose_fame(state: SkullTales, pirate_id: str, amount: int, reason: str) -> SkullTales:
    """A Fame penalty: from the Dial first, then the Record Sheet; it stops at 0 unless the option refuses it."""
    p = state.pirates[pirate_id]
    held = p.phase_fame + p.fame
    if held < amount and state.options.penalty_floor == "reject":
        broken(f"{p.name} cannot lose {amount} Fame for {reason}: {p.name} has {held}.")
    from_dial = min(p.phase_fame, amount)
    rest = min(p.fame, amount - from_dial)
    return put(state, change(p, phase_fame=p.phase_fame - from_dial, fame=p.fame - rest))


def fame_changed(state: SkullTales, event: FameChanged) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    if event.amount == 0:
        raise Rejection("A change of 0 Fame changes nothing; leave it out.")
    if not event.source:
        raise Rejection(f"Say where {p.name}'s Fame comes from (an Enemy, a Goal, a Search card, an Event...).")
    if event.amount > 0:
        if p.status == "unconscious" and state.phase == "adventure":
            broken(f"{p.name} is Unconscious and cannot gain Fame until revived.")
        state = penance.check(state, p, event.source, f"gained {event.amount} Fame for defeating an Enemy")
        return add_fame(state, p.id, event.amount)
    return lose_fame(state, p.id, -event.amount, event.source)


def wounds_changed(state: SkullTales, event: WoundsChanged) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    wounds = p.wounds + event.amount
    if wounds < 0:
        raise Rejection(f"{p.name} cannot recover {wounds_word(-event.amount)}: {p.name} has {p.wounds}.")
    if wounds > p.health:
        raise Rejection(
            f"{p.name} cannot take {wounds_word(event.amount)}: {p.name} has {p.wounds} of {p.health} Health; "
            f"at {p.health} {p.name} falls Unconscious (log pirate.unconscious)."
        )
    destiny = p.destiny
    if event.amount > 0 and state.phase == "adventure" and active(state.options, DESTINY_PER_WOUND):
        # Admiral setting: "Reduce your Destiny Points by 1 per Wound inflicted to your Pirate" (Appendix II:
        # Admiral Mode and Cabin Boy Mode, Admiral Mode, Adventure Phase); none below 0.
        destiny = max(destiny - event.amount, 0)
    state = put(state, change(p, wounds=wounds, destiny=destiny))
    if event.amount > 0 and wounds == p.health and state.phase in ("port", "voyage"):
        # "if your Pirate falls Unconscious during the Port Phase due to receiving the last Wound ... you immediately
        # lose 5 Coins and 5 Fame" (Book II: Port Phase, Port Components); at sea "if your Character falls
        # Unconscious due to ... suffering as many Wounds as you can, you will lose all accumulated Destiny Points"
        # (Book III: Voyage Phase, Unconscious / Incapacitated). Nothing is chosen there, so it follows by itself;
        # in an Adventure the random item lost is named with `pirate.unconscious`.
        return unconscious(state, PirateUnconscious(pirate_id=p.id))
    return state


def destiny_changed(state: SkullTales, event: DestinyChanged) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    cap = destiny_cap(p)
    destiny = p.destiny + event.amount
    if destiny < 0:
        raise Rejection(f"{p.name} cannot spend {count(-event.amount, 'Destiny Point')}: {p.name} has {p.destiny}.")
    if destiny > cap:
        # Book I: The Characters, Pirates: a Pirate may not collect more than the card shows; extra gains are lost, not refused.
        destiny = cap
    if event.plus_one:
        if event.amount != -1:
            raise Rejection(f"{p.name} spends exactly one Destiny Point for +1 to each die of a roll.")
        state = replace(state, plus_one=[*state.plus_one, p.id])
    return put(state, change(state.pirates[p.id], destiny=destiny))


def unconscious(state: SkullTales, event: PirateUnconscious) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    if p.status == "unconscious":
        raise Rejection(f"{p.name} is already Unconscious.")
    if state.phase == "port" and p.port_unconscious:
        raise Rejection(f"{p.name} was already carried aboard Unconscious; their Port Phase is over.")
    if state.phase == "adventure":
        # Book I: Character and Enemy States, Unconscious: lose all the Fame gained during the Adventure, one random non-starting Gear or Legendary item.
        items = p.items
        if event.lost_item is not None:
            items = without_item(p, event.lost_item, "lose")
        elif any(not item.equipped or item.kind == "legendary" for item in p.items):
            raise Rejection(
                f"{p.name} falls Unconscious and must lose one random non-starting Gear card or Legendary item: "
                f"name it (lost_item) from {', '.join(i.name for i in p.items)}."
            )
        state = put(state, change(p, phase_fame=0, status="unconscious", items=items, wounds=p.health))
        state = replace(state, adventure_fame={**state.adventure_fame, p.id: 0})
        return _drop_legendary(state, p, event.lost_item)
    if state.phase == "port":
        # Book II: Port Phase, Port Components: lose 5 Coins and 5 Fame, discard all Time Units, back on the ship. Admiral doubles it.
        double = active(state.options, "admiral.port.unconscious_double")
        fame = PORT_UNCONSCIOUS * (2 if double else 1)
        coins = PORT_UNCONSCIOUS * (2 if double and state.options.admiral_unconscious_doubles_coins else 1)
        state = lose_coins(state, p.id, coins, "unconscious", "falling Unconscious in Port")
        state = lose_fame(state, p.id, fame, "falling Unconscious in Port")
        return put(state, change(state.pirates[p.id], time_units=0, wounds=p.health, port_unconscious=True))
    if state.phase == "voyage":
        # Book III: Voyage Phase, Unconscious / Incapacitated: lose all accumulated Destiny Points, to the Sickbay; half Fame when the Voyage ends (Book III: End of the Voyage Phase).
        return put(state, change(p, destiny=0, status="unconscious", voyage_unconscious=True, wounds=p.health))
    raise Rejection(f"{p.name} can only fall Unconscious during a phase.")


def _drop_legendary(state: SkullTales, p: Pirate, item: str | None) -> SkullTales:
    if item is not None and state.legendary.get(item) == p.id:
        legendary = {k: v for k, v in state.legendary.items() if k != item}
        return replace(state, legendary=legendary)
    return state


def revived(state: SkullTales, event: PirateRevived) -> SkullTales:
    """Who revives whom, and what the reviver gains, are Revive's rules (projections/skull_tales/revive.py)."""
    return revive.revive(state, event)


def spaces_used(items: list[Item]) -> int:
    """Half spaces used: Rum and Brew take half a space; Equipped gear takes none (Book I: Adventure Phase, Cards)."""
    return sum(0 if i.equipped else (1 if i.half_space else 2) for i in items)


def inventory_limit(state: SkullTales) -> int:
    extra = 1 if active(state.options, "cabin_boy.adventure.card_limit_plus_1") else 0
    return (INVENTORY_SPACES + extra) * 2


def without_item(p: Pirate, name: str, doing: str) -> list[Item]:
    for index, item in enumerate(p.items):
        if item.name == name:
            return p.items[:index] + p.items[index + 1 :]
    if name in p.starting_gear:
        raise Rejection(f"{p.name} cannot {doing} {name}: it is starting gear, which always stays with its owner.")
    held = ", ".join(i.name for i in p.items) or "nothing"
    raise Rejection(f"{p.name} does not carry {name}; {p.name}'s Record Sheet lists {held}.")


def take_item(state: SkullTales, p: Pirate, item: Item) -> SkullTales:
    items = [*p.items, item]
    if spaces_used(items) > inventory_limit(state):
        held = ", ".join(i.name for i in p.items)
        broken(
            f"{p.name} cannot carry {item.name}: {p.name} already carries {held}, and there is room for starting "
            f"gear plus {count(inventory_limit(state) // 2, 'item')} (Rum and Brew take half a space)."
        )
    if item.kind == "legendary":
        holder = state.legendary.get(item.name)
        if holder is not None:
            raise Rejection(f"There is only one {item.name}, and {state.pirates[holder].name} holds it.")
        if len(state.legendary) >= LEGENDARY_ITEMS:
            raise Rejection(f"All {LEGENDARY_ITEMS} Legendary items are already held; {item.name} cannot be a sixth.")
        state = replace(state, legendary={**state.legendary, item.name: p.id})
    return put(state, change(p, items=items))


def gear_price(state: SkullTales, p: Pirate, event: ItemGained) -> int:
    """What a Gear card bought in Port costs: its cost, plus half from the Black Market ("a dagger priced at 15
    Coins, you must pay 23", Book II: Locations, Market Square), halved for a Grifter ("The Coins cost of Gear cards
    and Allies is reduced by half", Book II: Rogue Skills), both rounded up (Book I: How to start); then the Admiral
    setting's 5 Coins on "any personal item on the island"."""
    price = event.price
    if event.black_market:
        price = math.ceil(price * 3 / 2)
    if has_skill(p, "Grifter") and event.kind == "gear":
        price = math.ceil(price / 2)
    return price + (5 if active(state.options, "admiral.port.personal_items_plus_5") else 0)


def item_gained(state: SkullTales, event: ItemGained) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    price = 0
    if event.black_market and not event.price:
        raise Rejection(f"A Black Market card is bought: give {event.item}'s Coins cost (price).")
    if event.price:
        require_phase(state, "port", f"Buying {event.item}")
        require_ashore(state, p, f"buy {event.item}")
        price = gear_price(state, p, event)
    # What the item is worth, for Haggle: what was paid for it, else its card's price.
    value = price or (event.value or 0)
    item = Item(name=event.item, kind=event.kind, half_space=event.half_space, equipped=event.equipped, value=value)
    state = cards.gear_priced(take_item(state, p, item), event)
    if price:
        state = loan_spent(state, "market", price, p.id)
        state = pay(state, f"pirate:{p.id}", price, f"buy {event.item}", "gear", p.name)
    return state


def item_lost(state: SkullTales, event: ItemLost) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    items = without_item(p, event.item, "lose")
    item = next(i for i in p.items if i.name == event.item)
    state = put(state, change(p, items=items))
    state = _drop_legendary(state, p, event.item)
    if event.haggled:
        return _haggled(state, p, item, event)
    if event.value is not None:
        raise Rejection(f"An item's value matters only when it is sold with Haggle; say `haggled` to sell {item.name}.")
    if event.sold_for:
        require_phase(state, "port", f"Selling {event.item}")
        state = gain_coins(state, p.id, event.sold_for, "sale", f"sold {event.item}")
    return state


def _haggled(state: SkullTales, p: Pirate, item: Item, event: ItemLost) -> SkullTales:
    """Haggle: "You can also sell non-starting gear at half its value" (Book II: Locations, Market Square)."""
    require_phase(state, "port", f"Selling {item.name} with Haggle")
    if event.sold_for:
        raise Rejection(f"A sale with Haggle brings half of {item.name}'s value; leave `sold_for` out.")
    if item.kind != "gear":
        what = "a Legendary item" if item.kind == "legendary" else "an Item token"
        broken(f"{p.name} cannot sell {item.name} with Haggle: it is {what}, not a Gear card.")
    worth = item.value or event.value
    if not worth:
        raise Rejection(
            f"What {item.name} is worth is not on {p.name}'s Record Sheet: give its card's price (value) to sell it."
        )
    # Half its value, rounded up: "In any situation where rounding is necessary, always round up" (How to start).
    return gain_coins(state, p.id, math.ceil(worth / 2), "sale", f"sold {item.name} with Haggle")


def item_given(state: SkullTales, event: ItemGiven) -> SkullTales:
    giver = active_pirate(state, event.from_pirate)
    taker = active_pirate(state, event.to_pirate)
    items = without_item(giver, event.item, "give")
    item = next(i for i in giver.items if i.name == event.item)
    state = put(state, change(giver, items=items))
    state = _drop_legendary(state, giver, event.item)
    return take_item(state, state.pirates[taker.id], item)


def curse_gained(state: SkullTales, event: CurseGained) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    if p.cursed:
        raise Rejection(f"{p.name} is already Cursed.")
    return put(state, change(p, cursed=True))


def penance_chosen(state: SkullTales, event: PenanceChosen) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Atonement at the Chapel")
    if not p.cursed:
        broken(f"{p.name} is not Cursed and has nothing to atone for.")
    if p.penance is not None and p.penance_broken is None:
        broken(f"{p.name} is already doing {penance.title(p.penance)}.")
    state = spend_time(state, p.id, 1, "seek Atonement")
    cost = penance.PENANCES[event.penance]
    state = pay(state, f"pirate:{p.id}", cost, f"do {penance.title(event.penance)}", "penance", p.name)
    # A broken penance is done with: a new one is chosen and paid for from the start.
    return put(
        state,
        change(
            state.pirates[p.id],
            penance=event.penance,
            penance_serial=state.phase_serial,
            penance_done=False,
            penance_broken=None,
        ),
    )


def curse_removed(state: SkullTales, event: CurseRemoved) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    if not p.cursed:
        raise Rejection(f"{p.name} is not Cursed.")
    if event.by == "atonement":
        require_phase(state, "port", "Lifting a Curse by Atonement")
        if p.penance is None or p.penance_serial >= state.phase_serial:
            broken(
                f"{p.name} must first choose a penance and fulfil it in the next Adventure, then return to the "
                "Chapel in a later Port Phase."
            )
        if p.penance is not None and p.penance_broken is not None:
            # "if you fulfill it to the letter, return to the Chapel" (Book II: Locations, Saint Telmo's Chapel): a broken penance lifts nothing.
            broken(
                f"{p.name} broke {penance.title(p.penance)}: {p.name} {p.penance_broken} in the Adventure after "
                f"choosing it, so the Chapel does not lift the Curse; {p.name} may choose a new penance."
            )
        if p.penance is not None and not p.penance_done:
            broken(
                f"{p.name} has not yet played the Adventure that fulfils {penance.title(p.penance)}; the Chapel "
                "lifts the Curse in the Port Phase after it."
            )
        return put(state, change(p, cursed=False, penance=None, penance_serial=0, penance_done=False))
    # Purge is now logged as `purge.used` with its die; this form replays campaigns recorded before, read as a
    # successful Purge whose roll was not logged. It still counts as that Voyage's one Purge.
    require_phase(state, "voyage", "Lifting a Curse with Purge")
    if event.purger_id is None:
        raise Rejection("Name the Mystic who used Purge.")
    purger = _purger(state, event.purger_id)
    return _purge(state, purger, p)


def _purger(state: SkullTales, pirate_id: str) -> Pirate:
    purger = active_pirate(state, pirate_id)
    if not has_skill(purger, "Purge"):
        broken(f"{purger.name} does not know Purge.")
    if purger.id in state.purged:
        broken(
            f"{purger.name} has already used Purge in this Voyage Phase; it is used once per Voyage Phase (Book II: Feats, Classes and Skills, Mystic Skills)."
        )
    return purger


def _purge(state: SkullTales, purger: Pirate, cursed: Pirate) -> SkullTales:
    """A successful Purge: the Cursed Pirate loses that state (a penance under way has nothing left to atone)."""
    state = put(
        state, change(cursed, cursed=False, penance=None, penance_serial=0, penance_done=False, penance_broken=None)
    )
    state = replace(state, purged=[*state.purged, purger.id])
    return add_fame(state, purger.id, PURGE_FAME)


def purge_used(state: SkullTales, event: PurgeUsed) -> SkullTales:
    """Once per Voyage Phase a Charisma 5 roll: one die plus Charisma, +1 for a Destiny Point spent (Book II: Feats, Classes and Skills, Mystic Skills; Book I: Dice Rolls, Charisma rolls)."""
    purger = active_pirate(state, event.pirate_id)
    require_phase(state, "voyage", f"{purger.name}'s Purge")
    purger = _purger(state, purger.id)
    if not 1 <= event.roll <= 6:
        raise Rejection(f"{purger.name}'s Purge is a Charisma roll on one die; {event.roll} is not a face.")
    cursed = None
    if event.cursed_id is not None:
        cursed = active_pirate(state, event.cursed_id)
        if not cursed.cursed:
            raise Rejection(f"{purger.name} cannot Purge {cursed.name}: {cursed.name} is not Cursed.")
    elif not any(o.cursed for o in in_play(state)):
        raise Rejection(f"{purger.name} has nobody to Purge: no Pirate of the crew is Cursed.")
    destiny = purger.id in state.plus_one
    total = attribute(purger, "charisma") + event.roll + (1 if destiny else 0)
    passed = total > PURGE_DIFFICULTY or (state.options.charisma_difficulty == "meet" and total == PURGE_DIFFICULTY)
    if destiny:
        state = replace(state, plus_one=[c for c in state.plus_one if c != purger.id])
    if not passed:
        # A failed roll still spends the Voyage's Purge.
        return replace(state, purged=[*state.purged, purger.id])
    if cursed is None:
        names = ", ".join(o.name for o in in_play(state) if o.cursed)
        raise Rejection(
            f"{purger.name}'s Purge succeeds with {total} against Charisma {PURGE_DIFFICULTY}: name the Cursed "
            f"Pirate it frees (cursed_id) from {names}."
        )
    return _purge(state, purger, state.pirates[cursed.id])


def port_service(state: SkullTales, event: PortServiceBought) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Healing in Port")
    recover = state.options.port_destiny_discard == "recover"
    if event.service == "charity":
        # Chapel: 1 Time Unit and 2 Coins to "discard 1 Destiny Point or recover 1 Wound".
        if (event.wounds, event.destiny) not in ((1, 0), (0, 1)) or event.times != 1:
            broken(f"Charity gives {p.name} either 1 Wound recovered or 1 Destiny Point, once per visit.")
        state = spend_time(state, p.id, 1, "give to Charity")
        state = pay(state, f"pirate:{p.id}", CHARITY_COINS, "give to Charity", "charity", p.name)
    elif event.service == "rest":
        bosun = state.captain != p.id and state.captain is not None and has_skill(p, "Bosun")
        if state.captain != p.id and not bosun:
            broken(f"{p.name} cannot Rest at the Docks: only the Captain can.")
        # A Bosun may Rest as the Captain does, and gains 1 Fame for it (Book II: Scholar Skills, Bosun).
        state = bosun_acted(state, p.id, bosun)
        # Per Time Unit: 1 Wound and 1 Destiny Point, 2 Destiny Points, or 2 Wounds.
        if event.times < 1 or event.wounds + event.destiny != 2 * event.times:
            broken(
                f"Each Time Unit of Rest gives {p.name} two of Wounds and Destiny Points together "
                f"({event.times} Time Unit{'s give' if event.times != 1 else ' gives'} {2 * event.times})."
            )
        state = spend_time(state, p.id, event.times, "Rest")
    else:
        # Manor: 10 Coins and 1 Time Unit, all Wounds and all Destiny Points.
        state = inside_manor(state, p.id)
        if event.times != 1:
            broken("Luxury Treatment is taken once per visit.")
        state = spend_time(state, p.id, 1, "take the Luxury Treatment")
        state = pay(state, f"pirate:{p.id}", LUXURY_COINS, "take the Luxury Treatment", "luxury_treatment", p.name)
        p = state.pirates[p.id]
        cap = destiny_cap(p)
        destiny = cap if recover else 0
        return put(state, change(p, wounds=0, destiny=destiny))
    p = state.pirates[p.id]
    if event.wounds > p.wounds:
        raise Rejection(f"{p.name} cannot recover {wounds_word(event.wounds)}: {p.name} has {p.wounds}.")
    destiny = min(p.destiny + event.destiny, destiny_cap(p)) if recover else max(p.destiny - event.destiny, 0)
    return put(state, change(p, wounds=p.wounds - event.wounds, destiny=destiny))


def manor_entered(state: SkullTales, event: ManorEntered) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Entering Madame Claude's Manor")
    require_ashore(state, p, "enter Madame Claude's Manor")
    return enter_manor(state, p.id)


def time_spent(state: SkullTales, event: TimeSpent) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Spending Time Units")
    if event.amount <= 0:
        raise Rejection(f"{p.name} spends a positive number of Time Units, not {event.amount}.")
    return spend_time(state, p.id, event.amount, event.purpose or "move")


def approval_given(state: SkullTales, event: ApprovalGiven) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", f"{event.master}'s {event.kind.capitalize()}")
    mark = Mark(kind=event.kind, permanent=event.permanent)
    before = p.approvals.get(event.master)
    # Disapproval prevails over Approval (Book II: Port Phase, Port Components), unless the Cabin Boy setting lets a later Approval win.
    if before is not None and before.kind == "disapproval" and event.kind == "approval":
        if not active(state.options, "cabin_boy.port.approval_prevails"):
            return state
    return put(state, change(p, approvals={**p.approvals, event.master: mark}))


def campaign_completed(state: SkullTales, event: CampaignCompleted) -> SkullTales:
    for p in state.pirates.values():
        if p.status != "retired":
            state = put(state, change(p, campaigns_completed=p.campaigns_completed + 1))
    return replace(state, campaigns_completed=state.campaigns_completed + 1)
