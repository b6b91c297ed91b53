"""Skull & Shackles events told in the game's words: "Merisiel recharged the Dagger."

Each function reads the event and the state it was folded in (the state before it), to name characters rather than
show their ids. `SENTENCES` covers every event type a Skull & Shackles campaign accepts.
"""

from __future__ import annotations

from quartermaster.events import pacg as ev
from quartermaster.events.base import Event
from quartermaster.projections.pacg.state import State
from quartermaster.projections.sentences import Sentence, Wording, common, given, listing, plural, said

TITLE = "Pathfinder Adventure Card Game: Skull & Shackles"


def name(state: State | None, character_id: str | None) -> str:
    """A character's name; the id only when the state does not know her (yet)."""
    if not character_id:
        return "someone"
    character = state.characters.get(character_id) if state is not None else None
    return character.name if character is not None else character_id


def _named(card: str | ev.HiddenCard, state: State | None = None) -> str:
    """ "the Dagger", "Jemma Redclaw" (a villain or henchman is a person), or "a face-down weapon"."""
    if isinstance(card, ev.HiddenCard):
        return f"a face-down {card.hidden}" if card.hidden != "dealt" else "a face-down card"
    scenario = state.scenario if state is not None else None
    if scenario is not None and card in (*scenario.villains, *scenario.henchmen):
        return card
    return f"the {card}"


_PILES = {
    "deck": "deck",
    "hand": "hand",
    "discard": "discards",
    "buried": "buried cards",
    "displayed": "displayed cards",
    "recovery": "recovery pile",
}
_PLACES = {
    "vault": "the vault",
    "plunder": "the plunder under the ship",
    "hourglass": "the hourglass",
    "hourglass_discard": "the hourglass discards",
    "encounter": "the encounter",
    "set_aside": "set aside",
    "dealt": "the cards dealt face down to the locations",
}


def zone(state: State | None, where: ev.Zone) -> str:
    """A zone in words: "Merisiel's hand", "the Sea Caves", "the vault"."""
    if where.zone in _PILES:
        return f"{name(state, where.character_id)}'s {_PILES[where.zone]}"
    if where.zone == "location":
        return f"the {where.location} deck" if where.location else "a location deck"
    return _PLACES.get(where.zone, where.zone)


_VERBS = {
    "draw": "drew",
    "discard": "discarded",
    "recharge": "recharged",
    "bury": "buried",
    "banish": "banished",
    "display": "displayed",
    "acquire": "acquired",
    "reload": "reloaded",
}


def card_moved(state: State, event: ev.CardMoved) -> str:
    owner = event.from_.character_id or event.to.character_id
    card = _named(event.card, state)
    if event.verb == "reveal" and event.from_.zone == "location" and event.to.zone == "encounter":
        turn = state.scenario.turn if state is not None and state.scenario is not None else None
        explorer = name(state, event.explorer or turn) if (event.explorer or turn) else "The party"
        again = " again" if event.explore_again else ""
        return f"{explorer} explored the {event.from_.location}{again} and encountered {card}."
    if event.verb == "give" and event.from_.character_id and event.to.character_id:
        return f"{name(state, event.from_.character_id)} gave {card} to {name(state, event.to.character_id)}."
    if event.verb in _VERBS and owner:
        told = f"{name(state, owner)} {_VERBS[event.verb]} {card}"
        usual = {
            "draw": "deck",
            "discard": "hand",
            "recharge": "hand",
            "bury": "hand",
            "banish": "hand",
            "display": "hand",
            "reload": "hand",
        }.get(event.verb)
        if usual and event.from_.zone != usual:
            told += f" from {zone(state, event.from_)}"
        if event.verb == "banish" and event.to.zone == "vault":
            told += " back to the box"
        return told + "."
    if event.verb in _VERBS:
        told = f"{card} was {_VERBS[event.verb]}"
        if event.verb == "banish" and event.to.zone == "vault":
            return told + f" from {zone(state, event.from_)} back to the box."
        return told + f" from {zone(state, event.from_)} to {zone(state, event.to)}."
    if event.verb == "stash":
        return f"{card} was stashed under the ship from {zone(state, event.from_)}."
    if event.verb == "shuffle":
        return f"{card} was shuffled from {zone(state, event.from_)} into {zone(state, event.to)}."
    if event.verb == "summon":
        return f"{card} was summoned into {zone(state, event.to)}."
    if event.verb == "set_aside":
        return f"{card} was set aside from {zone(state, event.from_)}."
    if event.verb == "reveal":
        return f"{card} was revealed from {zone(state, event.from_)}."
    return f"{card} went from {zone(state, event.from_)} to {zone(state, event.to)}."


def _copies(cards: list[ev.CardEntry]) -> str:
    """How many cards a product's list holds, every copy counted: "110 cards"."""
    return plural(sum(card.count for card in cards), "card")


def _cards(cards: list[str]) -> str:
    """How many cards a character's deck list names: "15 cards"."""
    return plural(len(cards), "card")


# What a reward was for, where the table says: " for Dangerous Waters".
_REWARD = given(" for {}")


_OUTCOMES = {"defeated": "was defeated", "undefeated": "remained undefeated", "evaded": "was evaded"}


def encounter_ended(state: State, event: ev.EncounterEnded) -> str:
    """ "The Sea Devil was defeated.", "Aretta Bansion was defeated." (a villain or henchman takes no article)."""
    card = _named(event.card, state)
    return f"{card[:1].upper()}{card[1:]} {_OUTCOMES.get(event.outcome, event.outcome)}."


def card_defined(state: State, event: ev.CardDefined) -> str:
    return (
        f"The table added its own {event.card.type} {event.card.name} to the vault ({event.card.count} "
        f"{'copy' if event.card.count == 1 else 'copies'})."
    )


def card_completed(state: State, event: ev.CharacterCardCompleted) -> str:
    facts = event.card
    given = [
        *(["a hand size of " + str(facts.hand_size)] if facts.hand_size else []),
        *(["proficiencies"] if facts.proficiencies else []),
        *(["favored card types"] if facts.favored else []),
        *([f"{plural(len(facts.skills), 'skill')}"] if facts.skills else []),
        *(["power feat boxes"] if facts.powers else []),
        *(["card feat boxes"] if facts.card_feats else []),
    ]
    return f"{name(state, event.character_id)}'s character card was completed: {listing(given) or 'nothing new'}."


def character_moved(state: State, event: ev.CharacterMoved) -> str:
    told = f"{name(state, event.character_id)} moved to the {event.to}"
    if event.moved_with:
        told += f", with {listing([name(state, c) for c in event.moved_with])} aboard"
    return told + "."


def hand_reset(state: State, event: ev.HandReset) -> str:
    if event.kept:
        return f"{name(state, event.character_id)} kept the hand, a power allowing it, instead of resetting."
    return f"{name(state, event.character_id)}'s hand was reset."


def scenario_started(state: State, event: ev.ScenarioStarted) -> str:
    places = listing([place.name for place in event.locations])
    return f"The scenario {event.scenario} began aboard the {event.ship}, at {places}."


def scenario_ended(state: State, event: ev.ScenarioEnded) -> str:
    scenario = state.scenario.name if state is not None and state.scenario is not None else "The scenario"
    return f"{scenario} was {event.result}."


def ship_damaged(state: State, event: ev.ShipDamaged) -> str:
    ship = f"the {state.fleet.current}" if state is not None and state.fleet.current else "the ship"
    told = f"{ship} took {event.amount} Structural damage"
    if event.prevented:
        told += f", {event.prevented} of it prevented"
    if event.wrecked:
        told += ", and was wrecked"
    return told + "."


def ship_repaired(state: State, event: ev.ShipRepaired) -> str:
    ship = f"the {state.fleet.current}" if state is not None and state.fleet.current else "the ship"
    return f"{name(state, event.character_id)} repaired {ship}." if event.character_id else f"{ship} was repaired."


def ship_encountered(state: State, event: ev.ShipEncountered) -> str:
    turn = state.scenario.turn if state is not None and state.scenario is not None else None
    who = name(state, event.character_id or turn) if (event.character_id or turn) else "The commander"
    return f"{who} encountered the enemy ship {event.ship}."


def plunder_stashed(state: State, event: ev.PlunderStashed) -> str:
    kind = event.card_type or "card"
    rolled = f" (a {event.roll} on the die)" if event.roll is not None else ""
    return f"A face-down {kind} was stashed under the ship as plunder{rolled}."


def plunder_banished(state: State, event: ev.PlunderBanished) -> str:
    return f"{f'the {event.card}' if event.card else f'A plunder {event.card_type}'} went from under the ship back to the box."


def loot_awarded(state: State, event: ev.LootAwarded) -> str:
    what = "plunder" if event.source == "plunder" else "loot"
    to = "the vault" if event.to == "vault" else f"{name(state, event.to)}'s deck"
    told = f"{event.card} went to {to} as {what}"
    return told + (f" for {event.reward_of}." if event.reward_of else ".")


def scenario_card_recorded(state: State, event: ev.ScenarioCardRecorded) -> str:
    return (
        f"The group recorded the scenario card of {event.scenario}: "
        f"{plural(len(event.locations), 'location')} for up to {max((loc.players for loc in event.locations), default=0)} players."
    )


# The fields that hold a character's id: a sentence names her.
CHARACTERS = frozenset({"character_id", "by"})

# The sentences that are only their event's fields in a line, or words their values choose (projections.sentences.said).
SAID: dict[type[Event], Wording] = {
    ev.DamageDealt: "{character_id} took {amount} {damage_type} damage.",
    ev.CharacterDied: "{character_id} died.",
    ev.CharacterRevived: "{character_id} came back from the dead.",
    ev.ShipSeized: "The party seized the {ship}.",
    ev.ShipEvaded: "The {ship} was evaded.",
    ev.ShipDefeated: "The {ship} was defeated.",
    ev.ShipBanished: "The {ship} was banished: {character_id} was not commanding a ship.",
    ev.ShipAnchored: "The ship dropped anchor at the {location}.",
    ev.RoleChosen: "{character_id} became a {role}.",
    ev.HeroPointAwarded: "{character_id} earned a hero point.",
    ev.HeroPointSpent: (
        "{character_id} spent a hero point {for_}.",
        {"for_": {"reroll": "to reroll", "feat": "for a feat", "return_from_death": "to return from death"}},
    ),
    ev.CharacterSetAside: (
        "{character_id} was set aside: her deck of {cards} was written down and returned to the vault.",
        {"cards": _cards},
    ),
    ev.DeckBuilt: ("{character_id} built a deck of {cards}.", {"cards": _cards}),
    ev.DeckRebuilt: ("{character_id}'s deck was rebuilt: {cards}.", {"cards": _cards}),
    ev.AdventureStarted: (
        "The adventure {adventure} began{scenarios}.",
        {"scenarios": lambda scenarios: f": {listing(scenarios)}" if scenarios else ""},
    ),
    ev.HourglassAdvanced: (
        "{character_id}'s turn began; the hourglass ran down{card}.",
        {"card": given(", showing the {}")},
    ),
    ev.FeatGained: ("{character_id} gained the {kind} feat {feat}{reward_of}.", {"reward_of": _REWARD}),
    ev.ShipAwarded: ("The party earned the ship {ship}{reward_of}.", {"reward_of": _REWARD}),
    ev.VaultProductsAdded: ("Product {product} went into the vault: {cards}.", {"cards": _copies}),
    ev.ProductListRecorded: ("The group recorded the card list of product {product}: {cards}.", {"cards": _copies}),
    ev.CharacterJoined: ("{name} joined the party{player}.", {"player": given(", played by {}")}),
    ev.VillainEscaped: (
        "{villain} {defeated} to {to}.",
        {
            "defeated": {True: "was defeated but escaped", False: "escaped"},
            "to": lambda places: listing([f"the {place}" for place in places], "or"),
        },
    ),
    ev.LocationClosed: (
        "The {location} was {temporary}{by}{how}.",
        {
            "temporary": {True: "temporarily closed", False: "closed"},
            "by": given(" by {}"),
            "how": {
                None: "",
                "henchman": ", after a henchman from its deck was defeated",
                "empty": ", its deck having run out",
                "villain": ", the villain defeated there",
                "power": ", as a card said",
            },
        },
    ),
}


def brought_back(state: State, event: ev.CharacterBroughtBack) -> str:
    found = state.characters.get(event.character_id) if state is not None else None
    who = name(state, event.character_id)
    if found is None or not found.aside:
        return f"{who} came back, her deck taken out of the vault again."
    return f"{who} came back: her deck of {_cards(list(found.aside))} was taken out of the vault again."


SENTENCES: dict[type[Event], Sentence] = {
    **common(TITLE, name),
    **said(SAID, name=name, characters=CHARACTERS, count=plural),
    ev.CardDefined: card_defined,
    ev.EncounterEnded: encounter_ended,
    ev.CharacterCardCompleted: card_completed,
    ev.CharacterMoved: character_moved,
    ev.CardMoved: card_moved,
    ev.CharacterBroughtBack: brought_back,
    ev.HandReset: hand_reset,
    ev.ScenarioStarted: scenario_started,
    ev.ScenarioEnded: scenario_ended,
    ev.ShipDamaged: ship_damaged,
    ev.ShipRepaired: ship_repaired,
    ev.ShipEncountered: ship_encountered,
    ev.PlunderStashed: plunder_stashed,
    ev.PlunderBanished: plunder_banished,
    ev.LootAwarded: loot_awarded,
    ev.ScenarioCardRecorded: scenario_card_recorded,
}
