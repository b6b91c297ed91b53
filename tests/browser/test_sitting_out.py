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


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_owner_names_the_box_and_sees_another_campaigns_cards_out_by_its_title(phones, http, size):
    ours, theirs = (
        http.campaign(PACG, OPTIONS, name="Tuesday crew"),
        http.campaign(PACG, OPTIONS, name="Thursday crew"),
    )
    for campaign in (ours, theirs):
        http.append(campaign, [*PAYLOADS, {"type": "scenario.ended", "data": {"result": "won"}}])
    page = phones.open(ours["token"], viewport=SIZES[size])
    page.get_by_role("tab", name="Table").click()
    box = page.get_by_role("region", name="The box")
    expect(box).to_contain_text("No box is named yet")

    box.get_by_label("Box name").fill("The shelf box")
    box.get_by_role("button", name="Name the box").click()

    expect(beside(box, "Name the box")).to_contain_text("The box is named The shelf box.")
    key = box.locator(".box-key").inner_text()
    shared = http.client.put(
        f"{http.origin}/v1/campaigns/{theirs['id']}/box",
        json={"name": "Mira's box", "key": key},
        headers=http.auth(theirs["token"]),
    )
    assert shared.status_code == 200, shared.text
    page.reload()
    page.get_by_role("tab", name="Table").click()
    expect(box).to_contain_text("Thursday crew")
    expect(box).to_contain_text("Tuesday crew (this campaign)")
    missing = http.get(ours, "/box")["missing"]
    assert missing, "the two campaigns' equal decks want some card beyond the box"
    expect(box).to_contain_text(f"{missing[0]['card']}: {missing[0]['wanted']} wanted")
    assert not violations(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    box.screenshot(path=str(SHOTS / f"pacg-shared-box-{size}.png"))


def test_a_player_sees_no_box_card(phones, http):
    campaign = http.campaign(PACG, OPTIONS, name="Tuesday crew")
    http.append(campaign, PAYLOADS)
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Table").click()
    expect(page.get_by_role("region", name="Who plays")).to_be_visible()
    expect(page.get_by_role("region", name="The box")).to_have_count(0)
