"""A table override over HTTP: a rule of the game logged anyway with a reason, kept in the log, told in history, listed
in the scenario's report, kept by export and import; an integrity rule refused whatever the override says."""

from __future__ import annotations

from tests.unit.pacg.pacg_world import HANDS, SETUP, START, move, zone

GAME = "pacg-skull-and-shackles"
SHARK = zone("location", location="Shark Island")
REASON = "House rule: the first turn explores twice."


def explore(name: str) -> dict:
    found = move(name, "reveal", SHARK, zone("encounter"))
    found["data"]["explorer"] = "merisiel"
    return found


def banish(name: str) -> dict:
    return move(name, "banish", zone("encounter"), zone("vault"))


TURN = [*SETUP, *START, *HANDS, {"type": "hourglass.advanced", "data": {"character_id": "merisiel"}}]
FIRST = [explore("Dire Rat"), banish("Dire Rat")]


def at_second_exploration(api, options=None):
    campaign = api.new_campaign(GAME, options=options)
    answer = api.append(campaign, [*TURN, *FIRST])
    assert answer.status_code == 201, answer.text
    return campaign


def positions(api, campaign) -> list[int]:
    return [e["position"] for e in api.get(campaign, "/events", limit=1000).json()["events"]]


def test_a_broken_rule_is_refused_as_a_rule_the_owner_may_override_and_nothing_is_written(api):
    campaign = at_second_exploration(api)
    before = positions(api, campaign)

    answer = api.append(campaign, [explore("Dire Rat")])

    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["overridable"] is True
    (error,) = problem["errors"]
    assert error["kind"] == "rule" and error["index"] == 0
    assert error["reason"].startswith("Merisiel has already explored this turn")
    assert error["reason"].endswith("That is a rule of the game: the owner may log it anyway, with a reason.")
    assert positions(api, campaign) == before


def test_the_owner_logs_a_broken_rule_with_a_reason_and_history_tells_it_against_the_rules(api):
    campaign = at_second_exploration(api)

    answer = api.append(campaign, [{**explore("Dire Rat"), "override": {"reason": REASON}}])

    assert answer.status_code == 201, answer.text
    (recorded,) = answer.json()["events"]
    assert recorded["override"] == {"reason": REASON}
    last = api.get(campaign, "/events", after=recorded["position"] - 1).json()["events"][0]
    assert last["override"] == {"reason": REASON}
    assert (
        "(against the rules: House rule: the first turn explores twice. Broken: Merisiel has already"
        in (last["sentence"])
    )
    # The event counts: the second rat is in the encounter.
    state = api.get(campaign, "/scenario").json()
    assert state["position"] == recorded["position"]


def test_an_integrity_rule_is_refused_even_with_an_override(api):
    campaign = at_second_exploration(api)
    before = positions(api, campaign)

    answer = api.append(
        campaign,
        [
            {
                **move("Dagger", "discard", zone("hand", "valeros"), zone("discard", "valeros")),
                "override": {"reason": "x"},
            }
        ],
    )

    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["overridable"] is False
    assert problem["errors"][0]["kind"] == "integrity"
    assert problem["errors"][0]["reason"].endswith("This cannot be recorded, even against the rules.")
    assert positions(api, campaign) == before


def test_a_mixed_batch_is_not_overridable(api):
    campaign = at_second_exploration(api)

    answer = api.append(
        campaign, [explore("Dire Rat"), move("Dagger", "discard", zone("hand", "valeros"), zone("discard", "valeros"))]
    )

    assert answer.status_code == 422, answer.text
    assert [e["kind"] for e in answer.json()["errors"]] == ["rule", "integrity"]
    assert answer.json()["overridable"] is False


def test_a_player_may_not_override_unless_the_campaign_allows_it(api):
    campaign = at_second_exploration(api)
    player = api.add_member(campaign, "player", "Bo")
    before = positions(api, campaign)

    answer = api.append(campaign, [{**explore("Dire Rat"), "override": {"reason": REASON}}], token=player)

    assert answer.status_code == 403, answer.text
    assert "only the owner may" in answer.json()["detail"]
    assert positions(api, campaign) == before


def test_a_player_overrides_where_the_campaign_lets_players_override(api):
    campaign = at_second_exploration(api, options={"overrides": "players"})
    player = api.add_member(campaign, "player", "Bo")

    answer = api.append(campaign, [{**explore("Dire Rat"), "override": {"reason": REASON}}], token=player)

    assert answer.status_code == 201, answer.text


def test_an_override_that_breaks_no_rule_is_recorded_and_its_sentence_says_so(api):
    campaign = at_second_exploration(api)

    answer = api.append(campaign, [{"type": "note.added", "data": {"text": "x"}, "override": {"reason": "just so"}}])

    assert answer.status_code == 201, answer.text
    position = answer.json()["last_position"]
    told = api.get(campaign, "/events", after=position - 1).json()["events"][0]
    assert told["sentence"] == "Note: x (against the rules: just so. As the log stands it breaks no rule.)"


def test_an_empty_override_reason_is_refused(api):
    campaign = at_second_exploration(api)

    answer = api.append(campaign, [{**explore("Dire Rat"), "override": {"reason": "  "}}])

    assert answer.status_code == 422, answer.text
    assert "override.reason" in answer.json()["detail"]


def test_the_scenario_report_lists_what_was_logged_against_the_rules(api):
    campaign = at_second_exploration(api)
    answer = api.append(campaign, [{**explore("Dire Rat"), "override": {"reason": REASON}}])
    position = answer.json()["last_position"]

    report = api.get(campaign, "/report", scenario="Island Hopping").json()

    assert report["overridden"] == [
        {"position": position, "type": "card.moved", "recorded_by": "Owner", "reason": REASON}
    ]
    markdown = api.client.get(
        f"/v1/campaigns/{campaign.id}/report",
        params={"scenario": "Island Hopping"},
        headers={**campaign.headers, "Accept": "text/markdown"},
    )
    assert markdown.status_code == 200, markdown.text
    assert f"## Logged against the rules\n\n- #{position} card.moved, recorded by Owner: {REASON}" in markdown.text


def test_undo_and_state_at_n_treat_an_overridden_event_like_any_other(api):
    campaign = at_second_exploration(api)
    answer = api.append(campaign, [{**explore("Dire Rat"), "override": {"reason": REASON}}])
    position = answer.json()["last_position"]
    # A later event folds on top of it, from the log, by every reader.
    assert api.append(campaign, [banish("Dire Rat")]).status_code == 201
    at = api.get(campaign, "/scenario", at=position).json()
    assert at["position"] == position
    assert api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers).status_code == 201
    assert api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers).status_code == 201
    # Undone, the second exploration is refused again without its override.
    assert api.append(campaign, [explore("Dire Rat")]).status_code == 422


def test_export_and_import_keep_the_override(api):
    campaign = at_second_exploration(api)
    api.append(campaign, [{**explore("Dire Rat"), "override": {"reason": REASON}}])
    exported = api.client.get(f"/v1/campaigns/{campaign.id}/export", headers=campaign.headers)
    assert exported.status_code == 200
    assert exported.content.count(b'"override":{"reason":"House rule') == 1

    imported = api.client.post(
        "/v1/campaigns/import", content=exported.content, headers={"content-type": "application/x-ndjson"}
    )

    assert imported.status_code == 201, imported.text
    copy = imported.json()
    headers = {"Authorization": f"Bearer {copy['token']}"}
    log = api.client.get(f"/v1/campaigns/{copy['id']}/events", params={"limit": 1000}, headers=headers).json()
    assert [e["override"] for e in log["events"] if e["override"]] == [{"reason": REASON}]


def test_a_roll_is_logged_while_another_character_owes_a_reset(api):
    campaign = at_second_exploration(api)
    # Merisiel's turn ends with a reset that must draw back up to her hand size: until it is done, her next
    # step is owed, but a roll is a fact of the table.
    assert api.append(campaign, [{"type": "hand.reset", "data": {"character_id": "merisiel"}}]).status_code == 201
    roll = {"type": "dice.rolled", "data": {"character_id": "valeros", "dice": [{"sides": 6, "face": 4}], "total": 4}}

    answer = api.append(campaign, [roll])

    assert answer.status_code == 201, answer.text
