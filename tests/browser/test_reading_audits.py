"""A scenario's and a chapter's report read on a phone as the page's headings and lists, and a recap copied to paste."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.skull_tales import chapter_one


def test_a_scenario_report_opens_as_headings_and_lists_not_json(phones, http):
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Table").click()
    page.get_by_role("link", name="Report of Dangerous Waters").click()

    report = page.get_by_role("region", name="Report of Dangerous Waters")
    expect(report.get_by_role("heading", name="Dangerous Waters (play 1): still being played")).to_be_visible()
    expect(report.get_by_role("heading", name="Success rate")).to_be_visible()
    expect(report.get_by_role("heading", name="Cards")).to_be_visible()
    expect(report.get_by_role("listitem").first).to_be_visible()
    assert "{" not in report.inner_text()  # not JSON
    # A report has nothing to copy; Close puts the page back as it was.
    expect(report.get_by_role("button", name="Copy")).to_have_count(0)
    report.get_by_role("button", name="Close").click()
    expect(report).to_have_count(0)


def test_a_chapter_report_opens_with_its_phases_and_record_sheets(phones, http):
    campaign = http.campaign("skull-tales-full-sail", chapter_one.OPTIONS, name="Shadows of the Caribbean")
    http.append(campaign, chapter_one.CAMPAIGN)
    ana = http.member(campaign, "Ana")
    page = phones.open(ana["token"])
    page.get_by_role("tab", name="Crew sheets").click()
    page.get_by_role("link", name="Report of Chapter 1").click()

    report = page.get_by_role("region", name="Report of Chapter 1")
    expect(report.get_by_role("heading", name="Record Sheets")).to_be_visible()
    expect(report.get_by_role("heading", name="Chapter 1", exact=True)).to_be_visible()
    expect(report.get_by_role("listitem").filter(has_text="Fame").first).to_be_visible()
    assert "{" not in report.inner_text()


def test_a_recap_is_copied_as_markdown_or_as_plain_text(phones, http):
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("tab", name="Table").click()
    page.get_by_role("link", name="Recap of Dangerous Waters").click()

    recap = page.get_by_role("region", name="Recap of Dangerous Waters")
    expect(recap.get_by_role("heading", name="Seltyiel's turn")).to_be_visible()
    recap.get_by_role("button", name="Copy", exact=True).click()
    expect(recap.get_by_role("status")).to_contain_text("Copied as Markdown")
    markdown = page.evaluate("navigator.clipboard.readText()")
    assert "### Seltyiel's turn" in markdown and markdown.startswith("# ")

    recap.get_by_role("button", name="Copy as plain text").click()
    expect(recap.get_by_role("status")).to_contain_text("Copied as plain text")
    text = page.evaluate("navigator.clipboard.readText()")
    assert "Seltyiel's turn" in text and "#" not in text.split("\n")[0] and "• " in text
