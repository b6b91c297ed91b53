"""Chronicle sheets on the page, printed: a full scenario's sheet (Skull & Shackles Rulebook, Example of Play, won,
then its rewards: After the Scenario) prints on exactly one page at A4 and at Letter in Chromium, and the campaign's
sheets print one a page; the sheet names its log positions and digest. At phone and tablet size."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.conftest import PHONE
from tests.browser.table import SHOTS
from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.skull_tales import chapter_one

TABLET = {"width": 820, "height": 1180}
AFTER = [
    {"type": "scenario.ended", "data": {"result": "won"}},
    {
        "type": "character.card_completed",
        "data": {
            "character_id": "lirianne",
            "card": {"skills": {"Dexterity": {"die": "d8", "feats": ["+1", "+2", "+3"]}}},
        },
    },
    {
        "type": "feat.gained",
        "data": {"character_id": "lirianne", "kind": "skill", "feat": "Dexterity +1", "reward_of": "Dangerous Waters"},
    },
    {"type": "note.added", "data": {"text": "We rebuild our decks tonight."}},
]


def pages(pdf: bytes) -> int:
    """How many pages a PDF Chromium printed has (its page objects, not its page tree)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("tablet", TABLET)])
def test_a_full_scenarios_sheet_prints_on_one_page_at_a4_and_letter(phones, http, size, viewport):
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="The Wormwood Mutiny")
    http.append(campaign, PAYLOADS)
    http.append(campaign, AFTER)
    [sheet] = http.get(campaign, "/chronicles")["sheets"]
    page = phones.open(campaign["token"], viewport)
    page.get_by_role("tab", name="Table").click()

    page.get_by_role("link", name="Chronicle sheet of Dangerous Waters").click()

    shown = page.get_by_role("article", name="Chronicle sheet: Dangerous Waters")
    expect(shown).to_contain_text(f"Log positions {sheet['first']} to {sheet['last']}")
    expect(shown).to_contain_text(sheet["digest"])
    expect(shown).to_contain_text("Result")
    assert not violations(page), violations(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shown.screenshot(path=str(SHOTS / f"chronicle-sheet-{size}.png"))
    for paper in ("A4", "Letter"):
        assert pages(page.pdf(format=paper, print_background=True)) == 1, paper
    page.emulate_media(media="print")
    page.screenshot(path=str(SHOTS / f"chronicle-sheet-printed-{size}.png"), full_page=True)


def test_the_campaigns_sheets_print_one_a_page_and_download_to_verify(phones, http, database_url):
    campaign = http.campaign("skull-tales-full-sail", chapter_one.OPTIONS, name="Shadows of the Caribbean")
    http.append(campaign, chapter_one.CAMPAIGN)
    sheets = http.get(campaign, "/chronicles")["sheets"]
    page = phones.open(campaign["token"], TABLET)
    page.get_by_role("tab", name="Crew sheets").click()

    page.get_by_role("button", name="Chronicle sheets to print").click()

    shown = page.get_by_role("region", name="Chronicle sheets")
    expect(shown.get_by_role("article")).to_have_count(len(sheets))
    assert len(sheets) >= 2
    for paper in ("A4", "Letter"):
        assert pages(page.pdf(format=paper)) == len(sheets), paper
    with page.expect_download() as text:
        shown.get_by_role("link", name="Download as text").click()
    assert "Chronicle sheet: Shadows of the Caribbean" in Path(text.value.path()).read_text()
    with page.expect_download() as sheets_file:
        shown.get_by_role("link", name="Download to verify").click()
    # The file the page gave is the one the operator's command checks against the log (docs/operations.md).
    checked = subprocess.run(
        [sys.executable, "-m", "quartermaster.service.cli", "chronicles", campaign["id"], "--verify"]
        + [str(sheets_file.value.path()), "--database-url", database_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0 and "all agree" in checked.stdout, checked.stderr
    shown.get_by_role("button", name="Close").click()
    expect(shown).to_have_count(0)
    expect(page.locator("html")).not_to_have_class(re.compile("sheets-open"))  # closed, the page prints whole again
