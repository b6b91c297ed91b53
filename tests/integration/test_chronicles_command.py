"""`quartermaster chronicles CAMPAIGN --verify FILE` checks each sheet of a file against the log: a file saved from
`/chronicles` agrees; a sheet changed by hand, or naming a scenario never played, is a sentence and status 1.
The campaign is the rulebook's Example of Play (Skull & Shackles Rulebook, Example of Play), won."""

from __future__ import annotations

import json

from quartermaster.service.cli import main
from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS


def saved(api, tmp_path, change=None):
    campaign = api.new_campaign("pacg-skull-and-shackles", options=OPTIONS, name="The Wormwood Mutiny")
    api.append(campaign, [*PAYLOADS, {"type": "scenario.ended", "data": {"result": "won"}}])
    answer = api.get(campaign, "/chronicles").json()
    logged = dict(answer["sheets"][0])
    if change is not None:
        answer["sheets"][0] |= change
    path = tmp_path / "sheets.json"
    path.write_text(json.dumps(answer))
    return campaign, path, logged


def test_a_file_of_sheets_saved_from_the_api_agrees_with_the_log(api, database_url, tmp_path, capsys):
    campaign, path, _ = saved(api, tmp_path)

    status = main(["chronicles", campaign.id, "--verify", str(path), "--database-url", database_url])

    out, err = capsys.readouterr()
    assert status == 0 and "Sheet" not in err
    assert "Checked 1 chronicle sheet(s) of The Wormwood Mutiny" in out and "all agree" in out


def test_a_sheet_changed_by_hand_is_a_sentence_and_status_1(api, database_url, tmp_path, capsys):
    campaign, path, sheet = saved(api, tmp_path, {"result": "lost", "digest": "0" * 64})

    status = main(["chronicles", campaign.id, "--verify", str(path), "--database-url", database_url])

    _, err = capsys.readouterr()
    assert status == 1
    assert "Sheet 1 (Dangerous Waters): its result says lost, the log says won." in err
    assert f"Sheet 1 (Dangerous Waters): its digest says {'0' * 64}, the log says {sheet['digest']}." in err


def test_a_scenario_never_played_or_a_file_that_is_no_sheets_is_said(api, database_url, tmp_path, capsys):
    campaign, path, _ = saved(api, tmp_path, {"scenario": "Island Hopping"})
    garbage = tmp_path / "notes.json"
    garbage.write_text('{"hello": 1}')

    unplayed = main(["chronicles", campaign.id, "--verify", str(path), "--database-url", database_url])
    _, said = capsys.readouterr()
    wrong_file = main(["chronicles", campaign.id, "--verify", str(garbage), "--database-url", database_url])
    _, refused = capsys.readouterr()

    assert unplayed == 1 and "has not played the scenario Island Hopping" in said
    assert wrong_file == 2 and "holds no chronicle sheets" in refused


def test_without_verify_the_sheets_are_printed_as_text(api, database_url, tmp_path, capsys):
    campaign, _, sheet = saved(api, tmp_path)

    status = main(["chronicles", campaign.id, "--database-url", database_url])

    out, _ = capsys.readouterr()
    assert status == 0 and f"Log positions {sheet['first']} to {sheet['last']}; digest {sheet['digest']}" in out
