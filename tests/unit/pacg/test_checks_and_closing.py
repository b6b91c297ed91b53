"""Checks that decide an encounter, and the henchmen's printed closing opportunities, read as data.

Skull & Shackles Rulebook, Attempting a Check (sequential checks: "then"; only the character who encounters the card
may attempt the check, other checks by any one character at the same location); Encountering a Villain ("This
encounter works exactly as it does with other banes"); Closing a Location (New: Henchmen and Closing Locations).
Skull & Shackles Ships and Henchmen notes: Pirate Shade Haunt, Enemy Ship, Dominator, Sanbalot.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings, strategies as st

from quartermaster.projections.pacg import GAME
from quartermaster.service.application.catalog import pacg as catalogue
from quartermaster.service.application.catalog.powers import read_ship
from tests.unit.pacg.pacg_world import BOX, HANDS, SCENARIO, SETUP, START, fold, move, rejection, zone

SHARK = zone("location", location="Shark Island")
ENCOUNTER = zone("encounter")
CATALOGUE = catalogue.load()


def ev(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "data": data}


def check(who: str, face: int, difficulty: int) -> dict[str, Any]:
    return ev(
        "dice.rolled",
        character_id=who,
        purpose="check",
        dice=[{"sides": 12, "face": face}],
        total=face,
        difficulty=difficulty,
    )


def explore(name: str, who: str = "merisiel") -> dict[str, Any]:
    found = move(name, "reveal", SHARK, ENCOUNTER)
    found["data"]["explorer"] = who
    return found


def henchman(name: str) -> dict[str, Any]:
    return next(c for c in CATALOGUE["products"]["products"]["B"]["cards"] if c["name"] == name)


def meeting(name: str, *extra_cards: dict[str, Any], henchmen: tuple[str, ...] = ("Buccaneer",)) -> Any:
    """Merisiel's turn at Shark Island (Valeros there too), and she meets `name` from its deck."""
    setup = [ev("vault.products_added", product="B", cards=[*BOX, *extra_cards]), *SETUP[1:]]
    started = {**START[0], "data": {**START[0]["data"], "henchmen": list(henchmen)}}
    return fold(*setup, started, *START[1:], *HANDS, ev("hourglass.advanced", character_id="merisiel"), explore(name))


DEFEATED = ev("encounter.ended", card="Dire Rat", outcome="defeated")
UNDEFEATED = ev("encounter.ended", card="Dire Rat", outcome="undefeated")


def test_a_failed_check_then_a_successful_one_leaves_the_outcome_to_the_table():
    # A reroll replaces the failure (defeated), sequential checks need both (undefeated): the log cannot tell which.
    state = fold(check("merisiel", 2, 6), check("merisiel", 9, 6), state=meeting("Dire Rat"))
    assert fold(DEFEATED, state=state) and fold(UNDEFEATED, state=state)
    # A single check still decides
    once = fold(check("merisiel", 9, 6), state=meeting("Dire Rat"))
    assert rejection(once, UNDEFEATED).startswith("Merisiel's check to defeat Dire Rat succeeded")


def test_a_sequential_check_failed_by_another_character_there_may_leave_the_card_undefeated():
    state = fold(check("merisiel", 9, 6), check("valeros", 1, 8), state=meeting("Dire Rat"))
    assert fold(UNDEFEATED, state=state) and fold(DEFEATED, state=state)
    # Another character's success never decides for the one who encountered the card
    helped = fold(check("merisiel", 1, 6), check("valeros", 12, 8), state=meeting("Dire Rat"))
    assert rejection(helped, DEFEATED).startswith("Merisiel's check to defeat Dire Rat failed")


def test_a_villains_outcome_follows_the_check_logged_against_it():
    base = fold(
        *SETUP,
        SCENARIO,
        ev("plunder.stashed", roll=1),
        ev("character.moved", character_id="merisiel", to="Shark Island"),
        ev("character.moved", character_id="valeros", to="Tempest Cay"),
        ev("hourglass.advanced", character_id="merisiel"),
        explore("Jemma Redclaw"),
    )
    failed = fold(check("merisiel", 1, 11), state=base)
    defeated = ev("encounter.ended", card="Jemma Redclaw", outcome="defeated")
    assert rejection(failed, defeated).startswith("Merisiel's check to defeat Jemma Redclaw failed (1 against")
    assert fold(ev("encounter.ended", card="Jemma Redclaw", outcome="undefeated"), state=failed)
    assert fold(defeated, state=fold(check("merisiel", 12, 11), state=base))


def test_a_henchman_that_lets_its_location_close_when_encountered_does_so_at_once():
    haunt = {**henchman("Pirate Shade Haunt"), "count": 1}
    assert [p["kind"] for p in haunt["powers"]] == ["by_hand", "close_when_encountered"]
    state = meeting("Pirate Shade Haunt", haunt, henchmen=("Pirate Shade Haunt",))
    assert state.scenario.may_close == ["Shark Island"]
    closing = ev("location.closed", location="Shark Island", by="merisiel", how="henchman")
    closed = fold(closing, state=state)
    assert closed.scenario.places["Shark Island"].closed
    # A henchman whose card says nothing of closing gives no such opportunity when met
    quiet = {**haunt, "name": "Quiet Haunt", "powers": [{"kind": "by_hand", "text": "Display it."}]}
    unmet = meeting("Quiet Haunt", quiet, henchmen=("Quiet Haunt",))
    assert rejection(unmet, closing).startswith("Shark Island cannot close for a henchman")


def test_an_enemy_ship_defeated_with_its_summoned_ship_lets_its_location_close():
    enemy = {**henchman("Enemy Ship"), "count": 1}
    assert [p["kind"] for p in enemy["powers"]] == ["by_hand", "close_when_defeated"]
    state = fold(ev("ship.encountered", ship="Raider"), state=meeting("Enemy Ship", enemy, henchmen=("Enemy Ship",)))
    won = fold(
        ev("ship.defeated", ship="Raider"), ev("encounter.ended", card="Enemy Ship", outcome="defeated"), state=state
    )
    assert won.scenario.may_close == ["Shark Island"]
    lost = fold(
        ev("ship.evaded", ship="Raider"), ev("encounter.ended", card="Enemy Ship", outcome="undefeated"), state=state
    )
    assert lost.scenario.may_close == []


def test_the_ships_seizing_and_plunder_limits_are_read_as_data():
    ships = {ship["name"]: ship for ship in CATALOGUE["ships"]["ships"]}
    dominator = [p["kind"] for p in read_ship(ships["Dominator"])]
    assert "cannot_be_seized" in dominator
    sanbalot = [p for p in read_ship(ships["Sanbalot"]) if p["kind"] == "plunder_limit"]
    assert [(p["amount"], p["when"]) for p in sanbalot] == [(3, "commanding")]


# The wordings the fold applies: a card text holding one is never left to the table.
APPLIED_WORDINGS = {
    "may not be evaded": "may_not_be_evaded",
    "cannot be seized": "cannot_be_seized",
    "you may immediately attempt to close the location this henchman came from": "close_when_",
    "exchange it for the ship": "exchange_when_wrecked",
    "plunder cards under it": "plunder_limit",
    "stash a random": "stash_instead",
}


def _texts() -> list[tuple[str, list[str], list[dict[str, Any]]]]:
    """Every card whose text the catalogue holds: its printed texts and the powers the catalogue serves for it."""
    raw_ships = json.loads((catalogue.FOLDER / "ships.json").read_text())["ships"]
    raw_products = json.loads((catalogue.FOLDER / "products.json").read_text())["products"]
    raw_cards = json.loads((catalogue.FOLDER / "cards.json").read_text())["cards"]
    found = []
    for ship in raw_ships:
        texts = [t for field in ("when_encountering", "when_commanding", "when_wrecked") for t in ship.get(field, [])]
        found.append((ship["name"], texts, CATALOGUE["by"]["ship"][ship["name"]]["powers"]))
    for letter, product in raw_products.items():
        for card in product["cards"]:
            if card.get("powers_text"):
                cards = CATALOGUE["products"]["products"][letter]["cards"]
                served = next(c for c in cards if c["name"] == card["name"])
                found.append((card["name"], card["powers_text"], served["powers"]))
    for card in raw_cards:
        if card.get("powers_text"):
            found.append((card["name"], card["powers_text"], CATALOGUE["by"]["card"][card["name"]]["powers"]))
    return found


def test_every_card_text_the_catalogue_holds_is_applied_as_data_or_listed_by_hand():
    cards = _texts()
    assert len(cards) > 25
    for name, texts, served in cards:
        assert sorted({p["text"] for p in served}) == sorted(set(texts)), name
        for text in texts:
            kinds = [p["kind"] for p in served if p["text"] == text]
            assert kinds, f"{name}: {text!r} is neither applied nor listed by hand"
            for wording, kind in APPLIED_WORDINGS.items():
                if wording in text.lower():
                    assert any(k.startswith(kind) for k in kinds), f"{name}: {text!r} is read as {kinds}"
            # A text the fold applies only in part is still listed for the table to do the rest
            if ";" in text and "close the location" in text:
                assert "by_hand" in kinds, name


def test_a_barrier_henchman_that_may_be_banished_when_undefeated_is_banished():
    # The Shipwreck: "If undefeated, you may banish this barrier." (the card wins: The Golden Rule)
    shipwreck = {**henchman("Shipwreck"), "count": 1}
    assert [p["kind"] for p in shipwreck["powers"]] == [
        "difficulty",
        "banish_when_undefeated",
        "close_when_defeated",
        "by_hand",
    ]
    state = fold(check("merisiel", 1, 5), state=meeting("Shipwreck", shipwreck, henchmen=("Shipwreck",)))
    assert fold(UNDEFEATED_OF("Shipwreck"), move("Shipwreck", "banish", ENCOUNTER, zone("vault")), state=state)
    rat = fold(check("merisiel", 1, 5), state=meeting("Dire Rat"))
    assert rejection(rat, UNDEFEATED, move("Dire Rat", "banish", ENCOUNTER, zone("vault"))).startswith(
        "Dire Rat is undefeated: an undefeated bane is shuffled back"
    )


def UNDEFEATED_OF(name: str) -> dict[str, Any]:  # noqa: N802 - reads as the event it builds
    return ev("encounter.ended", card=name, outcome="undefeated")


def test_a_ships_own_power_raises_the_difficulty_of_the_check_to_defeat_it():
    wormwood = CATALOGUE["by"]["ship"]["Wormwood"]
    started = {**START[0], "data": {**START[0]["data"], "number": 1}}
    state = fold(
        *SETUP,
        started,
        *START[1:],
        *HANDS,
        ev("hourglass.advanced", character_id="merisiel"),
        ev("ship.encountered", ship="Wormwood", ship_card=wormwood),
    )
    # Printed Wisdom or Survival 7, raised by twice the adventure deck number: 9 in adventure deck 1
    view = GAME.views["fleet"].read(state)["encountering"]
    assert view["difficulty_raised_by"] == 2
    low = ev(
        "dice.rolled",
        character_id="merisiel",
        purpose="check",
        skill="Wisdom",
        dice=[{"sides": 12, "face": 9}],
        total=9,
        difficulty=8,
    )
    assert rejection(state, low).startswith(
        "The check to defeat the Wormwood is Dexterity or Acrobatics 9, or Wisdom or Survival 7, raised by 2 in a "
        "scenario of adventure deck 1"
    )
    assert rejection(state, low).endswith("its difficulty is at least 9, not 8.")
    assert fold({**low, "data": {**low["data"], "difficulty": 9}}, state=state).scenario.ship_met.success is True


def test_a_scenario_the_catalogue_knows_uses_the_locations_listed_for_the_partys_size_without_typing_its_card():
    # Setting Up: Set Out the Locations. The catalogue knows Dangerous Waters' five locations for three players.
    expanded = catalogue.expand(CATALOGUE, "scenario.started", {"scenario": "Dangerous Waters", "locations": []})
    assert expanded["listed_locations"] == {
        "3": ["Cannibal Isle", "Fog Bank", "Raker Shoals", "Shipwreck Graveyard", "Tempest Cay"]
    }
    # Two players here: the two listed for two are used, and no other
    listed = {"2": ["Shark Island", "Tempest Cay"], "3": ["Shark Island", "Tempest Cay", "Fog Bank"]}
    started = {**SCENARIO, "data": {**SCENARIO["data"], "listed_locations": listed}}
    assert fold(*SETUP, started).scenario.places.keys() == {"Shark Island", "Tempest Cay"}
    wrong = {**SCENARIO, "data": {**SCENARIO["data"], "listed_locations": {"2": ["Shark Island", "Fog Bank"]}}}
    assert rejection(fold(*SETUP), wrong) == (
        "The scenario card of Island Hopping lists Shark Island and Fog Bank for 2 players, not Shark Island and "
        "Tempest Cay."
    )
    # A party size the catalogue does not know leaves the table's locations alone
    other = {**SCENARIO, "data": {**SCENARIO["data"], "listed_locations": {"3": ["Fog Bank"]}}}
    assert fold(*SETUP, other).scenario.places.keys() == {"Shark Island", "Tempest Cay"}


def test_a_card_another_character_summons_and_encounters_is_hers_to_acquire():
    # Summoning and Adding Cards: an effect may have several characters summon and encounter cards.
    summoned = move("Dagger", "summon", zone("vault"), ENCOUNTER)
    summoned["data"]["encountered_by"] = "valeros"
    state = fold(summoned, state=meeting("Dire Rat"))
    assert state.scenario.encounters[-1].character_id == "valeros"
    assert fold(move("Dagger", "acquire", ENCOUNTER, zone("hand", "valeros")), state=state)
    assert rejection(state, move("Dagger", "acquire", ENCOUNTER, zone("hand", "merisiel"))).startswith(
        "Valeros encountered Dagger: only the character who encounters a card may acquire it, not Merisiel"
    )
    # Summoned with no one named (a location's When Closing, for whoever closes it): the check's roller is the one
    unnamed = fold(
        move("Dagger", "summon", zone("vault"), ENCOUNTER), check("valeros", 9, 6), state=meeting("Dire Rat")
    )
    assert fold(move("Dagger", "acquire", ENCOUNTER, zone("hand", "valeros")), state=unnamed)
    assert rejection(unnamed, move("Dagger", "acquire", ENCOUNTER, zone("hand", "merisiel"))).startswith(
        "Valeros encountered Dagger"
    )


def test_a_character_moves_once_in_her_own_move_step_and_otherwise_only_by_a_card():
    # Your Turn: Move ("You may move your token card to another location"); Commanding and Moving Ships.
    state = fold(*SETUP, *START, *HANDS, ev("hourglass.advanced", character_id="merisiel"))
    moved = fold(ev("character.moved", character_id="merisiel", to="Tempest Cay"), state=state)
    again = ev("character.moved", character_id="merisiel", to="Shark Island")
    assert rejection(moved, again).startswith("Merisiel has already moved this turn: the Move step moves her once")
    assert fold({**again, "data": {**again["data"], "by_power": True}}, state=moved)
    other = ev("character.moved", character_id="valeros", to="Tempest Cay")
    assert rejection(state, other).startswith(
        "It is Merisiel's turn: Valeros moves in Valeros's own Move step (Your Turn: Move)"
    )
    assert fold({**other, "data": {**other["data"], "by_power": True}}, state=state)
    sailing = ev("character.moved", character_id="merisiel", to="Tempest Cay", moved_with=["valeros"])
    assert fold(sailing, state=state).characters["valeros"].location == "Tempest Cay"


def test_a_card_still_encountered_is_resolved_before_exploring_resetting_or_the_next_turn():
    # Things to Keep in Mind: Finish One Thing Before You Start Something Else.
    state = meeting("Dire Rat")
    again = explore("Dagger")
    again["data"]["explore_again"] = True
    reset = ev("hand.reset", character_id="merisiel", kept=True)
    turn = ev("hourglass.advanced", character_id="valeros")
    for event in (again, reset, turn):
        assert rejection(state, event).startswith("Dire Rat is still being encountered: finish one thing before")
    over = fold(check("merisiel", 9, 6), DEFEATED, move("Dire Rat", "banish", ENCOUNTER, zone("vault")), state=state)
    assert fold(again, state=over) and fold(reset, turn, state=over)
    # A card summoned during the encounter is part of it
    assert fold(move("Dagger", "summon", zone("vault"), ENCOUNTER), state=state)


def test_only_the_character_who_defeated_the_henchman_attempts_the_closing_it_allows():
    # Things to Keep in Mind: "If Lirianne defeats a henchman at the Sea Fort, Valeros can't banish an armor to close
    # the location."
    state = fold(
        check("merisiel", 9, 6),
        ev("encounter.ended", card="Buccaneer", outcome="defeated"),
        move("Buccaneer", "banish", ENCOUNTER, zone("vault")),
        state=meeting("Buccaneer"),
    )
    by_valeros = ev("location.closed", location="Shark Island", by="valeros", how="henchman")
    assert rejection(state, by_valeros).startswith(
        "Merisiel earned the chance to close Shark Island: only she attempts it, not Valeros"
    )
    assert fold(ev("location.closed", location="Shark Island", by="merisiel", how="henchman"), state=state)


def test_other_locations_close_temporarily_before_the_villains_check_not_after():
    base = fold(
        *SETUP,
        SCENARIO,
        ev("plunder.stashed", roll=1),
        ev("character.moved", character_id="merisiel", to="Shark Island"),
        ev("character.moved", character_id="valeros", to="Tempest Cay"),
        ev("hourglass.advanced", character_id="merisiel"),
        explore("Jemma Redclaw"),
    )
    closing = ev("location.closed", location="Tempest Cay", by="valeros", temporary=True)
    assert fold(closing, state=base)
    assert rejection(fold(check("merisiel", 12, 11), state=base), closing).startswith(
        "Tempest Cay is closed temporarily before the villain's check, not after it"
    )


def test_a_ship_is_awarded_after_the_scenario_not_during_it():
    state = fold(*SETUP, *START)
    assert rejection(state, ev("ship.awarded", ship="Truewind")).startswith(
        "The party is rewarded with a ship after the scenario, not during Island Hopping"
    )
    assert fold(ev("ship.awarded", ship="Truewind"), state=fold(*SETUP)).fleet.checked == ["Merchantman", "Truewind"]


def test_a_villain_encounter_wins_only_when_the_villain_is_defeated_and_cornered():
    # Encountering a Villain: If the Villain Has Nowhere to Escape to, You Win!
    base = fold(
        *SETUP,
        SCENARIO,
        ev("plunder.stashed", roll=1),
        ev("character.moved", character_id="merisiel", to="Shark Island"),
        ev("character.moved", character_id="valeros", to="Tempest Cay"),
        ev("hourglass.advanced", character_id="merisiel"),
        explore("Jemma Redclaw"),
    )
    won = ev("scenario.ended", result="won")
    failed = fold(check("merisiel", 1, 11), state=base)
    assert rejection(failed, won).startswith("Jemma Redclaw was undefeated at Shark Island: the party wins when")
    beaten = fold(check("merisiel", 12, 11), state=base)
    assert rejection(beaten, won).startswith("Jemma Redclaw was defeated but can still escape to Tempest Cay")
    cornered = fold(
        ev("location.closed", location="Tempest Cay", by="valeros", temporary=True),
        check("merisiel", 12, 11),
        state=base,
    )
    assert fold(won, state=cornered).scenario is None


# -- every card type and every check result: exactly the outcomes the rulebook allows -------------------------------

EVERY_TYPE = {
    "monster": "Dire Rat",
    "barrier": "Dead Man's Chest",
    "henchman": "Buccaneer",
    "weapon": "Dagger",
    "spell": "Cure",
    "armor": "Leather Armor",
    "item": "Rum Bottle",
    "ally": "Sailor",
    "blessing": "Blessing of the Gods",
    "loot": "Sea Devil's Sabre",
}
BANES = ("monster", "barrier", "henchman")


def _allowed(card_type: str, result: bool | None) -> set[str]:
    """The rulebook's table: a bane is defeated on a success, undefeated on a failure, evaded only before any check
    (Encountering a Card; Attempting a Check); a boon acquired on a success, banished on a failure or when no check is
    attempted, evaded only before the check (Your Turn: Explore); a loot card met in a location is acquired."""
    if card_type == "loot":
        # No check to acquire: met in a location, it is acquired, unless a power evades it first.
        return {"acquired", "evaded"} if result is None else {"acquired"}
    if card_type in BANES:
        return {"defeated", "undefeated", "evaded"} if result is None else {"defeated" if result else "undefeated"}
    return {"acquired", "not acquired", "evaded"} if result is None else {"acquired" if result else "not acquired"}


def _ways(name: str) -> dict[str, list[dict[str, Any]]]:
    ended = {o: ev("encounter.ended", card=name, outcome=o) for o in ("defeated", "undefeated", "evaded")}
    return {
        "defeated": [ended["defeated"], move(name, "banish", ENCOUNTER, zone("vault"))],
        "undefeated": [ended["undefeated"], move(name, "shuffle", ENCOUNTER, SHARK)],
        "evaded": [ended["evaded"], move(name, "shuffle", ENCOUNTER, SHARK)],
        "acquired": [move(name, "acquire", ENCOUNTER, zone("hand", "merisiel"))],
        "not acquired": [move(name, "banish", ENCOUNTER, zone("vault"))],
    }


def _every_type_met(card_type: str) -> Any:
    deck = {t: 1 for t in EVERY_TYPE if t not in ("henchman",)}
    started = {
        **START[0],
        "data": {
            **START[0]["data"],
            "locations": [{"name": "Shark Island", "deck": deck}, START[0]["data"]["locations"][1]],
        },
    }
    return fold(
        *SETUP,
        started,
        *START[1:],
        *HANDS,
        ev("hourglass.advanced", character_id="merisiel"),
        explore(EVERY_TYPE[card_type]),
    )


def _accepted(state: Any, events: list[dict[str, Any]]) -> bool:
    try:
        fold(*events, state=state)
    except Exception as refused:  # noqa: BLE001 - any refusal, rule or integrity
        if type(refused).__name__ in ("RuleBroken", "Rejection"):
            return False
        raise
    return True


@settings(max_examples=60, deadline=None)
@given(card_type=st.sampled_from(sorted(EVERY_TYPE)), result=st.sampled_from([None, True, False]))
def test_for_every_card_type_and_check_result_the_rulebooks_outcomes_and_no_others_are_accepted(card_type, result):
    state = _every_type_met(card_type)
    if result is not None:
        state = fold(check("merisiel", 9 if result else 1, 5), state=state)
    allowed = _allowed(card_type, result)
    for outcome, events in _ways(EVERY_TYPE[card_type]).items():
        if card_type in BANES and outcome == "not acquired":
            continue  # A bane banished with no encounter.ended is the table's short way to log its defeat.
        assert _accepted(state, events) == (outcome in allowed), (card_type, result, outcome)


def test_the_fleet_view_lists_the_party_ships_powers_the_table_applies_by_hand():
    thresher = CATALOGUE["by"]["ship"]["Thresher"]
    started = {**START[0], "data": {**START[0]["data"], "ship": "Thresher", "ship_card": thresher}}
    state = fold(*SETUP, ev("ship.awarded", ship="Thresher", ship_card=thresher), started, *START[1:])
    view = GAME.views["fleet"].read(state)
    # Its Structural damage reduction is applied by the fold; its start-of-turn power is the table's
    assert view["by_hand"] == [
        "At the start of your turn, you may discard a card from the blessings deck to recharge any number of cards "
        "and draw that number of cards."
    ]


def test_a_henchmans_own_power_raises_the_difficulty_of_the_check_to_defeat_it():
    # The Hammerhead Shark: Combat 9, "increased by the adventure deck number of the current scenario, if any".
    shark = {**henchman("Hammerhead Shark"), "count": 1}
    assert shark["to_defeat"] == "Combat 9"
    setup = [ev("vault.products_added", product="B", cards=[*BOX, shark]), *SETUP[1:]]
    started = {**START[0], "data": {**START[0]["data"], "number": 2, "henchmen": ["Hammerhead Shark"]}}
    state = fold(*setup, started, *START[1:], *HANDS, ev("hourglass.advanced", character_id="merisiel"))
    state = fold(explore("Hammerhead Shark"), state=state)
    assert GAME.views["turn"].read(state)["encounter"]["difficulty_raised_by"] == 2
    assert rejection(state, check("merisiel", 10, 9)).startswith(
        "The check to defeat Hammerhead Shark is Combat 9, raised by 2 in a scenario of adventure deck 2"
    )
    assert fold(check("merisiel", 10, 11), state=state).scenario.encounters[-1].success is False


def test_an_enemy_ships_encounter_is_resolved_before_exploring_or_resetting():
    state = fold(
        ev("ship.encountered", ship="Truewind"),
        state=fold(*SETUP, *START, *HANDS, ev("hourglass.advanced", character_id="merisiel")),
    )
    reset = ev("hand.reset", character_id="merisiel", kept=True)
    assert rejection(state, reset).startswith("The Truewind is still being encountered: finish one thing")
    assert fold(ev("ship.evaded", ship="Truewind"), reset, state=state)


def test_once_her_hand_is_reset_the_active_character_plays_no_more_cards():
    # Your Turn: Reset Your Hand ("you may no longer play cards or use powers for the rest of the turn").
    state = fold(*SETUP, *START, *HANDS, ev("hourglass.advanced", character_id="merisiel"))
    recharge = move("Dagger", "recharge", zone("hand", "merisiel"), zone("deck", "merisiel"))
    assert fold(recharge, state=state)
    reset = fold(ev("hand.reset", character_id="merisiel", hand_size=3), state=state)
    assert rejection(reset, recharge).startswith("Merisiel has reset her hand: after the end-of-turn effects")
    assert fold(move("Dagger", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")), state=reset)
