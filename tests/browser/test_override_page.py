"""The table page's "Log it anyway": beside a refusal for a rule of the game, the reason is asked for and the same
entry sent again with the override; an integrity refusal offers nothing."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS

SHOTS = Path(os.environ.get("QUARTERMASTER_SHOTS", "/tmp/quartermaster-page-shots"))

REASON = "Seltyiel's house power lets her scout on a friend's turn"


def pacg_table(http):
    """A Skull & Shackles campaign in the middle of the rulebook's Example of Play (Lily's second turn)."""
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    return campaign


def beside(scope, button):
    """The button's own place on the page, where its outcome or the server's refusal is shown."""
    return scope.locator(".act").filter(has=scope.page.get_by_role("button", name=button, exact=True))


def log_entry(page, position):
    return page.get_by_role("list", name="Log, newest first").get_by_role("listitem").filter(has_text=f"#{position}")


def test_a_rule_refusal_offers_log_it_anyway_and_the_entry_is_logged_with_its_reason(phones, http):
    campaign = pacg_table(http)
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Play and log").click()
    before = http.get(campaign, "")["position"]
    # It is Lirianne's turn: Seltyiel may never explore on another player's turn (a rule of the game).
    page.get_by_text("Explore a location").click()
    exploring = page.get_by_role("group").filter(has_text="Card revealed")
    exploring.get_by_label("Explorer").select_option("seltyiel")
    exploring.get_by_label("Card revealed").fill("Sea Drake")
    exploring.get_by_role("button", name="Explore", exact=True).click()
    place = beside(exploring, "Explore")
    expect(place.get_by_role("alert").first).to_contain_text("may never explore on another player's turn")
    expect(place.get_by_role("alert").first).to_contain_text("a rule of the game")
    assert http.get(campaign, "")["position"] == before

    place.get_by_role("button", name="Log it anyway").click()
    place.get_by_label("Why the table logs it anyway").fill(REASON)
    SHOTS.mkdir(parents=True, exist_ok=True)
    place.screenshot(path=str(SHOTS / "pacg-log-it-anyway.png"))
    place.get_by_role("button", name="Log with this reason").click()

    expect(place.get_by_role("status")).to_contain_text(f"Logged against the rules at position {before + 1}")
    logged = http.get(campaign, "/events", after=before)["events"][0]
    assert logged["override"] == {"reason": REASON}
    expect(log_entry(page, before + 1)).to_contain_text(f"(against the rules: {REASON}.")


def test_an_integrity_refusal_offers_no_override(phones, http):
    campaign = pacg_table(http)
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Move a card").click()
    mover = page.get_by_role("group").filter(has_text="Move a card")
    mover.get_by_label("Character", exact=True).select_option("lirianne")
    mover.get_by_label("Move", exact=True).select_option("discard")
    mover.get_by_label("Card", exact=True).fill("Pistol")
    mover.get_by_role("button", name="Move the card").click()
    expect(mover.get_by_role("alert").first).to_contain_text("This cannot be recorded, even against the rules.")
    expect(mover.get_by_role("button", name="Log it anyway")).to_have_count(0)
