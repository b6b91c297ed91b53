"""The turn view: whose turn it is, the step it has reached, the encounter in progress, and what the rules allow now.

What it offers is read from the fold's own rules (projections/pacg/steps.py, the encounter's outcomes), so a page
built on it never repeats a rule.
"""

from __future__ import annotations

from typing import Any

from quartermaster.projections.pacg import powers, steps
from quartermaster.projections.pacg.encounter import BOONS
from quartermaster.projections.pacg.hands import hand_size
from quartermaster.projections.pacg.state import Encountering, Pile, Scenario, State
from quartermaster.projections.pacg.zones import ENCOUNTER, HOURGLASS, character_key, location_key

_EMPTY = Pile()


def _count(state: State, key: str) -> int:
    pile = state.zones.get(key, _EMPTY)
    return sum(pile.known.values()) + sum(pile.hidden.values())


def _names(state: State, key: str) -> list[str]:
    pile = state.zones.get(key, _EMPTY)
    return [name for name, count in sorted(pile.known.items()) for _ in range(count)]


def _who(state: State, character_id: str | None) -> dict[str, str] | None:
    if character_id is None:
        return None
    return {"character_id": character_id, "name": state.characters[character_id].name}


def seating(state: State, scenario: Scenario) -> list[str]:
    """The order turns pass in: the first round's order as the group chose it, then those who have not had a turn
    yet in the party's order (Skull & Shackles Rulebook, Setting Up: Decide Who Goes First; End Your Turn)."""
    order = list(scenario.turn_order)
    return order + [cid for cid in scenario.party if cid not in order]


def next_up(state: State, scenario: Scenario) -> list[str]:
    """Who may take the next turn: anyone living who has not had a turn in the first round, else the next living
    character after the current one in the seating order."""
    living = [cid for cid in scenario.party if state.characters[cid].alive]
    waiting = [cid for cid in living if cid not in scenario.turn_order]
    if waiting:
        return waiting
    order = [cid for cid in scenario.turn_order if cid in living or cid == scenario.turn]
    if not order:
        return []
    if scenario.turn is None or scenario.turn not in order:
        return [order[0]]
    after = order[(order.index(scenario.turn) + 1) % len(order)]
    return [after] if after in living else []


def _move(**data: Any) -> dict[str, Any]:
    return {"type": "card.moved", "data": data}


def _zone(kind: str, who: str | None = None, location: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"zone": kind}
    if who is not None:
        found["character_id"] = who
    if location is not None:
        found["location"] = location
    return found


def outcomes(state: State, entry: Encountering) -> list[dict[str, Any]]:
    """The outcomes the rules allow for this encounter, each with the events that log it (Skull & Shackles Rulebook,
    Encountering a Card; Attempting a Check; Summoning and Adding Cards; Encountering a Villain)."""
    card = entry.card
    info = state.cards[card]
    who = entry.character_id
    origin = entry.location
    back = _zone("location", location=origin) if origin is not None else _zone("vault")
    back_verb = "shuffle" if origin is not None else "banish"
    banish = _move(card=card, verb="banish", **{"from": _zone("encounter"), "to": _zone("vault")})
    if info.type in BOONS:
        acquire = _move(card=card, verb="acquire", **{"from": _zone("encounter"), "to": _zone("hand", who)})
        if info.type == "loot" and origin is not None:
            # A loot card met in a location is acquired with no check.
            return [{"outcome": "acquired", "events": [acquire]}]
        allowed = []
        if entry.success is not False:
            allowed.append({"outcome": "acquired", "events": [acquire]})
        if entry.success is not True or origin is None:
            allowed.append({"outcome": "not acquired", "events": [banish]})
        if entry.success is None and origin is not None:
            evaded = {"type": "encounter.ended", "data": {"card": card, "outcome": "evaded"}}
            back_in = _move(card=card, verb="shuffle", **{"from": _zone("encounter"), "to": back})
            allowed.append({"outcome": "evaded", "events": [evaded, back_in]})
        return allowed
    ended = {"type": "encounter.ended", "data": {"card": card}}
    defeated = {**ended, "data": {"card": card, "outcome": "defeated"}}
    undefeated = {**ended, "data": {"card": card, "outcome": "undefeated"}}
    evaded = {**ended, "data": {"card": card, "outcome": "evaded"}}
    returned = _move(card=card, verb=back_verb, **{"from": _zone("encounter"), "to": back})
    if info.type == "villain" and origin is not None:
        return _villain(state.scenario, entry, banish, returned)
    allowed = []
    if entry.success is not False or entry.doubtful:
        after = [defeated, banish]
        allowed.append({"outcome": "defeated", "events": after})
    if entry.success is not True or entry.doubtful:
        allowed.append({"outcome": "undefeated", "events": [undefeated, returned]})
    if entry.success is None:
        allowed.append({"outcome": "evaded", "events": [evaded, returned]})
    return allowed


def _closing(location: str, how: str) -> dict[str, Any]:
    return {"type": "location.closed", "data": {"location": location, "how": how}}


def _villain(
    scenario: Scenario | None, entry: Encountering, banish: dict[str, Any], returned: dict[str, Any]
) -> list[dict[str, Any]]:
    """The villain's encounter ended in one tap: defeated, its location closed, then it escapes into the other open
    locations or, with none left, it is banished and the party wins; undefeated, it escapes into every open location;
    evaded, it is shuffled back. Once the table has logged how it ended, only what follows is offered (Skull & Shackles
    Rulebook, Encountering a Villain)."""
    if scenario is None or entry.location is None:
        return []
    card, origin = entry.card, entry.location
    ended = scenario.villain_outcome if scenario.villain_at == origin else None
    place = scenario.places.get(origin)
    closed = [] if place is None or place.closed else [_closing(origin, "villain")]
    open_places = [n for n, p in scenario.places.items() if not p.closed and not p.temporarily_closed]

    def escape(defeated: bool) -> list[dict[str, Any]]:
        to = [n for n in open_places if n != origin] if defeated else open_places
        if to:
            return [{"type": "villain.escaped", "data": {"villain": card, "to": to, "defeated": defeated}}]
        if defeated:
            return [banish, {"type": "scenario.ended", "data": {"result": "won"}}]
        return []

    def said(outcome: str) -> list[dict[str, Any]]:
        return [] if ended else [{"type": "encounter.ended", "data": {"card": card, "outcome": outcome}}]

    allowed = []
    if ended == "defeated" or (ended is None and (entry.success is not False or entry.doubtful)):
        allowed.append({"outcome": "defeated", "events": [*said("defeated"), *closed, *escape(True)]})
    if ended == "undefeated" or (ended is None and (entry.success is not True or entry.doubtful)):
        allowed.append({"outcome": "undefeated", "events": [*said("undefeated"), *escape(False)]})
    if ended == "evaded" or (ended is None and entry.success is None):
        allowed.append({"outcome": "evaded", "events": [*said("evaded"), returned]})
    return allowed


def _encounter(state: State, scenario: Scenario) -> dict[str, Any] | None:
    if not scenario.encounters:
        return None
    entry = scenario.encounters[-1]
    if not state.zones.get(ENCOUNTER, _EMPTY).known.get(entry.card):
        return None
    info = state.cards[entry.card]
    return {
        "card": entry.card,
        "type": info.type,
        "traits": list(info.traits),
        "from": entry.location,
        "summoned": entry.location is None,
        "character": _who(state, entry.character_id),
        "check": "acquire" if info.type in BOONS else "defeat",
        "difficulty": entry.difficulty,
        "total": entry.total,
        "result": None if entry.success is None else "success" if entry.success else "failure",
        "ended": entry.outcome,
        # Its printed powers as the fold applies them; `by_hand` ones the table applies itself.
        "powers": [{"kind": power.kind, "text": power.text} for power in info.powers],
        # Added to the printed difficulty to defeat it by its own powers in this scenario (adventure deck number).
        "difficulty_raised_by": powers.raised_by(info.powers, scenario.number)[0],
        "outcomes": outcomes(state, entry),
    }


def _offered(state: State, scenario: Scenario, who: str, step: steps.Step) -> list[dict[str, Any]]:
    """The actions of the turn's steps still ahead (or current), each with what it needs."""
    me = state.characters[who]
    here = me.location
    offered: list[dict[str, Any]] = []
    if not me.alive:
        return offered
    busy = state.owed is not None and state.owed.kind != "reset"
    encounter = bool(scenario.encounters)
    hand = _names(state, character_key(who, "hand"))
    if not steps.passed(scenario, "give") and not scenario.gave_this_turn and hand and not encounter:
        takers = [
            cid
            for cid in scenario.party
            if cid != who and state.characters[cid].alive and state.characters[cid].location == here
        ]
        if takers:
            offered.append(
                {"action": "give", "events": ["card.moved"], "needs": {"card": sorted(set(hand)), "to": takers}}
            )
    if not steps.passed(scenario, "move") and not encounter and not scenario.moved_this_turn:
        elsewhere = [name for name in scenario.places if name != here] or ([here] if here else [])
        fleet = state.fleet
        riders = []
        if fleet.anchored is None and not fleet.wrecked:
            riders = [
                cid
                for cid in scenario.party
                if cid != who and state.characters[cid].alive and state.characters[cid].location == here
            ]
        offered.append({"action": "move", "events": ["character.moved"], "needs": {"to": elsewhere, "with": riders}})
    if not steps.passed(scenario, "explore") and not encounter and here is not None:
        cards = _count(state, location_key(here))
        if cards:
            offered.append(
                {
                    "action": "explore",
                    "events": ["card.moved"],
                    "needs": {
                        "location": here,
                        "cards": cards,
                        # The free exploration is the turn's first; another needs a card or power (explore_again).
                        "explore_again": scenario.explored_this_turn,
                    },
                }
            )
    closable: list[dict[str, Any]] = []
    if here is not None and not encounter:
        place = scenario.places.get(here)
        if place is not None and not place.closed:
            if here in scenario.may_close:
                closable.append({"location": here, "how": "henchman"})
            elif not steps.passed(scenario, "close") and _count(state, location_key(here)) == 0:
                closable.append({"location": here, "how": "empty"})
    checked = any(
        e.location == scenario.villain_at and e.card in scenario.villains and e.success is not None
        for e in scenario.encounters
    )
    if scenario.villain_at is not None and scenario.villain_outcome is None and not checked:
        # While the villain is encountered, before its check, a character at another open location may close hers
        # for the encounter (Encountering a Villain: Attempt to Temporarily Close Open Locations).
        closable += [
            {"location": name, "how": None, "temporary": True}
            for name, place in scenario.places.items()
            if name != scenario.villain_at
            and not place.closed
            and not place.temporarily_closed
            and any(state.characters[cid].alive and state.characters[cid].location == name for cid in scenario.party)
        ]
    if closable:
        offered.append({"action": "close", "events": ["location.closed"], "needs": {"locations": closable}})
    if step != "end" and not encounter and not busy:
        resetting = state.owed is not None and state.owed.kind == "reset"
        offered.append(
            {
                "action": "reset",
                "events": ["card.moved"] if resetting else ["hand.reset", "card.moved"],
                "needs": {
                    "hand_size": hand_size(me),
                    "hand": len(hand),
                    "deck": _count(state, character_key(who, "deck")),
                    "in_progress": resetting,
                },
            }
        )
    return offered


def _end(state: State, scenario: Scenario) -> dict[str, Any] | None:
    """Ending the turn: the next character's hourglass.advanced, once the reset is over (or not required)."""
    if scenario.encounters or (state.owed is not None and state.owed.kind != "reset"):
        return None
    who = scenario.turn
    if who is not None and state.characters[who].alive and state.options.reset == "required":
        finished = scenario.step == "end"
        if not finished and state.owed is not None and state.owed.kind == "reset":
            # A reset whose hand already holds the hand size draws nothing: it is over.
            finished = len(_names(state, character_key(who, "hand"))) == state.owed.count
        if not finished:
            return None
    action = "end turn" if who is not None else "start turn"
    following = [_who(state, cid) for cid in next_up(state, scenario)]
    return {"action": action, "events": ["hourglass.advanced"], "needs": {"next": following}}


def turn_view(state: State) -> dict[str, Any]:
    """The turn in progress, for the Play tab.

    Shape: `{"scenario": name | null, "turn": number of turns taken, "character": {character_id, name} | null,
    "location", "step": one of `steps` | null, "steps": [{"step", "name"}], "seating": [{character_id, name,
    alive}], "next": [{character_id, name}] (who may take the next turn), "hand": [card names], "hidden_in_hand",
    "deck", "discard", "hand_size" (null if unknown), "blessings_left", "open_locations": [names], "owed":
    {kind, count, character_id} | null, "encounter": {card, type, traits, from, summoned, character, check
    ("defeat" or "acquire"), difficulty, total, result ("success", "failure" or null), ended, outcomes: [{outcome,
    events: [{type, data}]}]} | null, "offered": [{action ("give", "move", "explore", "close", "reset", "end turn"),
    events: [types], needs: {...}}]}`; "close" needs `locations` ([{location, how, temporary}]: `temporary` while
    the villain is encountered elsewhere); "end turn" needs `next`, the
    characters who may take the next turn (hourglass.advanced). Before the first turn, `offered` holds only "start turn" with who may go first.
    """
    scenario = state.scenario
    if scenario is None:
        return {"scenario": None, "lost": state.lost, "character": None, "step": None, "offered": []}
    who = scenario.turn
    step = steps.current(scenario)
    found = state.characters[who] if who is not None else None
    hand = _names(state, character_key(who, "hand")) if who else []
    hidden = sum(state.zones.get(character_key(who, "hand"), _EMPTY).hidden.values()) if who else 0
    offered = _offered(state, scenario, who, step) if who is not None and step is not None else []
    end = _end(state, scenario)
    if end is not None:
        offered.append(end)
    owed = state.owed
    return {
        "scenario": scenario.name,
        "turn": scenario.turns,
        "character": _who(state, who),
        "alive": found.alive if found else None,
        "location": found.location if found else None,
        "step": step,
        "step_name": steps.NAMES[step] if step else None,
        "steps": [{"step": s, "name": steps.NAMES[s]} for s in steps.STEPS],
        "seating": [
            {"character_id": cid, "name": state.characters[cid].name, "alive": state.characters[cid].alive}
            for cid in seating(state, scenario)
        ],
        "next": [_who(state, cid) for cid in next_up(state, scenario)],
        "hand": hand,
        "hidden_in_hand": hidden,
        "deck": _count(state, character_key(who, "deck")) if who else 0,
        "discard": _count(state, character_key(who, "discard")) if who else 0,
        "hand_size": hand_size(found) if found else None,
        "blessings_left": state.zones.get(HOURGLASS, _EMPTY).hidden.get("blessing", 0)
        + sum(state.zones.get(HOURGLASS, _EMPTY).known.values()),
        "open_locations": [
            name for name, place in scenario.places.items() if not place.closed and not place.temporarily_closed
        ],
        "owed": None if owed is None else {"kind": owed.kind, "count": owed.count, "character_id": owed.character_id},
        "encounter": _encounter(state, scenario),
        "offered": offered,
    }
