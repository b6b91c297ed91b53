"""The group's own scenario cards over HTTP: recorded, listed by the recorded view, and a scenario held to its card."""

from __future__ import annotations

from tests.unit.pacg.pacg_world import BOX, MERISIEL_DECK, VALEROS_DECK, character_card

PACG = "pacg-skull-and-shackles"
CARD = {
    "scenario": "Island Hopping",
    "villains": ["Adaro Barbarian"],
    "henchmen": ["Hammerhead Shark"],
    "locations": [
        {"name": "Shark Island", "players": 1, "deck": {"monster": 2, "blessing": 1}},
        {"name": "Tempest Cay", "players": 2, "deck": {"monster": 1, "item": 1}},
        {"name": "Lonely Island", "players": 3, "deck": {"barrier": 1}},
    ],
}
PARTY = [
    {"type": "vault.products_added", "data": {"product": "B", "cards": BOX}},
    *[
        {
            "type": "character.joined",
            "data": {"character_id": cid, "name": name, "player": "Ann", "card": character_card(name)},
        }
        for cid, name in (("merisiel", "Merisiel"), ("valeros", "Valeros"))
    ],
    {"type": "deck.built", "data": {"character_id": "merisiel", "cards": MERISIEL_DECK}},
    {"type": "deck.built", "data": {"character_id": "valeros", "cards": VALEROS_DECK}},
    {"type": "scenario.card_recorded", "data": CARD},
]


def _start(locations):
    return {
        "type": "scenario.started",
        "data": {
            "scenario": "Island Hopping",
            "villains": CARD["villains"],
            "henchmen": CARD["henchmen"],
            "locations": [{"name": loc["name"], "deck": loc["deck"]} for loc in locations],
        },
    }


def test_a_recorded_card_is_listed_and_a_start_with_the_wrong_locations_is_refused_as_a_rule(api):
    campaign = api.new_campaign(game=PACG)
    assert api.append(campaign, PARTY).status_code == 201
    listed = api.client.get(f"/v1/campaigns/{campaign.id}/recorded", headers=campaign.headers).json()["recorded"]
    assert [card["scenario"] for card in listed["scenario_cards"]] == ["Island Hopping"]

    wrong = api.append(campaign, [_start(CARD["locations"])])
    assert wrong.status_code == 422
    assert wrong.json()["detail"] == (
        "The scenario card of Island Hopping lists Shark Island and Tempest Cay for 2 players, not Shark Island, "
        "Tempest Cay and Lonely Island. That is a rule of the game: the owner may log it anyway, with a reason. "
        "Nothing was written."
    )
    right = api.append(campaign, [_start(CARD["locations"][:2])])
    assert right.status_code == 201, right.text
