"""Ships and plunder: the fleet card, Structural damage, wrecks, repairs, seizing, and plunder won or lost."""

from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import HANDS, SCENARIO, SETUP, START, draw, fold, move, rejection, zone

fleet_view = GAME.views["fleet"].read


def playing():
    return fold(*SETUP, *START)


def damaged(amount, prevented=0, **extra):
    return {"type": "ship.damaged", "data": {"amount": amount, "prevented": prevented, **extra}}


def advance(who):
    return {"type": "hourglass.advanced", "data": {"character_id": who}}


def test_the_party_sails_the_merchantman_with_one_plunder_stashed_at_setup():
    view = fleet_view(playing())
    assert view["checked"] == ["Merchantman"] and view["current"] == "Merchantman"
    assert view["plunder"] == 1 and view["plunder_by_type"] == {"weapon": 1}


def test_the_plunder_roll_decides_the_type_and_six_lets_the_party_choose():
    state = fold(*SETUP, SCENARIO)
    assert rejection(state, {"type": "plunder.stashed", "data": {"roll": 2, "card_type": "ally"}}) == (
        "A 2 on the plunder table is a spell, not an ally."
    )
    assert rejection(state, {"type": "plunder.stashed", "data": {"roll": 6}}) == (
        "A 6 on the plunder table lets the party choose the type: give card_type."
    )
    assert rejection(state, {"type": "plunder.stashed", "data": {"roll": 7}}) == (
        "The plunder table is rolled on a d6; 7 is not a face of a d6."
    )
    state = fold({"type": "plunder.stashed", "data": {"roll": 6, "card_type": "armor"}}, state=state)
    assert fleet_view(state)["plunder_by_type"] == {"armor": 1}


def test_any_structural_damage_that_gets_through_wrecks_the_ship_whatever_the_amount():
    state = fold(damaged(1), state=playing())
    assert fleet_view(state)["wrecked"] is True


def test_structural_damage_prevented_by_discards_leaves_the_ship_whole():
    state = fold(draw("merisiel", "Dagger"), draw("valeros", "Longsword"), state=playing())
    state = fold(
        damaged(2, 2),
        move("Dagger", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")),
        move("Longsword", "discard", zone("hand", "valeros"), zone("discard", "valeros")),
        state=state,
    )
    assert fleet_view(state)["wrecked"] is False


def test_prevented_damage_must_be_discarded_before_anything_else():
    state = fold(draw("merisiel", "Dagger"), damaged(2, 1), state=playing())
    reason = rejection(state, advance("merisiel"))
    assert reason == "1 more card must first be discarded from hands to prevent the Structural damage just dealt."


def test_a_claimed_wreck_that_did_not_happen_is_rejected():
    reason = rejection(fold(draw("merisiel", "Dagger"), state=playing()), damaged(1, 1, wrecked=True))
    assert reason == "The Merchantman is not wrecked: all 1 Structural damage was prevented."
    reason = rejection(playing(), damaged(3, 0, wrecked=False))
    assert reason == (
        "The Merchantman is wrecked: any Structural damage that gets through wrecks a ship, whatever the amount."
    )


def test_damage_to_a_wrecked_ship_discards_that_many_cards_from_the_hourglass():
    state = fold(damaged(1), damaged(3), state=playing())
    view = GAME.views["scenario"].read(state)
    assert view["hourglass"]["left"] == 27 and view["hourglass"]["discards"] == 3


def test_a_wrecked_ship_cannot_stash_plunder():
    reason = rejection(fold(damaged(1), state=playing()), {"type": "plunder.stashed", "data": {"roll": 1}})
    assert reason == "The Merchantman is wrecked: no plunder can be stashed under a wrecked ship."


def test_a_wrecked_ship_loses_a_plunder_card_at_the_end_of_each_turn():
    state = fold(*HANDS, advance("merisiel"), damaged(1), state=playing())
    reason = rejection(state, advance("valeros"))
    assert reason == (
        "The Merchantman is wrecked: banish 1 random plunder card at the end of Merisiel's turn before the next "
        "turn starts."
    )
    state = fold(
        {"type": "plunder.banished", "data": {"card_type": "weapon", "card": "Cutlass"}},
        advance("valeros"),
        state=state,
    )
    assert fleet_view(state)["plunder"] == 0
    assert GAME.views["vault"].read(state)["face_down_out"].get("weapon", 0) == 1  # the location's weapon only


def test_repairing_a_ship_that_is_not_wrecked_is_rejected():
    assert rejection(playing(), {"type": "ship.repaired", "data": {}}) == (
        "The Merchantman is not wrecked; there is nothing to repair."
    )
    state = fold(
        advance("merisiel"),
        damaged(1),
        {"type": "ship.repaired", "data": {"character_id": "merisiel"}},
        state=playing(),
    )
    assert fleet_view(state)["wrecked"] is False


def ev(type_, **data):
    return {"type": type_, "data": data}


TRUEWIND = {"name": "Truewind", "set": "B", "ship_class": 1}
DOMINATOR = {
    "name": "Dominator",
    "set": "B",
    "ship_class": 6,
    "to_defeat": "Wisdom or Survival 8, or Dexterity or Ranged 11",
    "when_encountering": ["This ship cannot be seized."],
    "cannot_be_seized": True,
}


def test_only_the_commander_attempts_a_repair():
    # Given Merisiel's turn and a wrecked Merchantman (Skull & Shackles Rulebook, Wrecked Ships; Commanding and Moving Ships)
    state = fold(*HANDS, advance("merisiel"), damaged(1), state=playing())
    # When Valeros attempts the repair, then he is not commanding it
    assert rejection(state, ev("ship.repaired", character_id="valeros")) == (
        "Only the commander can attempt a repair: it is Merisiel's turn, so Merisiel commands the Merchantman, not "
        "Valeros."
    )


def test_the_repair_comes_at_the_start_of_the_move_step():
    state = fold(
        *HANDS,
        advance("merisiel"),
        damaged(1),
        ev("character.moved", character_id="merisiel", to="Tempest Cay"),
        state=playing(),
    )
    assert rejection(state, ev("ship.repaired")) == (
        "Merisiel has moved this turn: the commander attempts a repair at the start of the move step (Wrecked Ships)."
    )


def test_an_anchored_ship_is_commanded_only_at_its_location():
    state = fold(ev("ship.anchored", location="Tempest Cay"), *HANDS, advance("merisiel"), damaged(1), state=playing())
    assert rejection(state, ev("ship.repaired")) == (
        "The Merchantman is anchored at Tempest Cay and Merisiel is at Shark Island: Merisiel is not commanding it, "
        "so cannot attempt a repair."
    )


def test_seizing_a_ship_replaces_it_and_keeps_its_plunder_and_anchoring():
    state = fold(
        {"type": "ship.anchored", "data": {"location": "Shark Island"}},
        advance("merisiel"),
        damaged(1),
        ev("ship.encountered", ship="Truewind", ship_card=TRUEWIND),
        ev("ship.defeated", ship="Truewind"),
        {"type": "ship.seized", "data": {"ship": "Truewind", "ship_card": TRUEWIND}},
        state=playing(),
    )
    view = fleet_view(state)
    assert view["current"] == "Truewind" and view["wrecked"] is False
    assert view["anchored"] == "Shark Island" and view["plunder"] == 1
    assert view["checked"] == ["Merchantman"]


def test_plunder_becomes_loot_on_a_win_and_goes_back_to_the_vault_on_a_loss():
    lost = fold({"type": "scenario.ended", "data": {"result": "lost"}}, state=playing())
    assert fleet_view(lost)["plunder"] == 0 and lost.face_down_out == {}
    won = fold({"type": "scenario.ended", "data": {"result": "won"}}, state=playing())
    won = fold({"type": "loot.awarded", "data": {"card": "Cutlass", "to": "merisiel", "source": "plunder"}}, state=won)
    assert GAME.views["character"].read(won, character_id="merisiel")["zones"]["deck"]["Cutlass"] == 1
    assert won.face_down_out == {}


def test_a_plunder_card_must_be_of_a_type_that_is_under_the_ship():
    won = fold({"type": "scenario.ended", "data": {"result": "won"}}, state=playing())
    reason = rejection(won, {"type": "loot.awarded", "data": {"card": "Cure", "to": "merisiel", "source": "plunder"}})
    assert reason == "No spell plunder card is under the ship to turn out to be Cure."


def test_the_party_sails_only_a_checked_ship_or_a_promo_of_a_checked_class():
    data = dict(SCENARIO["data"], ship="Truewind")
    assert rejection(fold(*SETUP), {"type": "scenario.started", "data": data}) == (
        "The Truewind is not checked off on the fleet card (checked: Merchantman); the party sails only a checked "
        "ship, or a promo ship of a checked ship's class."
    )
    state = fold(
        *SETUP,
        {
            "type": "ship.awarded",
            "data": {"ship": "Truewind", "ship_card": {"name": "Truewind", "set": "B", "ship_class": 1}},
        },
        {
            "type": "scenario.started",
            "data": dict(
                SCENARIO["data"], ship="Promo Sloop", ship_card={"name": "Promo Sloop", "set": "P", "ship_class": 1}
            ),
        },
    )
    assert fleet_view(state)["current"] == "Promo Sloop"


def test_a_ship_is_checked_off_on_the_fleet_card_once():
    state = fold(*SETUP, {"type": "ship.awarded", "data": {"ship": "Truewind"}})
    assert fleet_view(state)["checked"] == ["Merchantman", "Truewind"]
    assert rejection(state, {"type": "ship.awarded", "data": {"ship": "Truewind"}}) == (
        "The Truewind is already checked off on the fleet card."
    )


def test_a_ship_that_cannot_be_seized_is_never_seized():
    # Given Merisiel defeats the Dominator, whose card says "This ship cannot be seized."
    state = fold(
        *HANDS,
        advance("merisiel"),
        ev("ship.encountered", ship="Dominator", ship_card=DOMINATOR),
        ev("ship.defeated", ship="Dominator"),
        state=playing(),
    )
    # When a card would seize it, then it is refused
    assert rejection(state, ev("ship.seized", ship="Dominator", ship_card=DOMINATOR)) == (
        'The Dominator cannot be seized: its card says "This ship cannot be seized."'
    )


def test_a_ship_is_seized_only_once_defeated():
    state = fold(
        *HANDS, advance("merisiel"), ev("ship.encountered", ship="Truewind", ship_card=TRUEWIND), state=playing()
    )
    assert rejection(state, ev("ship.seized", ship="Truewind")) == (
        "The party has not defeated the Truewind this turn: a card lets you seize a ship you defeat (Seizing Ships; "
        "ship.encountered, then ship.defeated)."
    )


def test_the_commander_encounters_an_enemy_ship_and_the_fleet_view_shows_its_powers():
    # Given Merisiel commanding the Merchantman (Encountering Ships)
    state = fold(
        *HANDS, advance("merisiel"), ev("ship.encountered", ship="Dominator", ship_card=DOMINATOR), state=playing()
    )
    # Then the fleet view shows the enemy ship and its When Encountering powers
    assert fleet_view(state)["encountering"] == {
        "ship": "Dominator",
        "to_defeat": "Wisdom or Survival 8, or Dexterity or Ranged 11",
        "powers": ["This ship cannot be seized."],
        "cannot_be_seized": True,
        "difficulty_raised_by": 0,
        "by_hand": [],
        "result": None,
    }
    # When she evades it, the encounter is over
    state = fold(ev("ship.evaded", ship="Dominator"), state=state)
    assert fleet_view(state)["encountering"] is None


def test_a_failed_check_against_a_ship_deals_structural_damage_and_ends_the_encounter():
    state = fold(
        *HANDS,
        advance("merisiel"),
        ev("ship.encountered", ship="Truewind", ship_card=TRUEWIND),
        damaged(2),
        state=playing(),
    )
    assert fleet_view(state)["wrecked"] is True and fleet_view(state)["encountering"] is None
    assert rejection(state, ev("ship.defeated", ship="Truewind")) == (
        "The commander is encountering no ship, so the Truewind cannot be defeated (ship.encountered first)."
    )


def test_a_character_not_commanding_banishes_the_ship_she_would_encounter():
    state = fold(*HANDS, advance("merisiel"), state=playing())
    assert rejection(state, ev("ship.encountered", ship="Truewind", character_id="valeros")) == (
        "Only the commander can encounter another ship: it is Merisiel's turn, so Merisiel commands the Merchantman, "
        "not Valeros. A ship anyone else would encounter is banished (ship.banished)."
    )
    fold(ev("ship.banished", ship="Truewind", character_id="valeros"), state=state)
    assert rejection(state, ev("ship.banished", ship="Truewind", character_id="merisiel")) == (
        "Merisiel commands the Merchantman: the commander encounters the Truewind (ship.encountered); only a "
        "character not commanding a ship banishes it."
    )


def _ship_check(face, difficulty=7, who="merisiel"):
    return ev(
        "dice.rolled",
        character_id=who,
        purpose="check to defeat",
        dice=[{"sides": 12, "face": face}],
        total=face,
        difficulty=difficulty,
    )


def test_a_ships_encounter_ends_as_the_check_logged_against_it_says():
    # Encountering Ships: much like a bane; a failed check deals the difference as Structural damage.
    met = fold(
        *HANDS, advance("merisiel"), ev("ship.encountered", ship="Truewind", ship_card=TRUEWIND), state=playing()
    )
    failed = fold(_ship_check(4), state=met)
    assert rejection(failed, ev("ship.defeated", ship="Truewind")).startswith(
        "Merisiel's check to defeat the Truewind failed (4 against a difficulty of 7): the Truewind is not defeated"
    )
    assert rejection(failed, ev("ship.evaded", ship="Truewind")).startswith(
        "Merisiel has already attempted the check to defeat the Truewind"
    )
    assert rejection(failed, damaged(2, dealt=2)).startswith(
        "The check to defeat the Truewind failed by 3 (4 against a difficulty of 7): it deals 3 Structural damage"
    )
    assert fleet_view(fold(damaged(3, dealt=3), state=failed))["wrecked"] is True
    passed = fold(_ship_check(9), state=met)
    assert rejection(passed, damaged(2)).startswith("Merisiel's check to defeat the Truewind succeeded (9 against")
    assert fold(ev("ship.defeated", ship="Truewind"), state=passed).scenario.defeated_ship == "Truewind"
    # A reroll or a second check that disagrees leaves the end to the table
    both = fold(_ship_check(9), state=failed)
    assert fold(ev("ship.defeated", ship="Truewind"), state=both) and fold(damaged(1), state=both)
    # Evading before any check is still allowed
    assert fold(ev("ship.evaded", ship="Truewind"), state=met)
