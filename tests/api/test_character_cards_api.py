"""The group's own Skull Tales Character Cards over HTTP: recorded, listed by the cards view, held to the catalogue's
names, and a Pirate recruited from a recorded card held to its values."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import CREW

TALES = "skull-tales-full-sail"
ANNE = CREW[0]["data"]
CARD = {
    k: ANNE[k]
    for k in ("archetype", "classes", "attributes", "action_points", "health", "destiny_points", "salary", "skills")
} | {"starting_gear": ANNE["starting_gear"]}


def test_a_recorded_character_card_is_listed_and_a_recruit_with_other_values_is_refused_as_a_rule(api):
    campaign = api.new_campaign(game=TALES)
    assert api.append(campaign, [{"type": "character_card.recorded", "data": CARD}]).status_code == 201
    listed = api.client.get(f"/v1/campaigns/{campaign.id}/cards", headers=campaign.headers).json()["cards"]
    assert [card["archetype"] for card in listed["character_cards"]] == ["Captain's Daughter"]

    wrong = api.append(campaign, [{"type": "pirate.recruited", "data": {**ANNE, "salary": 25}}])
    assert wrong.status_code == 422
    assert wrong.json()["detail"] == (
        "Anne's Salary must be the Captain's Daughter card's, as the group recorded it: recruit with the card's "
        "values, or record the card again. That is a rule of the game: the owner may log it anyway, with a reason. "
        "Nothing was written."
    )
    right = api.append(campaign, [{"type": "pirate.recruited", "data": ANNE}])
    assert right.status_code == 201, right.text


def test_a_character_card_with_a_skill_the_catalogue_does_not_know_writes_nothing(api):
    campaign = api.new_campaign(game=TALES)
    before = api.client.get(f"/v1/campaigns/{campaign.id}", headers=campaign.headers).json()["position"]
    wrong = api.append(campaign, [{"type": "character_card.recorded", "data": {**CARD, "skills": ["Fencin"]}}])
    assert wrong.status_code == 422
    assert "Skull Tales has no skill called 'Fencin'." in wrong.json()["detail"]
    after = api.client.get(f"/v1/campaigns/{campaign.id}", headers=campaign.headers).json()["position"]
    assert after == before
