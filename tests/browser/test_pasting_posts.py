"""Play-by-post on a phone and a tablet, the way in: a turn's post copied from another table's campaign is pasted
into "For the forum", previewed as a list in the log's words, and logged in one Confirm tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.conftest import PHONE
from tests.browser.table import SHOTS
from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.pacg.pacg_world import HANDS, SETUP, START, move, zone

TABLET = {"width": 820, "height": 1180}


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("tablet", TABLET)])
def test_a_pasted_turn_is_previewed_then_logged_in_one_confirm_tap(phones, http, size, viewport):
    writer = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(writer, PAYLOADS)
    reader = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters, by post")
    turn = http.get(writer, "/report", scenario="Dangerous Waters")["turns"][1]
    before = http.get(writer, "/events", limit=1000)["events"]
    http.append(reader, [{"type": e["type"], "data": e["data"]} for e in before if 2 < e["position"] < turn["first"]])
    post = http.get(writer, "/posts/turn", at=turn["first"], format="bbcode")["post"]
    lily = http.member(reader, "Lily")  # her joining is logged here, so the turn's entries land one position later
    joined = turn["first"]
    page = phones.open(lily["token"], viewport)
    page.get_by_role("tab", name="Table").click()
    forum = page.get_by_role("region", name="For the forum")

    forum.get_by_label("The thread's turn posts, as copied from the forum").fill(post)
    forum.get_by_role("button", name="Preview").click()

    said = forum.get_by_role("list", name="What the thread would log").get_by_role("listitem")
    count = turn["last"] - turn["first"] + 1
    expect(said).to_have_count(count)
    expect(said.first).to_contain_text("Would log:")
    expect(forum.get_by_role("status").last).to_contain_text(f"{count} of {count} entries would be logged")
    assert http.get(reader, "/events", after=joined)["events"] == []  # the preview wrote nothing
    assert not violations(page), violations(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    forum.screenshot(path=str(SHOTS / f"pasted-thread-{size}.png"))

    forum.get_by_role("button", name="Confirm").click()

    expect(forum.get_by_role("status").last).to_contain_text(f"Logged {count} entries from the thread")
    logged = http.get(reader, "/events", after=joined)["events"]
    assert [e["id"] for e in logged] == [e["id"] for e in before if turn["first"] <= e["position"] <= turn["last"]]
    assert {e["actor"] for e in logged} == {"Olga"}  # the writer's owner posted it
    expect(forum.get_by_role("button", name="Confirm")).to_be_hidden()


def test_an_entry_refused_by_a_rule_is_logged_anyway_with_the_tables_reason(phones, http):
    shark = zone("location", location="Shark Island")
    turn = [*SETUP, *START, *HANDS, {"type": "hourglass.advanced", "data": {"character_id": "merisiel"}}]
    explore = move("Dire Rat", "reveal", shark, zone("encounter"))
    explore["data"]["explorer"] = "merisiel"
    writer = http.campaign("pacg-skull-and-shackles")
    http.append(writer, [*turn, explore])
    reader = http.campaign("pacg-skull-and-shackles")
    banish = move("Dire Rat", "banish", zone("encounter"), zone("vault"))
    http.append(reader, [*turn, explore, banish])  # this table logged her exploration by hand already
    explored = http.get(writer, "/events", limit=1000)["events"][-1]
    post = http.get(writer, "/posts/turn", at=explored["position"])["post"]
    page = phones.open(reader["token"])
    page.get_by_role("tab", name="Table").click()
    forum = page.get_by_role("region", name="For the forum")
    forum.get_by_label("The thread's turn posts, as copied from the forum").fill(post)
    forum.get_by_role("button", name="Preview").click()
    said = forum.get_by_role("list", name="What the thread would log").get_by_role("listitem")
    refused = said.filter(has_text="has already explored this turn")
    expect(refused).to_contain_text("Refused:")

    refused.get_by_label("Why does the table log it anyway?").fill("House rule: she explores twice.")
    refused.get_by_role("button", name="Log it anyway").click()

    anyway = said.filter(has_text="against the rules: House rule: she explores twice.")
    expect(anyway).to_contain_text("Would log:")
    forum.get_by_role("button", name="Confirm").click()
    expect(forum.get_by_role("status").last).to_contain_text("Logged")
    kept = [e for e in http.get(reader, "/events", limit=1000)["events"] if e["id"] == explored["id"]]
    assert [e["override"]["reason"] for e in kept] == ["House rule: she explores twice."]
