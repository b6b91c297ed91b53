"""Chronicle sheets over HTTP: the rulebook's Example of Play (Skull & Shackles Rulebook, Example of Play) played
to a win, its rewards given after the scenario (Skull & Shackles Rulebook, After the Scenario), then a sheet that
names its range and digest and verifies, and a sheet changed by hand that does not."""

from __future__ import annotations

import hashlib
import json

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS

GAME = "pacg-skull-and-shackles"
AFTER = [
    {"type": "scenario.ended", "data": {"result": "won"}},
    {
        "type": "character.card_completed",
        "data": {
            "character_id": "lirianne",
            "card": {"skills": {"Dexterity": {"die": "d8", "feats": ["+1", "+2", "+3"]}}},
        },
    },
    {
        "type": "feat.gained",
        "data": {"character_id": "lirianne", "kind": "skill", "feat": "Dexterity +1", "reward_of": "Dangerous Waters"},
    },
    {"type": "note.added", "data": {"text": "We rebuild our decks <b>tonight</b> & [b]later[/b]."}},
]


def won(api):
    campaign = api.new_campaign(GAME, options=OPTIONS, name="The Wormwood Mutiny")
    for batch in (PAYLOADS, AFTER):
        answer = api.append(campaign, batch)
        assert answer.status_code == 201, answer.text
    return campaign


def sheets_of(api, campaign):
    answer = api.get(campaign, "/chronicles")
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_won_scenario_has_a_sheet_with_its_party_result_feats_cards_and_decks(api):
    campaign = won(api)

    found = sheets_of(api, campaign)

    [sheet] = found["sheets"]
    assert (sheet["scenario"], sheet["play"], sheet["result"], sheet["ended"]) == ("Dangerous Waters", 1, "won", True)
    assert [p["id"] for p in sheet["party"]] == ["lirianne", "seltyiel", "alahazra"]
    # The range runs past the scenario's end to the log's end: the reward and the note come after it.
    assert (sheet["first"], sheet["last"]) == (found["sheets"][0]["first"], found["position"])
    assert [f["feat"] for f in sheet["feats"]] == ["skill feat Dexterity +1"]
    # The same cards the audit's report counts (tests/api/test_audit_reports.py works them out from the text).
    assert sheet["cards"]["seltyiel"]["gained"] == {"Cutlass +1": 1, "Pearl of Wisdom": 1}
    assert sheet["cards"]["alahazra"]["gained"] == {"Blessing of the Gods": 1}
    assert sheet["decks"]["seltyiel"]["Cutlass +1"] == 1
    assert sum(sheet["decks"]["alahazra"].values()) > 0


def test_the_digest_is_the_sha256_of_the_exported_events_up_to_the_sheets_end(api):
    campaign = won(api)
    [sheet] = sheets_of(api, campaign)["sheets"]

    exported = api.get(campaign, "/export")

    digest = hashlib.sha256()
    for line in exported.text.splitlines()[1 : sheet["last"] + 1]:
        row = {k: v for k, v in json.loads(line).items() if k not in ("hash", "prev")}
        digest.update(json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
    assert sheet["digest"] == digest.hexdigest()


def test_a_sheet_verifies_against_the_log_and_a_changed_one_names_what_differs(api):
    campaign = won(api)
    [sheet] = sheets_of(api, campaign)["sheets"]

    same = api.client.post(f"/v1/campaigns/{campaign.id}/chronicles/verify", json=sheet, headers=campaign.headers)
    changed = api.client.post(
        f"/v1/campaigns/{campaign.id}/chronicles/verify", json=sheet | {"result": "lost"}, headers=campaign.headers
    )

    assert same.status_code == 200, same.text
    assert (same.json()["verified"], same.json()["differences"]) == (True, [])
    assert (changed.json()["verified"], changed.json()["differences"]) == (False, ["result"])


def test_a_sheet_of_a_scenario_never_played_or_past_the_log_is_refused(api):
    campaign = won(api)
    [sheet] = sheets_of(api, campaign)["sheets"]

    unplayed = api.client.post(
        f"/v1/campaigns/{campaign.id}/chronicles/verify",
        json=sheet | {"scenario": "Island Hopping"},
        headers=campaign.headers,
    )
    ahead = api.client.post(
        f"/v1/campaigns/{campaign.id}/chronicles/verify", json=sheet | {"last": 10_000}, headers=campaign.headers
    )

    assert unplayed.status_code == 404 and "Island Hopping" in unplayed.json()["detail"]
    assert ahead.status_code == 422 and "10000" in ahead.json()["detail"]


def test_the_sheets_download_as_plain_text_with_the_range_and_digest(api):
    campaign = won(api)
    [sheet] = sheets_of(api, campaign)["sheets"]

    text = api.client.get(
        f"/v1/campaigns/{campaign.id}/chronicles", headers=campaign.headers | {"Accept": "text/plain"}
    )

    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert "Scenario: Dangerous Waters (play 1)" in text.text
    assert "Feat: skill feat Dexterity +1 (lirianne)" in text.text
    assert f"Log positions {sheet['first']} to {sheet['last']}; digest {sheet['digest']}" in text.text
