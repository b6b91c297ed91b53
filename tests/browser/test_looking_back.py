"""Looking back on a phone (390x844) without scrolling: a search through the log, and a jump to a position."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.table import pacg_table

LOG = "Log, newest first"


def _entries(page):
    return page.get_by_role("list", name=LOG).get_by_role("listitem")


def test_a_search_shows_only_the_entries_that_name_it_and_a_position_is_found_by_its_number(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    expect(_entries(page).first).to_be_visible()
    everything = _entries(page).count()

    page.get_by_label("Find in the log").fill("Jemma Redclaw")
    expect(_entries(page)).not_to_have_count(everything)
    for text in _entries(page).locator(".sentence").all_inner_texts():
        assert "jemma redclaw" in text.lower()
    assert _entries(page).count() >= 1

    page.get_by_label("Find in the log").fill("#12")
    expect(_entries(page)).to_have_count(1)
    expect(_entries(page).locator(".pos")).to_have_text("#12")

    page.get_by_label("Find in the log").fill("")
    expect(_entries(page)).to_have_count(everything)


def test_a_jump_to_a_position_looks_back_to_it_in_one_tap(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    latest = http.get(campaign, "")["position"]
    target = latest - 40

    page.get_by_label("Position to look back to").fill(str(target))
    page.get_by_role("button", name="Look back to it").click()

    expect(page.get_by_role("status").filter(has_text="Looking back")).to_contain_text(f"position {target}")
    assert re.search(f"at={target}$", page.url)
    assert http.get(campaign, "")["position"] == latest
