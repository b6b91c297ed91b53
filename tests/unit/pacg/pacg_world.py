"""A small table to play on: a product, two characters, a scenario; helpers to fold events given/when/then."""

from __future__ import annotations

from typing import Any, Union

import msgspec

from quartermaster.events.campaign import CampaignStarted, DiceRolled
from quartermaster.projections.game import Meta, Rejection, step
from quartermaster.projections.pacg import GAME
from quartermaster.projections.pacg.state import State

AnyEvent = Union[(CampaignStarted, DiceRolled, *GAME.event_types)]  # type: ignore[valid-type]


def event(type_: str, **data: Any) -> Any:
    """An event from its JSON shape, exactly as the API would decode it."""
    return msgspec.convert({"type": type_, **data}, AnyEvent)


def from_payload(payload: dict[str, Any]) -> Any:
    return event(payload["type"], **payload["data"])


def fold(*events: Any, state: State | None = None, options: dict[str, Any] | None = None) -> State:
    if state is None:
        state = step(GAME, None, CampaignStarted(name="t", game=GAME.id, options=options or {}), Meta(1))
    for index, item in enumerate(events):
        item = from_payload(item) if isinstance(item, dict) else item
        state = step(GAME, state, item, Meta(index + 2))
    return state


def rejection(state: State, *events: Any) -> str:
    """The reason the last of these events is refused (the ones before it must be accepted)."""
    *before, last = events
    state = fold(*before, state=state)
    last = from_payload(last) if isinstance(last, dict) else last
    try:
        step(GAME, state, last, Meta(999))
    except Rejection as refused:
        return refused.reason
    raise AssertionError("the event was accepted")


def card(name: str, type_: str, count: int, *traits: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "count": count, "traits": list(traits), **extra}


BOX = [
    card("Dagger", "weapon", 3, "Basic"),
    card("Pistol", "weapon", 3, "Basic", "Firearm"),
    card("Cutlass", "weapon", 3, "Basic", "Swashbuckling"),
    card("Longsword", "weapon", 2, "Basic"),
    card("Cutlass +1", "weapon", 2, "Swashbuckling", product="1"),
    card("Cure", "spell", 3, "Basic", "Divine"),
    card("Force Missile", "spell", 2, "Basic", "Arcane"),
    card("Find Traps", "spell", 2, "Basic", "Arcane"),
    card("Leather Armor", "armor", 3, "Basic"),
    card("Rum Bottle", "item", 3, "Basic"),
    card("Eye Patch", "item", 2, "Basic"),
    card("Sailor", "ally", 3, "Basic"),
    card("Carver", "ally", 2, "Basic"),
    card("Blessing of the Gods", "blessing", 40, "Basic"),
    card("Dire Rat", "monster", 8),
    card("Dead Man's Chest", "barrier", 5),
    card("Jemma Redclaw", "villain", 1),
    card("Buccaneer", "henchman", 6),
    card("Sea Devil's Sabre", "loot", 1, loot_type="weapon", product="1"),
]


def character_card(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "hand_size": 3,
        "favored": ["weapon"],
        "cards_list": {
            "weapon": {"count": 2, "feats": [3, 4]},
            "spell": {"count": 1, "feats": [2]},
            "armor": {"count": 1},
            "item": {"count": 1},
            "ally": {"count": 1},
            "blessing": {"count": 2, "feats": [3]},
        },
        "skills": {"Dexterity": {"die": "d12", "feats": ["+1", "+2", "+3"]}, "Strength": {"die": "d6"}},
        "powers": {"Hand Size": ["4", "5"], "Light Armors": ["Light Armors"]},
        "roles": {"Infiltrator": {"powers": {"Hand Size": ["4", "5", "6"], "Evasion": ["+1"]}}},
    }


MERISIEL_DECK = ["Dagger", "Pistol", "Cure", "Leather Armor", "Rum Bottle", "Sailor"] + ["Blessing of the Gods"] * 2
VALEROS_DECK = ["Longsword", "Cutlass", "Find Traps", "Leather Armor", "Eye Patch", "Carver"] + [
    "Blessing of the Gods"
] * 2

SETUP = [
    {"type": "vault.products_added", "data": {"product": "B", "cards": BOX}},
    {
        "type": "character.joined",
        "data": {"character_id": "merisiel", "name": "Merisiel", "player": "Ann", "card": character_card("Merisiel")},
    },
    {
        "type": "character.joined",
        "data": {"character_id": "valeros", "name": "Valeros", "player": "Bo", "card": character_card("Valeros")},
    },
    {"type": "deck.built", "data": {"character_id": "merisiel", "cards": MERISIEL_DECK}},
    {"type": "deck.built", "data": {"character_id": "valeros", "cards": VALEROS_DECK}},
]

SCENARIO = {
    "type": "scenario.started",
    "data": {
        "scenario": "Island Hopping",
        "locations": [
            {"name": "Shark Island", "deck": {"monster": 2, "barrier": 1, "weapon": 1, "blessing": 1}},
            {"name": "Tempest Cay", "deck": {"monster": 2, "spell": 1, "item": 1, "blessing": 1}},
        ],
        "villains": ["Jemma Redclaw"],
        "henchmen": ["Buccaneer"],
    },
}

START = [
    SCENARIO,
    {"type": "plunder.stashed", "data": {"roll": 1}},
    {"type": "character.moved", "data": {"character_id": "merisiel", "to": "Shark Island"}},
    {"type": "character.moved", "data": {"character_id": "valeros", "to": "Shark Island"}},
]


def zone(kind: str, who: str | None = None, location: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"zone": kind}
    if who is not None:
        found["character_id"] = who
    if location is not None:
        found["location"] = location
    return found


def move(card_: Any, verb: str, source: dict[str, Any], target: dict[str, Any]) -> dict[str, Any]:
    return {"type": "card.moved", "data": {"card": card_, "verb": verb, "from": source, "to": target}}


def draw(who: str, name: str) -> dict[str, Any]:
    return move(name, "draw", zone("deck", who), zone("hand", who))


def census(state: State) -> dict[str, int]:
    """Physical copies by card type, wherever they are; face-down ones by type (the dealt pool by its names)."""
    totals: dict[str, int] = {}
    for key, pile in state.zones.items():
        for name, count in pile.known.items():
            info = state.cards[name]
            totals[info.type] = totals.get(info.type, 0) + count
        for label, count in pile.hidden.items():
            if key == "vault" or label == "dealt":
                continue
            totals[label] = totals.get(label, 0) + count
    for name, count in state.imagined.items():
        info = state.cards[name]
        totals[info.type] -= count
    # Face-down copies dealt out of the vault are still counted there by name: count them once.
    for card_type, count in state.face_down_out.items():
        totals[card_type] -= count
    return {t: n for t, n in totals.items() if n}


# Starting hands (Skull & Shackles Rulebook, Draw Starting Hands): each character draws her hand size, a weapon among them. A turn
# whose cards leave the hand as it was needs no reset before the next.
HANDS = [*(draw("merisiel", name) for name in MERISIEL_DECK[:3]), *(draw("valeros", name) for name in VALEROS_DECK[:3])]
