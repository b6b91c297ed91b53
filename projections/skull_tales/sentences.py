"""Skull Tales events told in the game's words: "Jack learned Fencing from Anne for 85 Coins and 60 Fame."

Each function reads the event and the state it was folded in (the state before it), to name pirates and allies
rather than show their ids. `SENTENCES` covers every event type a Skull Tales campaign accepts.
"""

from __future__ import annotations

from collections.abc import Callable

from quartermaster.events import skull_tales as ev
from quartermaster.events.base import Event
from quartermaster.projections.sentences import Sentence, Wording, common, given, listing, said
from quartermaster.projections.skull_tales import port, skills
from quartermaster.projections.skull_tales.charges import (
    MANOR_SERVICES,
    charged,
    entering_the_manor,
    from_crew,
    manor_free,
    price_words,
)
from quartermaster.projections.skull_tales.options import active
from quartermaster.projections.skull_tales.state import SkullTales, has_skill
from quartermaster.projections.skull_tales.words import count

TITLE = "Skull Tales: Full Sail!"


def name(state: SkullTales | None, character_id: str | None) -> str:
    """A pirate's name, or an ally as "Anne's Bosun"; the id only when the state does not know them (yet)."""
    if not character_id:
        return "someone"
    if state is None:
        return character_id
    pirate = state.pirates.get(character_id)
    if pirate is not None:
        return pirate.name
    ally = state.allies.get(character_id)
    if ally is not None:
        return f"{name(state, ally.hirer)}'s {ally.archetype}"
    if character_id == "crew_booty":
        return "the Crew's Booty"
    return character_id


def coins(amount: int) -> str:
    return count(amount, "Coin")


def _signed(amount: int, noun: str, gained: str = "gained", lost: str = "lost") -> str:
    return f"{gained if amount >= 0 else lost} {count(abs(amount), noun)}"


def _why(reason: str) -> str:
    return f" ({reason.replace('_', ' ')})" if reason else ""


def _signed_as(noun: str, gained: str = "gained", lost: str = "lost") -> Callable[[int], str]:
    """`_signed` as the words of an amount in a wording."""
    return lambda amount: _signed(amount, noun, gained, lost)


# Whose Coins paid, as a sentence says it: nothing for the Pirate's own.
_FROM = {"personal": "", "crew_booty": " from the Crew's Booty"}


def _phase(phase: str) -> str:
    return f"{phase.capitalize()} Phase"


# --- pirates and record sheets ---------------------------------------------------------------------------------


def fame_changed(state: SkullTales, event: ev.FameChanged) -> str:
    return f"{name(state, event.pirate_id)} {_signed(event.amount, 'Fame')}{_why(event.source)}.".replace(
        " Fames", " Fame"
    )


def coins_changed(state: SkullTales, event: ev.CoinsChanged) -> str:
    who = name(state, event.pirate_id or event.ally_id) if (event.pirate_id or event.ally_id) else "The crew"
    return f"{who} {_signed(event.amount, 'Coin', 'found', 'lost')}{_why(event.source)}."


def coins_given(state: SkullTales, event: ev.CoinsGiven) -> str:
    to = "the Crew's Booty" if event.to == "crew_booty" else name(state, event.to)
    return f"{name(state, event.from_pirate)} gave {coins(event.amount)} to {to}."


def pirate_revived(state: SkullTales, event: ev.PirateRevived) -> str:
    if event.single_wound:
        return f"{name(state, event.pirate_id)} left the Sickbay, one Wound the better."
    if event.reviver_id:
        return f"{name(state, event.reviver_id)} revived {name(state, event.pirate_id)}."
    return f"{name(state, event.pirate_id)} was revived."


def curse_removed(state: SkullTales, event: ev.CurseRemoved) -> str:
    if event.by == "purge":
        by = f" by {name(state, event.purger_id)}'s Purge" if event.purger_id else " by a Purge"
    else:
        by = " by Atonement"
    return f"{name(state, event.pirate_id)}'s Curse was lifted{by}."


def item_gained(state: SkullTales, event: ev.ItemGained) -> str:
    told = f"{name(state, event.pirate_id)} {'bought' if event.price else 'gained'} the {event.item}"
    if not event.price:
        return told + "."
    charge = charged(state, event)
    paid = charge.coins if charge is not None else event.price
    why = []
    if paid != event.price:
        if event.black_market:
            why.append("half again on the Black Market")
        pirate = state.pirates.get(event.pirate_id)
        if pirate is not None and event.kind == "gear" and has_skill(pirate, "Grifter"):
            why.append("halved for a Grifter")
        if active(state.options, "admiral.port.personal_items_plus_5"):
            why.append("5 more for the Admiral setting")
    reason = f" (its price of {coins(event.price)}, {listing(why)})" if why else ""
    return told + f" for {coins(paid)}{reason}."


def item_lost(state: SkullTales, event: ev.ItemLost) -> str:
    if event.haggled:
        held = next((i for i in state.pirates[event.pirate_id].items if i.name == event.item), None)
        worth = (held.value if held is not None else 0) or event.value or 0
        return (
            f"{name(state, event.pirate_id)} sold the {event.item} with Haggle for "
            f"{coins(worth - worth // 2)}, half its value."
        )
    if event.sold_for:
        return f"{name(state, event.pirate_id)} sold the {event.item} for {coins(event.sold_for)}."
    return f"{name(state, event.pirate_id)} lost the {event.item}."


_SERVICES = {
    "charity": "Charity at the Chapel",
    "rest": "Rest at the Docks",
    "luxury_treatment": "a Luxury Treatment at the Manor",
}


def port_service_bought(state: SkullTales, event: ev.PortServiceBought) -> str:
    told = f"{name(state, event.pirate_id)} took {_SERVICES[event.service]}"
    if event.times > 1:
        told += f" {event.times} times"
    charge = charged(state, event)
    if charge is not None:
        told += f" for {price_words(charge, event.pirate_id)}"
    if event.wounds:
        told += f", recovering {count(event.wounds, 'Wound')}"
    return told + "."


def manor_entered(state: SkullTales, event: ev.ManorEntered) -> str:
    who = name(state, event.pirate_id)
    charge = charged(state, event)
    if charge is None:
        return f"{who} entered the Manor."
    if not charge.coins:
        return f"{who} entered the Manor free ({manor_free(state, event.pirate_id)})."
    doubled = " (doubled by the Admiral setting)" if active(state.options, "admiral.port.manor_double") else ""
    return f"{who} entered the Manor, paying its entry fee of {coins(charge.coins)}{doubled}."


def loan_taken(state: SkullTales, event: ev.LoanTaken) -> str:
    where = {"manor": "at the Manor", "market": "at the Market", "ship": "for the ship"}[event.lender]
    told = f"{name(state, event.pirate_id)} borrowed {coins(event.amount)} from Monsieur Fontaine {where}"
    charge = charged(state, event)
    if charge is not None and event.lender == "manor":
        told += f" for {price_words(charge, event.pirate_id)}"
    owed = -(-event.amount * 6 // 5)
    return told + f", and owes {coins(owed)} (6 for every 5 borrowed)."


def loan_repaid(state: SkullTales, event: ev.LoanRepaid) -> str:
    told = f"{name(state, event.pirate_id)} repaid {coins(event.amount)} to Monsieur Fontaine{_FROM[event.paid_from]}"
    charge = charged(state, event)
    if charge is not None and charge.time_units.get(event.pirate_id):
        told += f", spending {count(charge.time_units[event.pirate_id], 'Time Unit')}"
    return told + "."


def _hired_for(state: SkullTales, event: ev.AllyHired | ev.AllyUpkeepPaid, payer: str) -> str:
    charge = charged(state, event)
    if charge is None:
        return ""
    return f" for {price_words(charge, payer)}{from_crew(charge)}"


def ally_hired(state: SkullTales, event: ev.AllyHired) -> str:
    told = f"{name(state, event.pirate_id)} hired a {event.archetype} at the Tavern"
    return told + f"{_hired_for(state, event, event.pirate_id) or _FROM[event.paid_from]}."


def ally_upkeep_paid(state: SkullTales, event: ev.AllyUpkeepPaid) -> str:
    ally = state.allies.get(event.ally_id) if state is not None else None
    payer = ally.hirer if ally is not None else ""
    return f"{name(state, event.ally_id)} was paid{_hired_for(state, event, payer) or _FROM[event.paid_from]}."


def salary_collected(state: SkullTales, event: ev.SalaryCollected) -> str:
    who = name(state, event.pirate_id)
    charge = charged(state, event)
    if charge is None:
        return f"{who} collected a Salary at the Docks."
    told = f"{who} collected a Salary of {coins(charge.gained.get(f'pirate:{event.pirate_id}', 0))} at the Docks"
    if charge.gained.get("crew_booty"):
        told += f", and {coins(charge.gained['crew_booty'])} for the Crew's Booty"
    if charge.coins:
        told += f"; {coins(charge.coins)} of it paid what {who} owed"
    return told + "."


def prosthesis_bought(state: SkullTales, event: ev.ProsthesisBought) -> str:
    told = f"{name(state, event.pirate_id)} bought a {event.prosthesis.replace('_', ' ')}"
    charge = charged(state, event)
    return told + (f" for {price_words(charge, event.pirate_id)}." if charge is not None else ".")


def penance_chosen(state: SkullTales, event: ev.PenanceChosen) -> str:
    told = f"{name(state, event.pirate_id)} took the {event.penance.capitalize()} penance at the Chapel"
    charge = charged(state, event)
    return told + (f" for {price_words(charge, event.pirate_id)}." if charge is not None else ".")


def pirate_unconscious(state: SkullTales, event: ev.PirateUnconscious) -> str:
    told = f"{name(state, event.pirate_id)} fell Unconscious"
    if event.lost_item:
        told += f" and lost the {event.lost_item}"
    charge = charged(state, event)
    if charge is not None and state.phase == "port" and (charge.coins or charge.fame.get(event.pirate_id)):
        told += f", losing {price_words(charge, event.pirate_id)} (Unconscious in Port)"
    return told + "."


def pirate_boarded(state: SkullTales, event: ev.PirateBoarded) -> str:
    told = f"{name(state, event.pirate_id)} boarded the Pirate Ship"
    charge = charged(state, event)
    if charge is not None and charge.fame.get(event.pirate_id):
        return told + f" late, losing {charge.fame[event.pirate_id]} Fame."
    return told + (" late." if event.late else ".")


# --- skills and feats ---------------------------------------------------------------------------------------------


def skill_learned(state: SkullTales, event: ev.SkillLearned) -> str:
    who = name(state, event.pirate_id)
    teacher = name(state, event.master_id) if event.master_id else event.teacher
    if event.free:
        return f"{who} learned {event.skill} from {teacher} for free."
    pirate = state.pirates.get(event.pirate_id) if state is not None else None
    if pirate is None:
        return f"{who} learned {event.skill} from {teacher}."
    # The price the fold charges, discounts included: the sentence tells what the table paid.
    cost, _ = skills.price(state, pirate, event)
    return f"{who} learned {event.skill} from {teacher} for {coins(cost.coins)} and {cost.fame} Fame."


def assignment_resolved(state: SkullTales, event: ev.AssignmentResolved) -> str:
    assignment = state.assignment.name if state is not None and state.assignment is not None else "The Assignment"
    told = f"{assignment} {'succeeded' if event.success else 'failed'}"
    gains = [
        part for part in (coins(event.coins) if event.coins else "", f"{event.fame} Fame" if event.fame else "") if part
    ]
    if gains:
        told += f": {listing(gains)} for {name(state, event.pirate_id)}"
    return told + "."


# --- captaincy ----------------------------------------------------------------------------------------------------


def mutiny_resolved(state: SkullTales, event: ev.MutinyResolved) -> str:
    bids = listing([f"{name(state, who)} {count(amount, 'coin')}" for who, amount in event.bids.items()])
    told = f"{name(state, event.instigator)} led a Mutiny; the sealed bids were {bids}"
    charge = charged(state, event)
    if charge is not None and charge.coins:
        told += f", and the bidders paid {coins(charge.coins)} for them (10 Coins a coin)"
    return told + "."


def command_issued(state: SkullTales, event: ev.CommandIssued) -> str:
    captain = name(state, state.captain) if state is not None and state.captain else "The Captain"
    told = f"{captain} used {count(event.points, 'Command Point')}"
    if event.quarterdeck_id:
        told += f", with {name(state, event.quarterdeck_id)} on the Quarterdeck"
    return told + "."


# --- ship, crew, hold -----------------------------------------------------------------------------------------------


def ship_upgraded(state: SkullTales, event: ev.ShipUpgraded) -> str:
    what = f"{event.upgrade} ({event.ammunition})" if event.ammunition else event.upgrade
    charge = charged(state, event)
    if charge is None:
        return f"{name(state, event.pirate_id)} fitted the ship with {what} for {coins(event.cost)}."
    why = ""
    if charge.coins != event.cost and active(state.options, "admiral.port.upgrade_plus_20"):
        why = f" (its {coins(event.cost)} and 20 more for the Admiral setting)"
    return (
        f"{name(state, event.pirate_id)} fitted the ship with {what} for {coins(charge.coins)}{from_crew(charge)}{why}."
    )


def ship_bought(state: SkullTales, event: ev.ShipBought) -> str:
    called = f" the {event.name}" if event.name else ""
    charge = charged(state, event)
    paid = f"{coins(charge.coins)}{from_crew(charge)}" if charge is not None else coins(event.price)
    return f"{name(state, event.pirate_id)} bought a {event.ship_type}{called} for {paid}."


def group_hired(state: SkullTales, event: ev.GroupHired) -> str:
    charge = charged(state, event)
    paid = f"{coins(charge.coins)}{from_crew(charge)}" if charge is not None else coins(event.cost)
    return f"{name(state, event.pirate_id)} hired a Group of Pirates for {paid}."


def _sails_and_hold(event: ev.ShipDamaged | ev.ShipRepaired) -> str:
    """ "1 sail and 2 Hold Impacts", "1 sail", or nothing when neither is touched."""
    touched = (
        count(event.sails, "sail") if event.sails else "",
        count(event.hold, "Hold Impact") if event.hold else "",
    )
    return listing([part for part in touched if part])


def ship_damaged(state: SkullTales, event: ev.ShipDamaged) -> str:
    return f"The ship was hit: {_sails_and_hold(event) or 'no damage'}."


def ship_repaired(state: SkullTales, event: ev.ShipRepaired) -> str:
    told = f"{name(state, event.pirate_id)} had the ship repaired: {_sails_and_hold(event) or 'nothing'}"
    charge = charged(state, event)
    if charge is None or not charge.coins:
        return told + "."
    return told + f", for {coins(charge.coins)}{from_crew(charge)} (50 a sail, 25 a Hold Impact)."


def _traded_for(state: SkullTales, event: ev.GoodsTraded | ev.TradeMade) -> str:
    charge = charged(state, event)
    if charge is None:
        return ""
    parts = []
    if charge.gained.get("crew_booty"):
        parts.append(f"{coins(charge.gained['crew_booty'])} into the Crew's Booty")
    if charge.coins:
        parts.append(f"{coins(charge.coins)} paid{from_crew(charge)}")
    return f" ({listing(parts)})" if parts else ""


def goods_traded(state: SkullTales, event: ev.GoodsTraded) -> str:
    verb = {"buy": "bought", "sell": "sold", "deliver": "delivered"}[event.direction]
    told = f"{name(state, event.pirate_id)} {verb} {event.quantity} {event.goods}"
    if event.direction != "deliver" or event.price:
        told += f" at {coins(event.price)} each"
    return told + f"{_traded_for(state, event)}."


def trade_made(state: SkullTales, event: ev.TradeMade) -> str:
    verbs = {"buy": "bought", "sell": "sold", "deliver": "delivered"}
    parts = []
    for direction in ("sell", "deliver", "buy"):
        lines = [f"{line.quantity} {line.goods}" for line in event.lines if line.direction == direction]
        if lines:
            parts.append(f"{verbs[direction]} {listing(lines)}")
    return f"{name(state, event.pirate_id)} traded at the Docks: {'; '.join(parts)}{_traded_for(state, event)}."


def story_told(state: SkullTales, event: ev.StoryTold) -> str:
    total = port.story_total(state, event)
    fame = port.story_fame(state, total)
    spent = f", spending {coins(event.coins)}," if event.coins else ""
    gained = f"and gained {fame} Fame" if fame else "and gained no Fame"
    return (
        f"{name(state, event.pirate_id)} told a story at the Tavern{spent} with a final result of {total} "
        f"against {port.STORY_DIFFICULTY} {gained}."
    )


def goods_gained(state: SkullTales, event: ev.GoodsGained) -> str:
    who = name(state, event.pirate_id) if event.pirate_id else "The crew"
    return f"{who} took {event.quantity} {event.goods} into the Hold{_why(event.source)}."


def goods_spent(state: SkullTales, event: ev.GoodsSpent) -> str:
    told = f"The crew used {event.quantity} {event.goods}{f' for {event.purpose}' if event.purpose else ''}"
    if event.roll is not None:
        told += f", rolling a {event.roll} for Morale"
    return told + "."


# --- chapters and phases ------------------------------------------------------------------------------------------


def chapter_started(state: SkullTales, event: ev.ChapterStarted) -> str:
    titled = event.title and event.title != f"Chapter {event.number}"
    return f"Chapter {event.number}{f', {event.title},' if titled else ''} began."


def phase_started(state: SkullTales, event: ev.PhaseStarted) -> str:
    if event.allies:
        return f"The {_phase(event.phase)} began, with {', '.join(name(state, a) for a in event.allies)}."
    charge = charged(state, event) if event.phase == "port" else None
    if charge is None or not charge.moved:
        return f"The {_phase(event.phase)} began."
    # The Port's setup pays the compensations (Book II: Port Phase, Setup): who paid what, to whom, and why.
    paid = [
        f"{name(state, source.partition(':')[2])} paid {coins(amount)}"
        + ("" if to.startswith("sink:") else f" to {name(state, to.partition(':')[2])}")
        + f" ({reason})"
        for source, to, amount, reason in charge.moved
        if source.startswith("pirate:")
    ]
    return f"The {_phase(event.phase)} began: {listing(paid)}." if paid else f"The {_phase(event.phase)} began."


def ally_loyalty_rolled(state: SkullTales, event: ev.AllyLoyaltyRolled) -> str:
    stays = "stays" if event.hirer_roll > event.ally_roll else "leaves"
    return f"{name(state, event.ally_id)}'s loyalty: {event.hirer_roll} against {event.ally_roll}; the Ally {stays}."


def scheme_resolved(state: SkullTales, event: ev.SchemeResolved) -> str:
    who = name(state, event.pirate_id)
    if event.coin is None:
        return f"{who} schemed with an empty hand."
    return f"{who} schemed with a {event.coin} coin" + (
        f"; the Guard held a {event.guard} coin." if event.guard else "."
    )


def ally_scheme_resolved(state: SkullTales, event: ev.AllySchemeResolved) -> str:
    schemer = name(state, event.ally_id)
    if event.guard is None:
        return f"{schemer} schemed in the Cabins with nobody on Guard and got away with it."
    guard = "a Group of Pirates" if event.guard == "group" else name(state, event.guard)
    return f"{schemer} schemed in the Cabins against {guard} on Guard (dice {event.ally_roll} and {event.guard_roll})."


# The fields that hold a pirate's or an ally's id: a sentence names the character.
CHARACTERS = frozenset(
    {
        "pirate_id",
        "ally_id",
        "character_id",
        "from_pirate",
        "to_pirate",
        "reviver_id",
        "retired_id",
        "new_id",
        "instigator",
        "master_id",
        "purger_id",
        "cursed_id",
        "quarterdeck_id",
        "replaces",
    }
)

# The sentences that are only their event's fields in a line, or words their values choose (projections.sentences.said).
SAID: dict[type[Event], Wording] = {
    ev.CharacterCardRecorded: "The group recorded its {archetype} Character Card.",
    ev.InjurySuffered: "{pirate_id} suffered a Permanent Injury: {injury} (a {roll} on the chart).",
    ev.CurseGained: "{pirate_id} was Cursed.",
    ev.ItemGiven: "{from_pirate} gave the {item} to {to_pirate}.",
    ev.CampaignCompleted: "The crew completed the campaign {campaign}.",
    ev.FeatGained: "{pirate_id} gained the Feat {feat} for {coins:Coin} and {fame} Fame.",
    ev.AssignmentTaken: "{pirate_id} took the Assignment {assignment}.",
    ev.AllyDied: "{ally_id} died.",
    ev.AllyDismissed: "{ally_id} was dismissed.",
    ev.AllyMutinyResolved: "{ally_id} mutinied; the Captain spent {coins_spent:Coin} against a roll of {ally_roll}.",
    ev.UpgradeUsed: "The {upgrade} was used up.",
    ev.BootyBuried: "{pirate_id} buried {amount:Coin} of the Crew's Booty on {island}.",
    ev.BootyRecovered: "{pirate_id} dug up {amount:Coin} on {island}.",
    ev.ChapterEnded: "Chapter {number} ended.",
    ev.CaptainElected: (
        "{pirate_id} became Captain{method}.",
        {
            "method": {
                "most_fame": " with the most Adventure Fame",
                "charisma_tie": " on a Charisma roll",
                "chapter": " as the chapter says",
            }
        },
    ),
    ev.PirateRetired: (
        "{pirate_id} retired {reason}.",
        {"reason": {"injury": "after a lost pair", "legendary_pirate": "as a Legendary Pirate"}},
    ),
    ev.CrewSurrendered: (
        "The Voyage was lost: the crew {cause}.",
        {
            "cause": {
                "surrendered": "surrendered",
                "sunk": "was sunk",
                "revolt": "revolted",
                "sickbay": "ended up in the Sickbay",
            }
        },
    ),
    ev.RumorResolved: ("{pirate_id}'s Rumor {success}.", {"success": {True: "paid off", False: "came to nothing"}}),
    ev.AllyDrawn: (
        "{pirate_id} drew the {archetype} from the Ally bag {reason}.",
        {"reason": {"castaways": "to play «Castaways»", "solo_start": "at the start of Solo Mode"}},
    ),
    ev.ApprovalGiven: (
        "{pirate_id} earned {master}'s {kind}{permanent}.",
        {"kind": {"approval": "Approval", "disapproval": "Disapproval"}, "permanent": {True: " for good", False: ""}},
    ),
    ev.TrustChanged: ("{character_id} {amount}{reason}.", {"amount": _signed_as("Trust Point"), "reason": _why}),
    ev.GroupLost: ("A Group of Pirates was lost{reason}.", {"reason": _why}),
    ev.MoraleChanged: (
        "The crew's Morale {amount}{reason}.",
        {"amount": lambda amount: f"{'rose' if amount >= 0 else 'fell'} by {abs(amount)}", "reason": _why},
    ),
    ev.WoundsChanged: (
        "{pirate_id} {amount}{reason}.",
        {"amount": _signed_as("Wound", "suffered", "recovered from"), "reason": _why},
    ),
    ev.DestinyChanged: (
        "{pirate_id} {amount}{plus_one}{reason}.",
        {
            "amount": _signed_as("Destiny Point", "gained", "spent"),
            "plus_one": {True: " for +1 to each die of the next roll", False: ""},
            "reason": _why,
        },
    ),
    ev.TimeSpent: (
        "{pirate_id} spent {amount:Time Unit}{purpose}.",
        {"purpose": lambda purpose: f" {'moving' if purpose == 'move' else purpose}" if purpose else ""},
    ),
    ev.PhaseEnded: (
        "The {phase} ended, {outcome}.",
        {"phase": _phase, "outcome": {"success": "a success", "failure": "a failure", "repeat": "to be played again"}},
    ),
    ev.RumorsHeard: (
        "{pirate_id} listened to Rumors at the {where}{kept}.",
        {"where": str.capitalize, "kept": given(" and kept {}")},
    ),
    ev.MatelotageDone: (
        "{retired_id} passed {coins:Coin}{item} to {new_id}{free_skill}.",
        {"item": given(" and the {}"), "free_skill": given(", and taught {}")},
    ),
    ev.PirateRecruited: (
        "{name} the {archetype} joined the crew{replaces}{player}.",
        {"replaces": given(" in place of {}"), "player": given(", played by {}")},
    ),
    ev.PurgeUsed: ("{pirate_id} used Purge and rolled {roll}{cursed_id}.", {"cursed_id": given(", freeing {}")}),
}


SENTENCES: dict[type[Event], Sentence] = {
    **common(TITLE, name),
    **said(SAID, name=name, characters=CHARACTERS, count=count),
    ev.FameChanged: fame_changed,
    ev.CoinsChanged: coins_changed,
    ev.CoinsGiven: coins_given,
    ev.PirateRevived: pirate_revived,
    ev.CurseRemoved: curse_removed,
    ev.ItemGained: item_gained,
    ev.ItemLost: item_lost,
    ev.PortServiceBought: port_service_bought,
    ev.SkillLearned: skill_learned,
    ev.AssignmentResolved: assignment_resolved,
    ev.MutinyResolved: mutiny_resolved,
    ev.CommandIssued: command_issued,
    ev.ShipUpgraded: ship_upgraded,
    ev.ShipDamaged: ship_damaged,
    ev.ShipRepaired: ship_repaired,
    ev.GoodsTraded: goods_traded,
    ev.TradeMade: trade_made,
    ev.StoryTold: story_told,
    ev.GoodsGained: goods_gained,
    ev.GoodsSpent: goods_spent,
    ev.ChapterStarted: chapter_started,
    ev.PhaseStarted: phase_started,
    ev.AllyLoyaltyRolled: ally_loyalty_rolled,
    ev.SchemeResolved: scheme_resolved,
    ev.AllySchemeResolved: ally_scheme_resolved,
    ev.ManorEntered: manor_entered,
    ev.LoanTaken: loan_taken,
    ev.LoanRepaid: loan_repaid,
    ev.AllyHired: ally_hired,
    ev.AllyUpkeepPaid: ally_upkeep_paid,
    ev.SalaryCollected: salary_collected,
    ev.ProsthesisBought: prosthesis_bought,
    ev.PenanceChosen: penance_chosen,
    ev.PirateUnconscious: pirate_unconscious,
    ev.PirateBoarded: pirate_boarded,
    ev.ShipBought: ship_bought,
    ev.GroupHired: group_hired,
}
SENTENCES.update({kind: entering_the_manor(SENTENCES[kind]) for kind in MANOR_SERVICES})
