"""Forking a campaign at a position over HTTP: a new campaign with the state the table saw there."""

from __future__ import annotations

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.skull_tales.chapter_one import CAMPAIGN, OPTIONS as TALES_OPTIONS, event

PACG = "pacg-skull-and-shackles"
TALES = "skull-tales-full-sail"


def fork(api, campaign, token=None, **body):
    return api.client.post(
        f"/v1/campaigns/{campaign.id}/fork", json=body, headers={"Authorization": f"Bearer {token or campaign.token}"}
    )


def state(api, campaign, token, **params):
    answer = api.client.get(
        f"/v1/campaigns/{campaign}/state", params=params, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["state"]


def without_positions(value):
    """A state with the positions it records left out: a fork numbers its log again, so they move."""
    if isinstance(value, dict):
        return {k: without_positions(v) for k, v in value.items() if k != "position"}
    if isinstance(value, list):
        return [without_positions(v) for v in value]
    return value


def test_a_fork_in_the_middle_of_the_example_of_play_has_the_state_of_that_position(api):
    campaign = api.new_campaign(PACG, name="Dangerous Waters", options=OPTIONS)
    for payload in PAYLOADS:
        assert api.append(campaign, [payload]).status_code == 201
    middle = 2 + len(PAYLOADS) // 2

    answer = fork(api, campaign, at=middle, name="What if Seltyiel had stayed?")

    assert answer.status_code == 201, answer.text
    forked = answer.json()
    assert forked["name"] == "What if Seltyiel had stayed?"
    assert forked["forked_from"] == {"from_campaign": campaign.id, "from_name": "Dangerous Waters", "at": middle}
    # The whole effective log up to the middle, then the fork's own batch: campaign.forked and its owner joining.
    assert forked["position"] == middle + 2
    assert state(api, forked["id"], forked["token"]) == state(api, campaign.id, campaign.token, at=middle)
    log = api.client.get(
        f"/v1/campaigns/{forked['id']}/events",
        params={"after": middle},
        headers={"Authorization": f"Bearer {forked['token']}"},
    ).json()["events"]
    assert [e["type"] for e in log] == ["campaign.forked", "member.joined"]
    assert log[0]["sentence"] == f"Forked from “Dangerous Waters” as the table saw it at position {middle}."


def test_a_fork_leaves_out_what_was_undone_by_then_and_numbers_the_log_again(api):
    campaign = api.new_campaign(TALES, options=TALES_OPTIONS)
    assert api.append(campaign, CAMPAIGN).status_code == 201
    assert api.append(campaign, [event("fame.changed", pirate_id="mary", amount=50, source="goal")]).status_code == 201
    assert api.client.post(f"/v1/campaigns/{campaign.id}/undo", json={}, headers=campaign.headers).status_code == 201
    assert api.append(campaign, [event("fame.changed", pirate_id="anne", amount=3, source="goal")]).status_code == 201
    now = api.get(campaign, "/state").json()["position"]

    forked = fork(api, campaign, at=now).json()

    # The undone fame.changed and its undo marker are not in the fork: two positions fewer (and two more for the
    # fork's own batch), and the same state but for the positions it records.
    assert forked["position"] == now - 2 + 2
    there = state(api, campaign.id, campaign.token, at=now)
    assert without_positions(state(api, forked["id"], forked["token"])) == without_positions(there)
    assert there["pirates"]["mary"]["fame"] == 21
    positions = [
        e["position"]
        for e in api.client.get(
            f"/v1/campaigns/{forked['id']}/events",
            params={"limit": 1000},
            headers={"Authorization": f"Bearer {forked['token']}"},
        ).json()["events"]
    ]
    assert positions == list(range(1, forked["position"] + 1))


def test_only_the_owner_forks_and_the_fork_belongs_to_its_new_owner_alone(api):
    campaign = api.new_campaign(PACG, options=OPTIONS)
    assert api.append(campaign, PAYLOADS[:10]).status_code == 201
    player = api.add_member(campaign, "player")
    viewer = api.add_member(campaign, "viewer")
    stranger = api.new_campaign(PACG)

    assert fork(api, campaign, token=player, at=5).status_code == 403
    assert fork(api, campaign, token=viewer, at=5).status_code == 403
    assert fork(api, campaign, token=stranger.token, at=5).status_code == 404
    forked = fork(api, campaign, at=5).json()
    # The original's tokens do not open the fork, and the fork's owner is a member of the fork only.
    assert api.client.get(f"/v1/campaigns/{forked['id']}/state", headers=campaign.headers).status_code == 404
    assert (
        api.client.get(
            f"/v1/campaigns/{campaign.id}/state", headers={"Authorization": f"Bearer {forked['token']}"}
        ).status_code
        == 404
    )


def test_a_fork_past_the_end_or_before_the_start_is_refused_and_writes_nothing(api):
    campaign = api.new_campaign(PACG, options=OPTIONS)
    assert api.append(campaign, PAYLOADS[:3]).status_code == 201

    assert fork(api, campaign, at=6).status_code == 422
    assert fork(api, campaign, at=0).status_code == 422
    assert fork(api, campaign, at=3, extra=True).status_code == 422


def test_a_short_scenario_played_through_the_api_answers_its_report_diff_recap_and_a_fork_in_the_middle(api):
    """The issue's check for done, on one campaign: the Example of Play posted a batch per turn."""
    campaign = api.new_campaign(PACG, name="Dangerous Waters", options=OPTIONS)
    turns = [i for i, p in enumerate(PAYLOADS) if p["type"] == "hourglass.advanced"] + [len(PAYLOADS)]
    assert api.append(campaign, PAYLOADS[: turns[0]]).status_code == 201
    for start, end in zip(turns, turns[1:], strict=False):
        assert api.append(campaign, PAYLOADS[start:end]).status_code == 201
    last = len(PAYLOADS) + 2
    middle = turns[2] + 2  # the end of Seltyiel's turn

    report = api.get(campaign, "/report", scenario="Dangerous Waters").json()
    diff = api.get(campaign, "/diff", **{"from": middle, "to": last}).json()
    recap = api.get(campaign, "/recap", **{"from": middle, "to": last})
    forked = fork(api, campaign, at=middle).json()

    assert report["checks"] == 14 and len(report["turns"]) == 5
    # Alahazra closes Cannibal Isle; the Merchantman, wrecked in her turn and repaired in Lily's, ends unchanged.
    assert {"path": "/scenario/locations/Cannibal Isle/status", "before": "open", "after": "closed"} in diff["changes"]
    assert not any(c["path"] == "/fleet/wrecked" for c in diff["changes"])
    assert diff["events"][0]["sentence"].startswith("Alahazra's turn began")
    assert recap.text.count("### ") == 2  # Alahazra's turn and Lirianne's second
    assert state(api, forked["id"], forked["token"]) == state(api, campaign.id, campaign.token, at=middle)
