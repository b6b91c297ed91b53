"""Between sessions on a phone and a tablet: a character set aside and brought back from the Table tab, and the
pull list shown and printed alone (Skull & Shackles Rulebook, Between Games)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.table import PACG, SHOTS, beside
from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS

SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 820, "height": 1180}}


def cards_of(http, campaign, token, character_id):
    sheet = http.client.get(
        f"{http.origin}/v1/campaigns/{campaign['id']}/characters/{character_id}", headers=http.auth(token)
    ).json()["character"]
    found = {}
    for zone in sheet["zones"].values():
        for name, count in zone.items():
            found[name] = found.get(name, 0) + count
    return found, sheet["aside"]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_character_is_set_aside_and_brought_back_with_the_same_cards_from_the_table_tab(phones, http, size):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    http.append(campaign, [*PAYLOADS, {"type": "scenario.ended", "data": {"result": "won"}}])
    lily = http.member(campaign, "Lily")
    before, _ = cards_of(http, campaign, lily["token"], "lirianne")
    page = phones.open(lily["token"], viewport=SIZES[size])
    page.get_by_role("tab", name="Table").click()
    who = page.get_by_role("region", name="Who plays")

    who.get_by_role("button", name="Set aside Lirianne").click()

    expect(beside(who, "Set aside Lirianne")).to_contain_text("deck is written down and back in the box")
    expect(who.get_by_role("button", name="Bring back Lirianne")).to_be_visible()
    expect(who).to_contain_text(f"Lirianne — set aside, {sum(before.values())} cards written down")
    held, aside = cards_of(http, campaign, lily["token"], "lirianne")
    assert held == {} and sorted(aside) == sorted(n for n, c in before.items() for _ in range(c))
    assert not violations(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    who.screenshot(path=str(SHOTS / f"pacg-who-plays-{size}.png"))

    who.get_by_role("button", name="Bring back Lirianne").click()

    expect(who.get_by_role("button", name="Set aside Lirianne")).to_be_visible()
    assert cards_of(http, campaign, lily["token"], "lirianne") == (before, None)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_pull_list_is_shown_and_printed_alone(phones, http, size):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    http.append(campaign, [*PAYLOADS, {"type": "scenario.ended", "data": {"result": "won"}}])
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"], viewport=SIZES[size])
    page.get_by_role("tab", name="Table").click()
    who = page.get_by_role("region", name="Who plays")
    page.evaluate("window.print = () => { window.printed = true; }")

    who.get_by_role("button", name="Print the pull list").click()

    listed = who.get_by_label("Pull list")
    expect(listed).to_contain_text("Pull list: Dangerous Waters")
    expect(listed).to_contain_text("Lirianne (Lily):")
    assert page.evaluate("window.printed") is True
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.pull-list')).visibility") == "visible"
    assert page.evaluate("getComputedStyle(document.getElementById('title')).visibility") == "hidden"
    page.emulate_media(media="screen")
    assert not violations(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    listed.screenshot(path=str(SHOTS / f"pacg-pull-list-{size}.png"))
