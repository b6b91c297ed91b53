"""A player's "undo my last" and "redo my last": their own latest batch, whoever wrote since."""

from __future__ import annotations


def roll(api, campaign, token):
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json={"expression": "1d6"}, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["last_position"]


def post(api, campaign, token, path, body):
    return api.client.post(
        f"/v1/campaigns/{campaign.id}{path}", json=body, headers={"Authorization": f"Bearer {token}"}
    )


def undone_positions(api, campaign):
    return {e["position"] for e in api.get(campaign, "/events", limit=1000).json()["events"] if e["undone_by"]}


def test_a_player_undoes_her_last_roll_after_someone_else_wrote(api):
    campaign = api.new_campaign()
    lily = api.add_member(campaign, "player", "Lily")
    mine = roll(api, campaign, lily)
    owners = roll(api, campaign, campaign.token)
    # The plain undo takes the latest batch, the owner's, which a player may not undo.
    assert post(api, campaign, lily, "/undo", {}).status_code == 403
    answer = post(api, campaign, lily, "/undo", {"mine": True})
    assert answer.status_code == 201, answer.text
    assert answer.json()["undone"] == [mine]
    assert undone_positions(api, campaign) == {mine}
    assert owners not in undone_positions(api, campaign)


def test_a_player_redoes_her_own_undone_batch_even_when_the_latest_undo_was_someone_elses(api):
    campaign = api.new_campaign()
    lily = api.add_member(campaign, "player", "Lily")
    mine = roll(api, campaign, lily)
    assert post(api, campaign, lily, "/undo", {"mine": True}).status_code == 201
    owners = roll(api, campaign, campaign.token)
    assert post(api, campaign, campaign.token, "/undo", {"mine": True}).status_code == 201
    answer = post(api, campaign, lily, "/redo", {"mine": True})
    assert answer.status_code == 201, answer.text
    assert answer.json()["redone"] == [mine]
    assert undone_positions(api, campaign) == {owners}


def test_undo_my_last_with_nothing_of_mine_is_refused_with_a_sentence_and_writes_nothing(api):
    campaign = api.new_campaign()
    lily = api.add_member(campaign, "player", "Lily")
    roll(api, campaign, campaign.token)
    before = api.get(campaign, "").json()["position"]
    answer = post(api, campaign, lily, "/undo", {"mine": True})
    assert answer.status_code == 409
    assert answer.json()["detail"] == "There is nothing of yours to undo."
    assert api.get(campaign, "").json()["position"] == before
