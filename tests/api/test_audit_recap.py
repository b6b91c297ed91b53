"""The Markdown recap over HTTP: the sentences by turn or phase, the rolls, the rewards; what was undone left out."""

from __future__ import annotations

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.skull_tales.chapter_one import CAMPAIGN, OPTIONS as TALES_OPTIONS, event


def recap(api, campaign, token=None, **params):
    return api.get(campaign, "/recap", token=token, **params)


def test_the_example_of_play_recap_tells_each_turn_with_its_rolls(api):
    campaign = api.new_campaign("pacg-skull-and-shackles", name="Dangerous Waters", options=OPTIONS)
    assert api.append(campaign, PAYLOADS).status_code == 201

    answer = recap(api, campaign, **{"from": 0})

    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/markdown")
    text = answer.text
    assert text.startswith(f"# Dangerous Waters: positions 1 to {len(PAYLOADS) + 2}\n")
    turns = [line for line in text.splitlines() if line.startswith("### ")]
    assert turns == ["### Lirianne's turn", "### Seltyiel's turn", "### Alahazra's turn", "### Lirianne's turn"]
    assert "- Lirianne rolled 3d8 for Dexterity: 5, 5 and 6, 16 in all against difficulty 11, a success." in text
    # The same rates the report gives, worked out from the Example of Play in test_audit_reports.py.
    assert "- Lirianne: 4 of 4 succeeded\n- Seltyiel: 3 of 4 succeeded\n- Alahazra: 1 of 3 succeeded" in text


def test_the_chapter_recap_follows_the_scenarios_list_link_and_gives_fame_and_coins(api):
    campaign = api.new_campaign("skull-tales-full-sail", options=TALES_OPTIONS)
    assert api.append(campaign, CAMPAIGN).status_code == 201
    chapters = api.get(campaign, "/scenarios").json()["chapters"]
    link = chapters[1]["recap"]

    answer = api.client.get(link, headers=campaign.headers)

    assert answer.status_code == 200, answer.text
    text = answer.text
    assert [line for line in text.splitlines() if line.startswith("#")][1:] == [
        "## Chapter 2",
        "### Port Phase",
        "### Voyage Phase",
        "### Adventure Phase",
        "## Rolls",
        "## Fame and Coins",
        "## Rewards",
    ]
    assert (
        "- Jack led a Mutiny; the sealed bids were Anne 2 coins and Jack 3 coins, and the bidders paid 50 Coins for "
        "them (10 Coins a coin)." in text
    )
    # The chapter report's hand-worked sheets (test_audit_reports.py).
    assert "- Anne: Fame 97 (+15), Coins 100 (+40)" in text
    assert "- Mary learned Fencing from Anne for 100 Coins and 60 Fame; entering the Manor cost 7 Coins." in text


def test_an_undone_entry_is_not_in_the_recap(api):
    campaign = api.new_campaign("skull-tales-full-sail", options=TALES_OPTIONS)
    assert api.append(campaign, CAMPAIGN).status_code == 201
    start = api.get(campaign, "/state").json()["position"]
    assert api.append(campaign, [event("fame.changed", pirate_id="mary", amount=50, source="goal")]).status_code == 201
    assert api.client.post(f"/v1/campaigns/{campaign.id}/undo", json={}, headers=campaign.headers).status_code == 201

    text = recap(api, campaign, **{"from": start}).text

    assert "50 Fame" not in text and "Undone" not in text
    assert "Nothing that counts happened between these positions." in text


def test_a_viewer_reads_the_recap_and_a_stranger_does_not(api):
    campaign = api.new_campaign("pacg-skull-and-shackles", options=OPTIONS)
    assert api.append(campaign, PAYLOADS[:12]).status_code == 201
    viewer = api.add_member(campaign, "viewer")
    stranger = api.new_campaign("pacg-skull-and-shackles")

    assert recap(api, campaign, token=viewer, **{"from": 0, "to": 5}).status_code == 200
    assert recap(api, campaign, token=stranger.token, **{"from": 0, "to": 5}).status_code == 404
    assert recap(api, campaign, **{"from": 5, "to": 2}).status_code == 422
