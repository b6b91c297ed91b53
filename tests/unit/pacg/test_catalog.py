"""The catalogue expands names into self-contained events that the fold accepts."""

import pytest

from quartermaster.service.application.catalog import CatalogError, pacg as catalog_module
from tests.unit.pacg.pacg_world import fold, from_payload

CATALOG = catalog_module.load()


def expand(type_, data):
    return {"type": type_, "data": catalog_module.expand(CATALOG, type_, data)}


def test_the_eleven_characters_of_the_suggested_deck_lists_are_in_the_catalogue():
    names = [c["name"] for c in CATALOG["characters"]["characters"]]
    assert len(names) == 11 and "Merisiel" in names and "Oloch" in names


def test_a_character_joins_by_id_with_her_card_filled_in():
    event = expand("character.joined", {"character_id": "lirianne", "player": "Lily"})
    assert event["data"]["name"] == "Lirianne"
    assert event["data"]["card"]["hand_size"] == 4
    assert event["data"]["card"]["cards_list"]["weapon"] == {"count": 4, "feats": []}
    assert from_payload(event).card.skills["Ranged"].modifier == 3


def test_a_suggested_deck_builds_from_the_expanded_base_set():
    merisiel = CATALOG["by"]["character"]["merisiel"]
    deck = [name for names in merisiel["suggested_deck"].values() for name in names]
    state = fold(
        expand("vault.products_added", {"product": "B"}),
        expand("character.joined", {"character_id": "merisiel", "player": "Ann"}),
        {"type": "deck.built", "data": {"character_id": "merisiel", "cards": deck}},
    )
    assert sum(state.zones["merisiel:deck"].known.values()) == 15


def test_an_unknown_character_is_a_catalog_error_with_a_suggestion():
    with pytest.raises(CatalogError, match="no character called 'merisel'. Did you mean merisiel"):
        catalog_module.expand(CATALOG, "character.joined", {"character_id": "merisel", "player": "Ann"})


def test_an_unknown_product_is_a_catalog_error():
    with pytest.raises(CatalogError, match="no card list for product '6'"):
        catalog_module.expand(CATALOG, "vault.products_added", {"product": "6"})


def test_ships_expand_with_set_and_class():
    data = catalog_module.expand(CATALOG, "ship.awarded", {"ship": "Truewind"})
    assert data["ship_card"] == {
        "name": "Truewind",
        "set": "B",
        "ship_class": 1,
        "to_defeat": "Intelligence or Knowledge 8, or Wisdom or Survival 6",
        "to_repair": "Craft 7",
        "when_encountering": ["You may discard an ally that has the Pirate trait to add 2 to your check to defeat."],
        "when_commanding": [
            "You may discard a card from the blessings deck to recharge a random card from your discard pile."
        ],
        "when_wrecked": [
            "The difficulty of your check to acquire an ally that has the Pirate trait is increased by 2."
        ],
        "cannot_be_seized": False,
        # Its powers as data: none of them one the tracker applies, so each is listed for the table.
        "powers": [
            {"kind": "by_hand", "text": text, "when": when}
            for text, when in (
                ("You may discard an ally that has the Pirate trait to add 2 to your check to defeat.", "encountering"),
                (
                    "You may discard a card from the blessings deck to recharge a random card from your discard pile.",
                    "commanding",
                ),
                (
                    "The difficulty of your check to acquire an ally that has the Pirate trait is increased by 2.",
                    "wrecked",
                ),
            )
        ],
    }
    assert len(CATALOG["ships"]["ships"]) == 24


def test_a_location_without_a_known_deck_list_is_a_catalog_error():
    with pytest.raises(CatalogError, match="does not know the deck list of Raker Shoals"):
        catalog_module.expand(
            CATALOG, "scenario.started", {"scenario": "Dangerous Waters", "locations": ["Raker Shoals"]}
        )


def test_a_known_scenario_fills_its_villains_and_henchmen():
    data = catalog_module.expand(
        CATALOG, "scenario.started", {"scenario": "Dangerous Waters", "locations": [{"name": "Fog Bank", "deck": {}}]}
    )
    assert data["villains"] == ["Jemma Redclaw"] and data["henchmen"] == ["Buccaneer"]


def test_self_contained_data_comes_back_unchanged():
    data = {"character_id": "x", "name": "X", "player": "p", "card": {"name": "X", "cards_list": {}}}
    assert catalog_module.expand(CATALOG, "character.joined", data) == data


def test_the_public_catalogue_encodes_as_json():
    import msgspec

    assert msgspec.json.encode(catalog_module.public(CATALOG))
