"""Undo, redo, rolls and new members sent again with the same Idempotency-Key answer what was recorded the first
time; the same key with a different request is refused with 409; the key is kept in the log, so it holds for a
server started afterwards."""

from __future__ import annotations

import uuid

from litestar.testing import TestClient

from quartermaster.service.app import create_app

NOTE = {"type": "note.added", "data": {"text": "We misread the Raker Shoals rule here."}}


def _types(api, campaign) -> list[str]:
    return [e["type"] for e in api.get(campaign, "/events", limit=1000).json()["events"]]


def _post(api, campaign, path: str, key: str, body: dict | None = None):
    return api.client.post(
        f"/v1/campaigns/{campaign.id}{path}", json=body, headers={**campaign.headers, "Idempotency-Key": key}
    )


def test_an_undo_sent_twice_with_one_key_undoes_one_batch(api):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE])
    api.append(campaign, [NOTE])
    key = str(uuid.uuid4())

    first, again = _post(api, campaign, "/undo", key), _post(api, campaign, "/undo", key)

    assert (first.status_code, again.status_code) == (201, 200), again.text
    assert again.json()["undone"] == first.json()["undone"] and again.json()["batch"] == first.json()["batch"]
    assert _types(api, campaign).count("event.undone") == 1


def test_a_redo_sent_twice_with_one_key_redoes_once(api):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE])
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    key = str(uuid.uuid4())

    first, again = _post(api, campaign, "/redo", key), _post(api, campaign, "/redo", key)

    assert (first.status_code, again.status_code) == (201, 200), again.text
    assert again.json()["position"] == first.json()["position"]
    assert _types(api, campaign).count("event.redone") == 1


def test_a_roll_sent_twice_with_one_key_answers_the_dice_rolled_the_first_time(api):
    campaign = api.new_campaign()
    key = str(uuid.uuid4())
    body = {"expression": "1d12+1d6+2", "purpose": "Boarding the Wormwood"}

    first, again = _post(api, campaign, "/rolls", key, body), _post(api, campaign, "/rolls", key, body)

    assert (first.status_code, again.status_code) == (201, 200), again.text
    assert again.json()["roll"] == first.json()["roll"]
    assert _types(api, campaign).count("dice.rolled") == 1


def test_a_member_added_twice_with_one_key_is_added_once_with_a_token_that_works(api):
    campaign = api.new_campaign()
    key = str(uuid.uuid4())
    body = {"name": "Anne", "role": "player"}

    first, again = _post(api, campaign, "/members", key, body), _post(api, campaign, "/members", key, body)

    assert (first.status_code, again.status_code) == (201, 200), again.text
    assert again.json()["member_id"] == first.json()["member_id"]
    assert _types(api, campaign).count("member.joined") == 2  # the owner and Anne, once
    members = api.get(campaign, "").json()["members"]
    assert [m["name"] for m in members].count("Anne") == 1
    token = again.json()["token"]
    assert (
        api.client.get(f"/v1/campaigns/{campaign.id}", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    )


def test_the_same_key_with_a_different_request_is_refused_with_409_and_writes_nothing(api):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE])
    key = str(uuid.uuid4())
    assert _post(api, campaign, "/rolls", key, {"expression": "1d6"}).status_code == 201
    before = _types(api, campaign)

    refused = _post(api, campaign, "/rolls", key, {"expression": "2d6"})

    assert refused.status_code == 409
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["type"].endswith("/idempotency-key-reused") and key in refused.json()["detail"]
    assert _types(api, campaign) == before


def test_a_key_holds_for_a_server_started_after_the_first_answer(api, database_url, app_settings):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE])
    key = str(uuid.uuid4())
    first = _post(api, campaign, "/undo", key)

    with TestClient(create_app(app_settings, database_url)) as restarted:
        again = restarted.post(
            f"/v1/campaigns/{campaign.id}/undo", headers={**campaign.headers, "Idempotency-Key": key}
        )

    assert again.status_code == 200 and again.json()["batch"] == first.json()["batch"]
    assert _types(api, campaign).count("event.undone") == 1


def test_a_key_that_is_not_printable_text_is_refused(api):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE])
    answer = _post(api, campaign, "/undo", "two words")
    assert answer.status_code == 400 and answer.json()["type"].endswith("/bad-idempotency-key")


def test_the_token_a_replayed_member_replaces_stops_working_though_it_was_already_used(api):
    campaign = api.new_campaign()
    key = str(uuid.uuid4())
    body = {"name": "Anne", "role": "player"}
    first = _post(api, campaign, "/members", key, body).json()["token"]
    assert api.client.get(f"/v1/campaigns/{campaign.id}", headers={"Authorization": f"Bearer {first}"}).is_success

    second = _post(api, campaign, "/members", key, body).json()["token"]

    assert (
        api.client.get(f"/v1/campaigns/{campaign.id}", headers={"Authorization": f"Bearer {first}"}).status_code == 401
    )
    assert api.client.get(f"/v1/campaigns/{campaign.id}", headers={"Authorization": f"Bearer {second}"}).is_success


def _as(api, campaign, token: str, path: str, key: str, body: dict | None = None):
    return api.client.post(
        f"/v1/campaigns/{campaign.id}{path}",
        json=body,
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
    )


def test_a_second_player_resending_the_first_players_key_to_rolls_gets_dice_of_their_own(api):
    campaign = api.new_campaign()
    first_player, second_player = api.add_member(campaign, "player", "Jask"), api.add_member(campaign, "player", "Lem")
    key = str(uuid.uuid4())
    body = {"expression": "20d12", "purpose": "Boarding the Wormwood"}

    first = _as(api, campaign, first_player, "/rolls", key, body)
    second = _as(api, campaign, second_player, "/rolls", key, body)

    assert (first.status_code, second.status_code) == (201, 201), second.text
    assert second.json()["roll"] != first.json()["roll"]  # 20d12 alike by chance: 12**-20
    rolls = [e for e in api.get(campaign, "/events", limit=1000).json()["events"] if e["type"] == "dice.rolled"]
    assert len(rolls) == 2 and len({r["actor"] for r in rolls}) == 2


def test_a_second_player_resending_the_first_players_key_to_undo_is_not_answered_the_first_players_undo(api):
    campaign = api.new_campaign()
    first_player, second_player = api.add_member(campaign, "player", "Jask"), api.add_member(campaign, "player", "Lem")
    api.append(campaign, [NOTE], token=first_player)
    key = str(uuid.uuid4())

    first = _as(api, campaign, first_player, "/undo", key, {})
    second = _as(api, campaign, second_player, "/undo", key, {})

    assert first.status_code == 201, first.text
    # The second player's own undo: they have no batch of their own to undo, and nothing of the first's is answered.
    assert second.status_code != 200 and second.json().get("batch") != first.json()["batch"], second.text
    assert _types(api, campaign).count("event.undone") == 1
