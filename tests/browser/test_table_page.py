"""The table page in Chromium at phone size: joining by link, logging play, the live log, undo, looking back."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from tests.unit.pacg.example_of_play import OPTIONS as PACG_OPTIONS, PAYLOADS as PACG_PLAY

PACG = "pacg-skull-and-shackles"
TALES = "skull-tales-full-sail"
# Where the screenshots of each game's main view go for a person to look at; never inside the repository.
SHOTS = Path(os.environ.get("QUARTERMASTER_SHOTS", "/tmp/quartermaster-page-shots"))
LIVE = 2000  # milliseconds: a change on one phone shows on the others within this


def pacg_table(http):
    """A Skull & Shackles campaign in the middle of the rulebook's Example of Play, with two players."""
    campaign = http.campaign(PACG, PACG_OPTIONS, name="Dangerous Waters")
    http.append(campaign, PACG_PLAY)
    lily = http.member(campaign, "Lily")
    sam = http.member(campaign, "Sam")
    return campaign, lily, sam


def log_entry(page, position):
    return page.get_by_role("list", name="Log, newest first").get_by_role("listitem").filter(has_text=f"#{position}")


def test_two_phones_joined_by_link_see_each_others_roll_and_card_move_within_two_seconds(phones, http):
    campaign, lily, sam = pacg_table(http)
    lilys = phones.open(lily["token"])
    sams = phones.open(sam["token"])
    # The fragment that carried the token is gone from the address bar.
    assert "#" not in lilys.url and lilys.url.endswith(f"/c/{campaign['id']}")
    cookie = next(c for c in lilys.context.cookies() if c["name"] == f"qm_{campaign['id'].replace('-', '')}")
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")

    for page in (lilys, sams):
        page.get_by_role("tab", name="Play and log").click()
    lilys.get_by_text("Roll for a check").click()
    roll = lilys.get_by_role("group").filter(has_text="Roll for a check")
    roll.get_by_label("Character", exact=True).select_option("lirianne")
    roll.get_by_label("What for").fill("defeat a Sea Devil")
    roll.get_by_role("button", name="Roll on the server").click()
    expect(roll.get_by_role("status")).to_contain_text("Rolled")

    lilys.get_by_text("Move a card").click()
    mover = lilys.get_by_role("group").filter(has_text="Move a card")
    mover.get_by_label("Character", exact=True).select_option("lirianne")
    mover.get_by_label("Move", exact=True).select_option("discard")
    mover.get_by_label("Card", exact=True).fill("Powder Horn")
    mover.get_by_role("button", name="Move the card").click()
    expect(mover.get_by_role("status")).to_contain_text("Logged at position")

    position = http.get(campaign, "")["position"]
    for at in (position - 1, position):
        sentence = log_entry(lilys, at).locator(".sentence").inner_text()
        expect(log_entry(sams, at).locator(".sentence")).to_have_text(sentence, timeout=LIVE)
    SHOTS.mkdir(parents=True, exist_ok=True)
    sams.screenshot(path=str(SHOTS / "pacg-play-and-log.png"))
