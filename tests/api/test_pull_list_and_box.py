"""The pull list and the shared box over HTTP: the cards to take out of the box for each deck as logged, and one box
serving several campaigns, seen by each owner through a campaign of their own."""

from __future__ import annotations

from collections import Counter

from quartermaster.service.application.boxes import catalogue_counts
from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS

GAME = "pacg-skull-and-shackles"
ENDED = [{"type": "scenario.ended", "data": {"result": "won"}}]


def played(api, name="The Wormwood Mutiny"):
    campaign = api.new_campaign(GAME, options=OPTIONS, name=name)
    for batch in (PAYLOADS, ENDED):
        answer = api.append(campaign, batch)
        assert answer.status_code == 201, answer.text
    return campaign


def decks_of(api, campaign):
    """Each character's cards as the character view shows them, every zone added up."""
    found = {}
    for character_id in ("lirianne", "seltyiel", "alahazra"):
        sheet = api.get(campaign, f"/characters/{character_id}").json()["character"]
        cards = Counter()
        for zone in sheet["zones"].values():
            cards.update(zone)
        found[character_id] = dict(cards)
    return found


def put_box(api, campaign, **body):
    return api.client.put(f"/v1/campaigns/{campaign.id}/box", json=body, headers=campaign.headers)


def test_the_pull_list_names_exactly_the_cards_of_the_logged_decks(api):
    campaign = played(api)

    answer = api.get(campaign, "/pull-list")

    assert answer.status_code == 200, answer.text
    pull = answer.json()["pull_list"]
    assert {deck["character_id"]: deck["cards"] for deck in pull["decks"]} == decks_of(api, campaign)
    everything = Counter()
    for cards in decks_of(api, campaign).values():
        everything.update(cards)
    assert pull["cards"] == dict(sorted(everything.items())) and pull["count"] == everything.total()


def test_the_pull_list_prints_as_text_with_a_box_to_tick_for_each_card(api):
    campaign = played(api)

    text = api.client.get(
        f"/v1/campaigns/{campaign.id}/pull-list", headers=campaign.headers | {"Accept": "text/plain"}
    ).text

    assert text.startswith("Pull list: The Wormwood Mutiny (as logged at position ")
    lirianne = decks_of(api, campaign)["lirianne"]
    assert f"Lirianne (Lily): {sum(lirianne.values())} cards" in text
    assert "[ ] 2 × Pistol" in text and lirianne["Pistol"] == 2


def test_a_character_set_aside_is_listed_apart_and_her_cards_are_not_pulled(api):
    campaign = played(api)
    lirianne = decks_of(api, campaign)["lirianne"]
    written = [name for name, count in lirianne.items() for _ in range(count)]
    answer = api.append(
        campaign, [{"type": "character.set_aside", "data": {"character_id": "lirianne", "cards": written}}]
    )
    assert answer.status_code == 201, answer.text

    pull = api.get(campaign, "/pull-list").json()["pull_list"]

    assert [deck["character_id"] for deck in pull["decks"]] == ["seltyiel", "alahazra"]
    assert [(found["name"], found["cards"]) for found in pull["set_aside"]] == [
        ("Lirianne", dict(sorted(lirianne.items())))
    ]
    back = api.append(campaign, [{"type": "character.brought_back", "data": {"character_id": "lirianne"}}])
    assert back.status_code == 201, back.text
    assert decks_of(api, campaign)["lirianne"] == lirianne


def test_skull_tales_keeps_no_decks_and_says_so(api):
    campaign = api.new_campaign("skull-tales-full-sail")

    answer = api.get(campaign, "/pull-list")

    assert answer.status_code == 404
    assert answer.json()["detail"] == "Skull Tales: Full Sail! keeps no character decks, so it has no pull list."


def test_two_campaigns_sharing_a_box_see_each_others_cards_out_and_what_is_missing(api):
    ours, theirs = played(api, "Tuesday crew"), played(api, "Thursday crew")
    named = put_box(api, ours, name="The shelf box")
    assert named.status_code == 200, named.text
    key = named.json()["key"]
    joined = put_box(api, theirs, name="Mira's box", key=key)
    assert joined.status_code == 200, joined.text

    box = api.get(ours, "/box").json()

    assert box["name"] == "The shelf box" and box["key"] == key
    assert [(c["title"], c["box_name"], c["yours"]) for c in box["campaigns"]] == [
        ("Tuesday crew", "The shelf box", True),
        ("Thursday crew", "Mira's box", False),
    ]
    decks = Counter()
    for cards in decks_of(api, ours).values():
        decks.update(cards)
    assert box["campaigns"][1]["out"] == dict(sorted(decks.items()))
    # Each campaign logged the same decks: every card is wanted twice over, and missing where the box holds fewer.
    catalogue = catalogue_counts(GAME, {"B"})
    copies = api.get(ours, "/state").json()["state"]["copies"]
    expected = {}
    for name, count in decks.items():
        held = catalogue.get(name, copies.get(name, 0))
        if 2 * count > held:
            expected[name] = 2 * count - held
    assert {short["card"]: short["missing"] for short in box["missing"]} == expected
    assert expected, "the worked decks want some card beyond the box's copies"


def test_the_box_names_other_campaigns_by_title_and_shows_none_of_their_people(api):
    ours, theirs = played(api, "Tuesday crew"), played(api, "Thursday crew")
    api.add_member(theirs, "player", "Zanzibar Quill")
    key = put_box(api, ours, name="The shelf box").json()["key"]
    put_box(api, theirs, name="Mira's box", key=key)

    text = api.get(ours, "/box").text

    assert "Thursday crew" in text
    for private in ("Zanzibar Quill", "Lily", "Sam", "Amber", "Lirianne", str(theirs.member_id)):
        assert private not in text


def test_only_the_owner_sees_or_names_the_box(api):
    campaign = played(api)
    player = api.add_member(campaign, "player", "Pat")

    seen = api.get(campaign, "/box", token=player)
    named = api.client.put(
        f"/v1/campaigns/{campaign.id}/box", json={"name": "Mine"}, headers={"Authorization": f"Bearer {player}"}
    )

    assert seen.status_code == named.status_code == 403
    assert named.json()["detail"] == "Pat is a player of this campaign and cannot name the box its cards come from."


def test_joining_a_box_nobody_shares_is_refused_and_nothing_is_named(api):
    campaign = played(api)

    answer = put_box(api, campaign, name="Ghost box", key="box_" + "0" * 32)

    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("No campaign shares a box with that key")
    assert api.get(campaign, "/box").status_code == 404


def test_a_campaign_leaves_its_box_and_the_others_keep_it(api):
    ours, theirs = played(api, "Tuesday crew"), played(api, "Thursday crew")
    key = put_box(api, ours, name="The shelf box").json()["key"]
    put_box(api, theirs, name="Mira's box", key=key)

    left = api.client.delete(f"/v1/campaigns/{ours.id}/box", headers=ours.headers)

    assert left.json() == {"left": True}
    assert [c["title"] for c in api.get(theirs, "/box").json()["campaigns"]] == ["Thursday crew"]
