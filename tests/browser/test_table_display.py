"""The table display: a tablet (820x1180) or a TV (1280x720) in the middle of the table, opened with the read-only
link the owner makes on the Members tab (at phone size), following the game live, fitting its screen without
scrolling, clean for axe, and stopped at once, in words, when the owner revokes it."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.table import PACG, SHOTS, TALES
from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS, SETTING_UP
from tests.unit.skull_tales import chapter_one

TABLET = {"width": 820, "height": 1180}
TV = {"width": 1280, "height": 720}
SCREENS = {"tablet": TABLET, "tv": TV}
FOLLOWS = 3000  # milliseconds: a tap on a phone shows on the display within this
# The rulebook's Example of Play up to Lirianne's first turn begun, at Cannibal Isle.
BEGUN = [
    *SETTING_UP[: max(i for i, e in enumerate(SETTING_UP) if e["type"] == "character.moved") + 1],
    {"type": "hourglass.advanced", "data": {"character_id": "lirianne"}},
]


def _display(phones, token, screen):
    page = phones.new(screen)
    page.goto(f"{phones.origin}/display#{token}")
    page.wait_for_url("**/display/*")
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    return page


def _fits(page):
    """Nothing of the display is beyond its screen: no scrolling either way."""
    sizes = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]"
    )
    assert sizes[0] <= sizes[2] and sizes[1] <= sizes[3], f"the display scrolls: {sizes}"


def _clean(page, where):
    found = violations(page)
    assert not found, f"{where}: " + " | ".join(found)


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


@pytest.mark.parametrize("screen", SCREENS)
def test_a_skull_and_shackles_scenario_fits_the_screen_legibly_with_no_control(phones, http, screen):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    display = http.member(campaign, "Table display", role="display")
    shown = http.get(campaign, "/display")["table"]

    page = _display(phones, display["token"], SCREENS[screen])

    expect(page.get_by_role("heading", level=1)).to_have_text(shown["scenario"])
    expect(page.locator("[data-part=blessings] .number")).to_have_text(str(shown["blessings"]["left"]))
    for place in shown["locations"]:
        expect(page.locator(f'[data-place="{place["name"]}"] .number')).to_have_text(str(place["cards"]))
    expect(page.get_by_role("list", name="The latest entries, newest last").get_by_role("listitem")).to_have_count(5)
    assert page.get_by_role("button").count() == 0 and page.locator("input, select, textarea, a").count() == 0
    _fits(page)
    # Legible from two metres: the smallest text is at least 20 px on these screens, the turn and counts larger.
    smallest = page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('main *')].filter(e => e.childNodes.length && "
        "[...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())).map(e => "
        "parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 20, smallest
    _clean(page, f"Skull & Shackles on the {screen}")
    _shot(page, f"pacg-table-display-{screen}.png")


def _eight_locations():
    """The Example of Play's set-up with eight locations, three more than its three players use, as a larger party's
    scenario card may list (Skull & Shackles Rulebook, Set Out the Locations: every location up to the number of
    players); logged with an override, since the game checks the scenario's own locations."""
    more = [
        {"name": name, "deck": {"monster": 1, "barrier": 1, "item": 1, "blessing": 1}}
        for name in ("Sea Caves", "Smuggler's Shiv", "Flotsam Graveyard")
    ]
    events = []
    for event in BEGUN:
        if event["type"] == "scenario.started":
            data = {**event["data"], "locations": [*event["data"]["locations"], *more]}
            event = {**event, "data": data, "override": {"reason": "The table plays with eight locations."}}
        events.append(event)
    return events


@pytest.mark.parametrize("screen", SCREENS)
def test_a_scenario_of_eight_locations_still_fits_the_screen(phones, http, screen):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    http.append(campaign, _eight_locations())
    display = http.member(campaign, "Table display", role="display")

    page = _display(phones, display["token"], SCREENS[screen])

    expect(page.locator("[data-place]")).to_have_count(8)
    _fits(page)
    _shot(page, f"pacg-table-display-eight-locations-{screen}.png")


@pytest.mark.parametrize("screen", SCREENS)
def test_a_skull_tales_chapter_fits_the_screen_with_each_pirates_fame_and_coins(phones, http, screen):
    campaign = http.campaign(TALES, chapter_one.OPTIONS, name="Shadows of the Caribbean")
    http.append(campaign, chapter_one.CAMPAIGN)
    display = http.member(campaign, "Table display", role="display")
    shown = http.get(campaign, "/display")["table"]

    page = _display(phones, display["token"], SCREENS[screen])

    expect(page.locator("[data-part=phase]")).to_contain_text(f"Chapter {shown['chapter']}")
    for pirate in shown["pirates"]:
        row = page.locator(f'[data-pirate="{pirate["name"]}"]')
        expect(row.locator("td").nth(0)).to_have_text(str(pirate["fame"]))
        expect(row.locator("td").nth(1)).to_have_text(str(pirate["coins"]))
    assert page.get_by_role("button").count() == 0
    _fits(page)
    _clean(page, f"Skull Tales on the {screen}")
    _shot(page, f"tales-table-display-{screen}.png")


@pytest.mark.parametrize("screen", SCREENS)
def test_the_display_follows_a_tap_on_a_phone_within_three_seconds(phones, http, screen):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    http.append(campaign, BEGUN)
    display = http.member(campaign, "Table display", role="display")
    page = _display(phones, display["token"], SCREENS[screen])
    expect(page.locator('[data-place="Cannibal Isle"] .here')).to_contain_text("Lirianne")
    phone = phones.open(campaign["token"])
    phone.get_by_role("tab", name="Play and log").click()

    phone.locator("section.turn").get_by_role("button", name="Move to Raker Shoals").click()
    tapped = time.monotonic()

    expect(page.locator('[data-place="Raker Shoals"] .here')).to_have_text("Lirianne", timeout=FOLLOWS)
    took = time.monotonic() - tapped
    expect(page.locator("[data-part=turn]")).to_contain_text("Lirianne at Raker Shoals")
    expect(page.locator('[data-place="Cannibal Isle"] .here')).to_have_count(0)
    expect(page.locator(".last li").last).to_contain_text("Raker Shoals")
    print(f"the {screen} showed the phone's tap {took:.2f} s after it")
    _fits(page)


def test_the_display_says_when_it_stops_following_and_catches_up_when_it_is_back(phones, http):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    http.append(campaign, BEGUN)
    display = http.member(campaign, "Table display", role="display")
    page = _display(phones, display["token"], TV)
    phones.outage = True  # the browser's notes of the display's reconnects while offline are what the test asks for

    page.context.set_offline(True)
    expect(page.locator("#live")).to_have_attribute("data-state", "lost")
    expect(page.locator("#live")).to_contain_text("Not following: reconnecting… · as of")
    http.append(campaign, [{"type": "character.moved", "data": {"character_id": "lirianne", "to": "Raker Shoals"}}])
    _shot(page, "pacg-table-display-not-following.png")
    page.context.set_offline(False)

    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=10000)
    expect(page.locator('[data-place="Raker Shoals"] .here')).to_have_text("Lirianne", timeout=FOLLOWS)
    expect(page.locator("#live")).to_contain_text(f"position {http.get(campaign, '')['position']}")


def test_the_owner_makes_a_display_link_on_her_phone_and_revoking_it_stops_the_tv_at_once(phones, http):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    owner = phones.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()

    owner.get_by_role("button", name="Make a table display link").click()

    expect(owner.get_by_role("img", name="QR code of Table display's table display link")).to_be_visible()
    link = owner.get_by_label("Link of Table display's table display link").inner_text()
    assert link.startswith(f"{http.origin}/display#"), link
    _clean(owner, "the Members tab with a table display link")
    owner.get_by_role("img", name="QR code of Table display's table display link").scroll_into_view_if_needed()
    _shot(owner, "pacg-members-table-display-link.png")
    tv = phones.new(TV)
    tv.goto(link)
    tv.wait_for_url("**/display/*")
    expect(tv.locator("#live")).to_have_attribute("data-state", "live")
    assert "#" not in tv.url
    expect(owner.get_by_role("listitem").filter(has_text="Table display")).to_contain_text("display")
    owner.once("dialog", lambda dialog: dialog.accept())

    owner.get_by_role("button", name="Revoke Table display").click()

    expect(tv.locator("#live")).to_have_attribute("data-state", "ended", timeout=FOLLOWS)
    expect(tv.locator("#live")).to_contain_text("Stopped following: Your access to this campaign was revoked")
    _shot(tv, "pacg-table-display-revoked.png")
    tv.reload()
    expect(tv.get_by_role("alert")).to_contain_text("does not follow the campaign")
    expect(tv.get_by_role("alert")).to_contain_text("revoked it")


def test_revoking_the_display_ends_its_open_stream_with_the_reason(http):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    display = http.member(campaign, "Table display", role="display")
    url = f"{http.origin}/v1/campaigns/{campaign['id']}"
    with (
        httpx.Client(timeout=httpx.Timeout(10, read=10)) as client,
        client.stream("GET", f"{url}/stream", headers=http.auth(display["token"])) as stream,
    ):
        assert stream.status_code == 200
        lines = stream.iter_lines()
        while not next(lines).startswith("event: event"):
            pass
        revoked = http.client.delete(f"{url}/members/{display['member_id']}", headers=http.auth(campaign["token"]))
        assert revoked.status_code == 200
        changed = time.monotonic()
        events = []
        for line in lines:
            if line.startswith("event: "):
                events.append(line[len("event: ") :])
            if events and events[-1] == "ended" and line.startswith("data: "):
                last = json.loads(line[len("data: ") :])
                break
        took = time.monotonic() - changed
        assert last["kind"] == "revoked" and last["detail"].endswith(".")
        assert not any(lines)  # the server closed the stream
    assert took < 3.0, took
    assert http.client.get(f"{url}/display", headers=http.auth(display["token"])).status_code == 401
