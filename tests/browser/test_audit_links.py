"""The table page links each scenario's or chapter's report and recap, and the phone's session opens them."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.skull_tales import chapter_one


def test_the_table_links_the_scenarios_report_and_recap_and_the_session_cookie_opens_them(phones, http):
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Table").click()

    played = page.get_by_role("region", name="Reports and recaps")
    expect(played).to_contain_text("Scenarios played")
    expect(played).to_contain_text("Dangerous Waters — being played")
    origin = page.url.split("/c/")[0]
    report = origin + played.get_by_role("link", name="Report of Dangerous Waters").get_attribute("href")
    recap = origin + played.get_by_role("link", name="Recap of Dangerous Waters").get_attribute("href")

    # Opened with the phone's cookie, no token: the report's numbers and the recap's turns.
    assert page.request.get(report).json()["checks"] == 14
    told = page.request.get(recap)
    assert told.ok and "### Seltyiel's turn" in told.text()


def test_the_crew_sheets_list_each_chapter_with_its_links(phones, http):
    campaign = http.campaign("skull-tales-full-sail", chapter_one.OPTIONS, name="Shadows of the Caribbean")
    http.append(campaign, chapter_one.CAMPAIGN)
    ana = http.member(campaign, "Ana")
    page = phones.open(ana["token"])
    page.get_by_role("tab", name="Crew sheets").click()

    played = page.get_by_role("region", name="Reports and recaps")
    expect(played).to_contain_text("Chapters played")
    expect(played.get_by_role("listitem")).to_have_count(3)
    expect(played.get_by_role("link", name="Report of Chapter 2")).to_have_attribute(
        "href", f"/v1/campaigns/{campaign['id']}/report?chapter=2&play=1"
    )
