"""A phone whose live stream the server ends without a last word (its reader of the campaign failed) follows again
by itself, from the last event it had, and misses nothing."""

from __future__ import annotations

from playwright.sync_api import expect

from quartermaster.service.application import live
from tests.integration.following import failing
from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS


def test_a_phone_whose_stream_the_server_ends_follows_again_and_misses_nothing(phones, http, monkeypatch):
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    page = phones.open(http.member(campaign, "Lily")["token"])
    page.get_by_role("tab", name="Play and log").click()
    log = page.get_by_role("list", name="Log, newest first")
    failed: list[bool] = []
    # The test server runs in this process: its reader of the campaign fails on the next event it tells.
    monkeypatch.setattr(live, "told_from", failing(live.told_from, failed))
    position = http.append(campaign, [{"type": "note.added", "data": {"text": "Told after all"}}])["last_position"]

    expect(page.locator("#latest")).to_have_text(str(position), timeout=10000)
    expect(log.get_by_role("listitem").first).to_contain_text("Told after all")
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    assert failed == [True]
