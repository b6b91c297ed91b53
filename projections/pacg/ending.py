"""The end of a scenario: won or lost, every card of play goes back, and a loss ends it at once.

Skull & Shackles Rulebook, Ending a Scenario, Adventure, or Adventure Path: "If, at any point, you need to advance
the blessings deck but there are no cards remaining in it, the scenario ends immediately and your party of
adventurers loses. You also lose if all of the characters are dead at the same time."
"""

from __future__ import annotations

import msgspec

from quartermaster.events.pacg import CHARACTER_ZONES
from quartermaster.projections.pacg import zones
from quartermaster.projections.pacg.state import State
from quartermaster.projections.pacg.zones import Work, character_key, location_key

# The Adventure Path, as a reward's `reward_of` names it, and the last of its six Adventure Decks (Card Sets:
# "adventure deck numbers from 1 to 6"): completing that adventure completes the Path.
ADVENTURE_PATH = "Skull & Shackles Adventure Path"
LAST_ADVENTURE = 6


def lose(state: State, reason: str) -> State:
    """The scenario in progress is lost and ends at once; until the next scenario starts nothing more happens in it."""
    scenario = state.scenario
    assert scenario is not None
    ended = finish(state, "lost")
    return msgspec.structs.replace(ended, lost=f"{scenario.name} was lost ({reason})")


def finish(state: State, result: str) -> State:
    """The scenario in progress ends, won or lost: every card of play goes back to the vault, each living
    character's cards to her deck, the dead's among the spare cards (Skull & Shackles Rulebook, After the Scenario)."""
    scenario = state.scenario
    assert scenario is not None
    work = Work(state)
    for name in scenario.places:
        key = location_key(name)
        # Face-down dealt cards are the dealt pool's cards; the pool itself goes back to the vault below.
        dealt = work.hidden(key, zones.DEALT)
        if dealt:
            work.add_hidden(key, zones.DEALT, -dealt)
        work.empty(key, zones.VAULT)
    for key in (zones.ENCOUNTER, zones.HOURGLASS, zones.HOURGLASS_DISCARD, zones.SET_ASIDE):
        work.empty(key, zones.VAULT)
    _empty_dealt(work)
    if result == "lost":
        # Plunder goes back to the vault on a loss; on a win it is treated as loot (loot.awarded from plunder).
        work.empty(zones.PLUNDER, zones.VAULT)
    dead_cards: dict[str, dict[str, int]] = {}
    characters = state.characters.copy()
    for character_id in scenario.party:
        character = characters[character_id]
        deck = character_key(character_id, "deck")
        target = deck if character.alive else zones.SET_ASIDE
        owned: dict[str, int] = {}
        for zone in CHARACTER_ZONES:
            key = character_key(character_id, zone)
            if key == target:
                continue  # A living character's deck stays as it is; only the dead's cards are counted.
            for name, count in work.gather(key, target).items():
                owned[name] = owned.get(name, 0) + count
        if not character.alive:
            # The other characters may take a dead character's cards when they rebuild; the rest go to the vault.
            dead_cards[character_id] = owned
            characters[character_id] = msgspec.structs.replace(character, has_deck=False, location=None)
        elif character.location is not None:
            characters[character_id] = msgspec.structs.replace(character, location=None)
    completed = list(state.completed)
    path_completed = state.path_completed
    rewardable: list[str] = []
    if result == "won":
        if scenario.name not in completed:
            completed.append(scenario.name)
            rewardable.append(scenario.name)
        adventure = state.adventure
        if (
            adventure is not None
            and scenario.adventure == adventure.name
            and adventure.name not in completed
            and len(adventure.scenarios) >= adventure.size
            and all(name in completed for name in adventure.scenarios)
        ):
            completed.append(adventure.name)
            rewardable.append(adventure.name)
            if adventure.number >= 1:
                path_completed = [*path_completed, adventure.name]
            if adventure.number == LAST_ADVENTURE and ADVENTURE_PATH not in completed:
                # "If you're playing an Adventure Path and you successfully complete all of the adventures, you
                # earn the reward on the Adventure Path card" (Ending a Scenario, Adventure, or Adventure Path).
                completed.append(ADVENTURE_PATH)
                rewardable.append(ADVENTURE_PATH)
    fleet = msgspec.structs.replace(state.fleet, current=None, wrecked=False, anchored=None)
    return work.commit(
        scenario=None,
        characters=characters,
        completed=completed,
        path_completed=path_completed,
        rewardable=rewardable,
        rewarded_party=list(scenario.party) if rewardable else [],
        reward_feats={},
        dead_cards=dead_cards,
        fleet=fleet,
        owed=None,
        imagined={},
        deck_order={},
    )


def _empty_dealt(work: Work) -> None:
    known, hidden = work.pile(zones.DEALT)
    for name, count in list(known.items()):
        for _ in range(count):
            work.move(zones.DEALT, zones.VAULT, name)
    for label, count in list(hidden.items()):
        work.add_hidden(zones.DEALT, label, -count)
        work.vault_put_face_down(label, count)
