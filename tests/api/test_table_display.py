"""The table display: one read of what the shared screen shows, taken from the fold's views, and a read-only member
whose every write is refused, route by route, as the app lists its routes."""

from __future__ import annotations

import re

import pytest
from litestar.routes import HTTPRoute

from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings
from tests.unit.pacg.example_of_play import OPTIONS as PACG_OPTIONS, PAYLOADS as PACG_PLAY
from tests.unit.skull_tales import chapter_one

SAFE = {"GET", "HEAD", "OPTIONS"}
# The writes that take no member of a campaign, so no display token either: each says why it is not refused.
NOT_A_CAMPAIGN_MEMBERS_WRITE = {
    ("POST", "/v1/campaigns"): "starting a campaign takes no token; the new owner's is answered",
    ("POST", "/v1/campaigns/import"): "importing a file starts a new campaign, owned by whoever sends it",
    ("POST", "/session"): "signing a browser in: the display's own page does it with its link",
    ("DELETE", "/session/{campaign}"): "signing a browser out forgets its cookie and writes nothing",
    ("POST", "/join-code"): "a QR code of a link, made on the server and written nowhere",
}


def _writes() -> list[tuple[str, str]]:
    """Every (method, path) of the app that is not a read, from the app's own routes."""
    app = create_app(Settings(), "postgresql://unused")
    found = set()
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            path = re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)
            found |= {(method, path) for method in route.methods if method not in SAFE}
    return sorted(found)


WRITES = _writes()
CAMPAIGN_WRITES = [w for w in WRITES if w[1].startswith("/v1/campaigns/{campaign}")]


def test_every_write_of_the_app_is_a_campaign_members_or_is_listed_with_its_reason():
    others = {w for w in WRITES if w not in CAMPAIGN_WRITES}
    assert others == set(NOT_A_CAMPAIGN_MEMBERS_WRITE), others ^ set(NOT_A_CAMPAIGN_MEMBERS_WRITE)
    assert len(CAMPAIGN_WRITES) >= 8  # append, rolls, undo, redo, members and their links, fork... as of writing


def _pacg(api):
    campaign = api.new_campaign(name="Dangerous Waters", options=PACG_OPTIONS)
    assert api.append(campaign, PACG_PLAY).status_code == 201
    return campaign


@pytest.mark.parametrize(("method", "path"), CAMPAIGN_WRITES)
def test_the_display_link_is_refused_every_write_in_a_sentence_and_nothing_is_written(api, method, path):
    campaign = api.new_campaign(name="Dangerous Waters", options=PACG_OPTIONS)
    display = api.add_member(campaign, "display", "Table display")
    before = api.get(campaign, "").json()["position"]
    url = path.format(campaign=campaign.id, member_id=campaign.member_id)

    answer = api.client.request(method, url, json={}, headers={"Authorization": f"Bearer {display}"})

    assert answer.status_code == 403, (method, url, answer.text)
    assert answer.headers["content-type"].startswith("application/problem+json")
    detail = answer.json()["detail"]
    assert detail.startswith("Table display is this campaign's table display: its link only shows the game"), detail
    assert detail.endswith(".")
    assert api.get(campaign, "").json()["position"] == before


@pytest.mark.parametrize("path", ["", "/state", "/events", "/turn", "/scenario", "/display", "/stats/dice"])
def test_the_display_link_reads_what_any_member_reads(api, path):
    campaign = _pacg(api)
    display = api.add_member(campaign, "display", "Table display")

    assert api.get(campaign, path, token=display).status_code == 200


def test_a_display_joining_is_told_in_words_and_listed_as_a_display(api):
    campaign = api.new_campaign()
    api.add_member(campaign, "display", "Kitchen TV")

    events = api.get(campaign, "/events").json()["events"]
    members = api.get(campaign, "").json()["members"]

    assert events[-1]["sentence"] == (
        "A table display, Kitchen TV, was linked to the table: it shows the game and changes nothing."
    )
    assert [m["role"] for m in members] == ["owner", "display"]


def test_a_revoked_display_link_reads_nothing_more(api):
    campaign = api.new_campaign()
    display = api.add_member(campaign, "display", "Table display")
    member_id = api.get(campaign, "").json()["members"][-1]["member_id"]

    assert api.client.delete(f"/v1/campaigns/{campaign.id}/members/{member_id}", headers=campaign.headers).is_success

    assert api.get(campaign, "/display", token=display).status_code == 401


def test_the_skull_and_shackles_display_is_what_the_turn_and_scenario_views_say(api):
    campaign = _pacg(api)

    shown = api.get(campaign, "/display").json()
    turn = api.get(campaign, "/turn").json()["turn"]
    scenario = api.get(campaign, "/scenario").json()["scenario"]

    table = shown["table"]
    assert shown["campaign"] == "Dangerous Waters" and shown["game"] == "pacg-skull-and-shackles"
    assert shown["position"] == api.get(campaign, "").json()["position"]
    assert table["scenario"] == scenario["name"] == turn["scenario"]
    assert table["turn"] == {
        "number": turn["turn"],
        "character": turn["character"]["name"],
        "location": turn["location"],
        "step": turn["step_name"],
    }
    assert table["blessings"] == {"name": scenario["hourglass"]["name"], "left": scenario["hourglass"]["left"]}
    assert [(p["name"], p["status"], p["cards"]) for p in table["locations"]] == [
        (p["name"], p["status"], p["cards"]) for p in scenario["locations"]
    ]
    assert sum(len(p["characters"]) for p in table["locations"]) == len(scenario["characters"])


def test_the_last_entries_are_the_logs_latest_sentences_newest_last(api):
    campaign = _pacg(api)

    shown = api.get(campaign, "/display").json()
    position = shown["position"]
    told = api.get(campaign, "/events", after=position - 5).json()["events"]

    assert [e["position"] for e in shown["last"]] == list(range(position - 4, position + 1))
    assert [e["sentence"] for e in shown["last"]] == [e["sentence"] for e in told]


def test_an_undone_entry_shows_as_undone_beside_the_undo_that_took_it_back(api):
    campaign = _pacg(api)
    undo = api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    assert undo.status_code == 201
    undone = set(undo.json()["undone"])

    last = api.get(campaign, "/display").json()["last"]

    assert last[-1]["position"] == undo.json()["last_position"] and not last[-1]["undone"]
    assert {e["position"] for e in last if e["undone"]} == undone & {e["position"] for e in last}
    assert undone & {e["position"] for e in last}


def test_the_skull_tales_display_is_what_the_turn_view_says(api):
    campaign = api.new_campaign("skull-tales-full-sail", name="Shadows", options=chapter_one.OPTIONS)
    assert api.append(campaign, chapter_one.CAMPAIGN).status_code == 201

    table = api.get(campaign, "/display").json()["table"]
    turn = api.get(campaign, "/turn").json()["turn"]

    assert (table["chapter"], table["phase"], table["phases_done"]) == (
        turn["chapter"],
        turn["phase"],
        turn["phases_done"],
    )
    assert [(p["name"], p["fame"], p["coins"]) for p in table["pirates"]] == [
        (p["name"], p["fame"], p["coins"]) for p in turn["pirates"]
    ]
    in_port = turn["phase"] == "port"
    assert [p["time_units"] for p in table["pirates"]] == [
        p["time_units"] if in_port else None for p in turn["pirates"]
    ]
    assert table["next"] == turn["next"]
