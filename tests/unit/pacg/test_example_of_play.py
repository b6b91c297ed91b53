"""The rulebook's Example of Play, Dangerous Waters, folded event by event, ends in the states the text describes."""

import pytest

from quartermaster.projections.pacg import GAME
from quartermaster.service.application.catalog import pacg as catalog_module
from tests.unit.pacg import example_of_play as example
from tests.unit.pacg.pacg_world import fold, from_payload

CATALOG = catalog_module.load()


def expanded(payloads):
    return [{"type": p["type"], "data": catalog_module.expand(CATALOG, p["type"], p["data"])} for p in payloads]


def played(*parts):
    events = [from_payload(p) for p in expanded([p for part in parts for p in part])]
    return fold(*events, options=example.OPTIONS)


@pytest.fixture(scope="module")
def end():
    return played(example.PAYLOADS)


def view(state, name, **params):
    return GAME.views[name].read(state, **params)


def test_setting_up_places_the_merchantman_with_a_face_down_spell_and_the_tokens():
    state = played(example.SETTING_UP)
    assert view(state, "fleet")["current"] == "Merchantman"
    assert view(state, "fleet")["plunder_by_type"] == {"spell": 1}
    scenario = view(state, "scenario")
    assert scenario["characters"] == {
        "lirianne": {"location": "Cannibal Isle", "alive": True},
        "seltyiel": {"location": "Fog Bank", "alive": True},
        "alahazra": {"location": "Fog Bank", "alive": True},
    }
    assert view(state, "character", character_id="lirianne")["counts"]["hand"] == 4
    assert view(state, "character", character_id="alahazra")["counts"]["hand"] == 6
    seltyiel = view(state, "character", character_id="seltyiel")
    assert seltyiel["counts"] == {"buried": 0, "deck": 10, "discard": 0, "displayed": 0, "hand": 5, "recovery": 0}
    assert "Force Missile" in seltyiel["zones"]["hand"]


def test_after_lilys_first_turn_raker_shoals_is_closed_and_the_ship_whole():
    state = played(example.SETTING_UP, example.LILYS_FIRST_TURN)
    locations = {loc["name"]: loc for loc in view(state, "scenario")["locations"]}
    assert locations["Raker Shoals"]["status"] == "closed" and locations["Raker Shoals"]["cards"] == 0
    assert view(state, "fleet")["wrecked"] is False
    lirianne = view(state, "character", character_id="lirianne")
    assert lirianne["counts"]["hand"] == 4 and lirianne["location"] == "Raker Shoals"
    assert lirianne["zones"]["discard"] == {
        "Cat-o'-Nine-Tails": 1, "Leather Armor": 1, "Master Gunner": 1, "Pistol": 1, "Rum Bottle": 1, "Speed": 1,
    }  # fmt: skip
    seltyiel = view(state, "character", character_id="seltyiel")
    assert seltyiel["zones"]["discard"] == {"Quartermaster": 1}
    assert seltyiel["zones"]["deck"]["Force Missile"] == 1


def test_after_sams_turn_seltyiel_holds_the_cutlass_plus_one_at_the_shipwreck_graveyard():
    state = played(example.SETTING_UP, example.LILYS_FIRST_TURN, example.SAMS_FIRST_TURN)
    seltyiel = view(state, "character", character_id="seltyiel")
    assert seltyiel["zones"]["hand"]["Cutlass +1"] == 1 and seltyiel["counts"]["hand"] == 5
    assert view(state, "character", character_id="alahazra")["location"] == "Shipwreck Graveyard"


def test_the_villain_escapes_to_one_of_two_locations_and_the_graveyard_reopens(end):
    locations = {loc["name"]: loc for loc in view(end, "scenario")["locations"]}
    assert {name: loc["status"] for name, loc in locations.items()} == {
        "Cannibal Isle": "closed",
        "Fog Bank": "open",
        "Raker Shoals": "closed",
        "Shipwreck Graveyard": "open",
        "Tempest Cay": "open",
    }
    # Jemma and one blessing from the vault were shuffled and dealt to the Fog Bank and Tempest Cay.
    assert locations["Fog Bank"]["face_down"]["dealt"] == 2  # its own Buccaneer was never found
    assert locations["Tempest Cay"]["face_down"]["dealt"] == 2
    assert end.zones["dealt"].known == {"Buccaneer": 3, "Jemma Redclaw": 1}
    assert end.zones["dealt"].hidden == {"blessing": 1}
    assert locations["Shipwreck Graveyard"]["known"] == {"Sea Drake": 1}


def test_the_lost_plunder_went_back_to_the_vault_and_the_repaired_ship_sails_on(end):
    fleet = view(end, "fleet")
    assert fleet == {
        "checked": ["Merchantman"],
        "current": "Merchantman",
        "wrecked": False,
        "anchored": None,
        "plunder": 0,
        "plunder_by_type": {},
        "plunder_known": {},
        "ships": {
            "Merchantman": fleet["ships"]["Merchantman"],
            "Shackles Pirate Ship": fleet["ships"]["Shackles Pirate Ship"],
        },
        "powers": [
            "When you would roll for plunder, you may discard a card from the blessings deck to choose the "
            "type of plunder card instead."
        ],
        # The Merchantman's power is one the table applies itself.
        "by_hand": [
            "When you would roll for plunder, you may discard a card from the blessings deck to choose the "
            "type of plunder card instead."
        ],
        "encountering": None,
    }
    assert view(end, "vault")["cards"]["Find Traps"] == 1


def test_at_the_end_the_hourglass_has_turned_four_times(end):
    scenario = view(end, "scenario")
    assert scenario["hourglass"]["left"] == 26
    assert scenario["hourglass"]["discards_known"] == {
        "Blessing of Abadar": 1, "Blessing of Cayden Cailean": 1, "Blessing of the Gods": 2,
    }  # fmt: skip
    assert scenario["turn"] == "lirianne" and scenario["turns"] == 4
    assert scenario["characters"] == {
        "lirianne": {"location": "Raker Shoals", "alive": True},
        "seltyiel": {"location": "Shipwreck Graveyard", "alive": True},
        "alahazra": {"location": "Cannibal Isle", "alive": True},
    }


def test_at_the_end_each_character_holds_what_the_text_leaves_in_hand(end):
    assert view(end, "character", character_id="lirianne")["zones"]["hand"] == {"Powder Horn": 1}
    assert view(end, "character", character_id="seltyiel")["zones"]["hand"] == {
        "Boarding Axe": 1, "Cutlass +1": 1, "Mace": 1, "Pearl of Wisdom": 1,
    }  # fmt: skip
    alahazra = view(end, "character", character_id="alahazra")
    assert alahazra["counts"]["hand"] == 6 and alahazra["zones"]["hand"]["Blessing of the Gods"] == 4


def test_no_card_was_created_or_lost(end):
    from tests.unit.pacg.pacg_world import census

    boxed = {}
    for entry in example.BOX:
        boxed[entry["type"]] = boxed.get(entry["type"], 0) + entry["count"]
    assert census(end) == boxed
