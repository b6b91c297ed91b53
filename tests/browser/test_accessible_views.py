"""axe-core finds nothing broken on any view of the table page, in either game, at phone size (tests/browser/axe.py)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.unit.pacg.example_of_play import OPTIONS as PACG_OPTIONS, PAYLOADS as PACG_PLAY
from tests.unit.skull_tales import chapter_one


def clean(page, view):
    found = violations(page)
    assert not found, f"{view}: " + " | ".join(found)


def every_tab(page, glance):
    for tab in (glance, "Set up", "Play and log", "Dice luck", "Members"):
        page.get_by_role("tab", name=tab).click()
        expect(page.get_by_role("tab", name=tab)).to_have_attribute("aria-selected", "true")
        page.wait_for_load_state("networkidle")
        clean(page, tab)


def test_every_view_of_a_skull_and_shackles_table_is_clean(phones, http):
    campaign = http.campaign("pacg-skull-and-shackles", PACG_OPTIONS, name="Dangerous Waters")
    http.append(campaign, PACG_PLAY)
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"])
    every_tab(page, "Table")
    # A report and a recap open on the page, and looking back.
    page.get_by_role("tab", name="Table").click()
    page.get_by_role("link", name="Recap of Dangerous Waters").click()
    expect(page.get_by_role("region", name="Recap of Dangerous Waters")).to_be_visible()
    clean(page, "a recap")
    page.get_by_role("link", name="Report of Dangerous Waters").click()
    expect(page.get_by_role("region", name="Report of Dangerous Waters")).to_be_visible()
    clean(page, "a report")
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_role("button", name="Look back to here").nth(5).click()
    expect(page.get_by_role("button", name="Back to now")).to_be_visible()
    clean(page, "looking back")


def test_every_view_of_a_skull_tales_table_and_the_campaigns_list_is_clean(phones, http):
    campaign = http.campaign("skull-tales-full-sail", chapter_one.OPTIONS, name="Shadows of the Caribbean")
    http.append(campaign, chapter_one.CAMPAIGN)
    ana = http.member(campaign, "Ana")
    page = phones.open(ana["token"])
    every_tab(page, "Crew sheets")
    page.get_by_role("tab", name="Crew sheets").click()
    page.get_by_role("link", name="Report of Chapter 1").click()
    expect(page.get_by_role("region", name="Report of Chapter 1")).to_be_visible()
    clean(page, "a chapter's report")
    page.goto(page.url.split("/c/")[0] + "/")
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    clean(page, "the campaigns list")
