"""Setting up a game at the table on phones (390x844), with taps and short names only, then read through the API.

Each test counts the taps and the characters typed, and computes the keystroke-level estimate of how long it takes
(1.35 s to decide before each action, 1.1 s a tap, 0.35 s a character typed): the figures are printed, and held to
the goals of issue 22.

The rulebooks print no scenario card: the scenario card of Press Ganged! is typed here as a group would type it from
its own card, and the names and counts below are this test's stand-ins for what is printed there, not the card.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from tests.browser.effort import Effort
from tests.browser.table import PACG, SHOTS, beside
from tests.unit.skull_tales.chapter_one import CREW

# What the group reads off its own Press Ganged! card and location cards (stand-ins: see the module's docstring).
PRESS_GANGED = {
    "villains": ["Master Scourge"],
    "henchmen": ["Ruffian"],
    "locations": [
        ("Cannibal Isle", 1, {"monster": 3, "barrier": 2, "weapon": 1, "spell": 1, "item": 1, "ally": 1, "armor": 1}),
        ("Fog Bank", 1, {"monster": 3, "barrier": 1, "spell": 2, "armor": 1, "ally": 2, "blessing": 1}),
        ("Raker Shoals", 1, {"monster": 2, "barrier": 3, "weapon": 2, "item": 2, "blessing": 1}),
        ("Shipwreck Graveyard", 2, {"monster": 4, "barrier": 1, "weapon": 1, "armor": 1, "item": 2, "blessing": 1}),
        ("Tempest Cay", 3, {"monster": 3, "barrier": 2, "spell": 1, "item": 1, "ally": 2, "blessing": 1}),
        ("Shark Island", 4, {"monster": 4, "barrier": 2, "weapon": 1, "armor": 1, "ally": 1, "blessing": 1}),
    ],
}


def _api(http: Any, page: Any, path: str) -> Any:
    """What the API answers for the page's campaign, read with the page's own session cookie."""
    answer = page.request.get(f"{http.origin}{path}", headers={"X-Quartermaster": "page"})
    assert answer.ok, answer.text()
    return answer.json()


def _start_campaign(phones: Any, effort: Effort, name: str, game: str | None = None) -> Any:
    page = phones.new()
    page.goto(phones.origin)
    effort.type(page.get_by_label("Campaign name"), name)
    if game:
        effort.choose(page.get_by_label("Game"), game)
    effort.tap(page.get_by_role("button", name="Start the campaign"))
    page.wait_for_url("**/c/*")
    page.locator("#live[data-state=live]").wait_for()
    return page


def _add_player(phones: Any, owner: Any, effort: Effort, name: str) -> Any:
    effort.tap(owner.get_by_role("tab", name="Members"))
    effort.type(owner.get_by_label("Name", exact=True), name)
    effort.tap(owner.get_by_role("button", name="Add the member"))
    link = owner.get_by_label(f"Join link for {name}").inner_text()
    # She scans the QR code with her phone: one tap to open what the camera found.
    phone = phones.new()
    # The link names this machine's address on the local network; the test server listens on 127.0.0.1.
    phone.goto(f"{phones.origin}/join#{link.split('#', 1)[1]}")
    effort.taps += 1
    effort.decisions += 1
    phone.wait_for_url("**/c/*")
    phone.locator("#live[data-state=live]").wait_for()
    return phone


def _done(scope: Any, button: str) -> None:
    place = scope.locator(".act").filter(has=scope.get_by_role("button", name=button, exact=True))
    expect(place.locator(".done")).to_contain_text("Logged at position", timeout=5000)
    expect(place.locator(".refusal")).to_be_empty()


def test_a_new_group_sets_up_a_four_character_party_with_decks_and_starts_press_ganged_on_phones(phones, http):
    effort = Effort()
    owner = _start_campaign(phones, effort, "Wormwood")
    mira = _add_player(phones, owner, effort, "Mira")

    # The owner picks three characters for herself and her friends at the table; Mira picks her own on her phone.
    effort.tap(owner.get_by_role("tab", name="Set up"))
    for character in ("Valeros", "Merisiel", "Lem"):
        effort.tap(owner.get_by_role("button", name=f"Pick {character}"))
        expect(owner.get_by_role("article", name=character)).to_be_visible()
    effort.tap(mira.get_by_role("tab", name="Set up"))
    effort.tap(mira.get_by_role("button", name="Pick Lirianne"))
    expect(mira.get_by_role("article", name="Lirianne")).to_contain_text("played by Mira")

    # Three suggested decks in one tap each; Lem's adjusted: a Cutlass for his Dagger, counted against his Cards List.
    for character in ("Valeros", "Merisiel"):
        effort.tap(owner.get_by_role("button", name=f"Use the suggested deck for {character}"))
        expect(owner.get_by_role("article", name=character)).to_contain_text("The deck is built")
    effort.tap(mira.get_by_role("button", name="Use the suggested deck for Lirianne"))
    expect(mira.get_by_role("article", name="Lirianne")).to_contain_text("The deck is built")
    effort.tap(owner.get_by_role("button", name="Adjust Lem's deck"))
    lem = owner.get_by_role("article", name="Lem")
    tally = lem.get_by_label("Lem's deck against the Cards List")
    expect(tally).to_contain_text("Weapon 2 of 2")
    effort.tap(lem.get_by_role("button", name="Take Dagger out of Cards of Lem's deck"))
    expect(tally).to_contain_text("Weapon 1 of 2")
    effort.pick(lem, "Cards of Lem's deck", "cutl", "Cutlass")
    expect(tally).to_contain_text("Weapon 2 of 2")
    effort.tap(lem.get_by_role("button", name="Build Lem's deck"))
    expect(owner.get_by_role("article", name="Lem")).to_contain_text("The deck is built")

    # The group types its Press Ganged! card once.
    effort.tap(owner.get_by_text("Record a scenario card"))
    form = owner.locator("details").filter(has_text="Record a scenario card")
    effort.pick(form, "Scenario", "pres", "Press Ganged!")
    effort.tap(form.get_by_role("button", name="One more: Adventure deck number"))
    for villain in PRESS_GANGED["villains"]:
        effort.pick(form, "Villains", villain[-7:-3].lower(), villain)
    for henchman in PRESS_GANGED["henchmen"]:
        effort.pick(form, "Henchmen, top of the list first", henchman[:4].lower(), henchman)
    previous = 1
    for n, (name, players, deck) in enumerate(PRESS_GANGED["locations"], start=1):
        if n > 1:
            effort.tap(form.get_by_role("button", name="Add a location"))
        effort.pick(form, f"Location {n}: name", name[:4].lower(), name)
        for _ in range(players - previous):
            effort.tap(form.get_by_role("button", name=f"One more: Location {n}: players"))
        previous = players
        for card_type, count in deck.items():
            for _ in range(count):
                effort.tap(form.get_by_role("button", name=f"One more: Location {n}: {card_type}"))
    effort.tap(form.get_by_role("button", name="Keep this scenario card"))
    expect(form.locator(".done")).to_contain_text("Press Ganged!'s card is kept")

    # Starting it: pick the card, confirm the party, roll the setup plunder.
    effort.tap(owner.get_by_role("button", name="Set up Press Ganged!"))
    setting = owner.get_by_label("Setting up Press Ganged!")
    expect(setting).to_contain_text("Press Ganged! for 4 players")
    effort.choose(setting.get_by_label("Setup plunder: the d6 on the Plunder Table"), "3")
    effort.tap(setting.get_by_role("button", name="Start Press Ganged!"))
    expect(owner.locator("#setup-scenario")).to_have_text("The scenario", timeout=5000)
    expect(owner.get_by_text("Press Ganged! is being played")).to_be_visible(timeout=5000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    owner.screenshot(path=str(SHOTS / "setup-pacg-started.png"), full_page=True)

    # Read through the API: four characters with full decks, the scenario in progress with its six locations.
    campaign = owner.url.rsplit("/", 1)[1]
    state = _api(http, owner, f"/v1/campaigns/{campaign}/state")["state"]
    assert sorted(state["characters"]) == ["lem", "lirianne", "merisiel", "valeros"]
    assert all(c["has_deck"] for c in state["characters"].values())
    assert state["characters"]["lirianne"]["player"] == "Mira"
    for who in state["characters"]:
        character = _api(http, owner, f"/v1/campaigns/{campaign}/characters/{who}")["character"]
        assert character["counts"]["deck"] == 15, (who, character["counts"])
    assert "Cutlass" in _api(http, owner, f"/v1/campaigns/{campaign}/characters/lem")["character"]["zones"]["deck"]
    scenario = _api(http, owner, f"/v1/campaigns/{campaign}/scenario")["scenario"]
    assert scenario["in_progress"] and scenario["name"] == "Press Ganged!"
    assert [loc["name"] for loc in scenario["locations"]] == [name for name, _, _ in PRESS_GANGED["locations"]]
    assert scenario["hourglass"]["left"] == 30
    assert _api(http, owner, f"/v1/campaigns/{campaign}/fleet")["fleet"]["plunder"] == 1

    effort.report("Skull & Shackles: four characters with decks and Press Ganged! started, from a fresh campaign")
    assert effort.taps <= 150 and effort.typed <= 250, effort

    # The party loses; the replay needs no retyping.
    lost = owner.request.post(
        f"{http.origin}/v1/campaigns/{campaign}/events",
        headers={"X-Quartermaster": "page", "Content-Type": "application/json"},
        data=json.dumps({"events": [{"type": "scenario.ended", "data": {"result": "lost"}}]}),
    )
    assert lost.ok, lost.text()
    replay = Effort()
    replay.tap(owner.get_by_role("button", name="Set up Press Ganged!"))
    setting = owner.get_by_label("Setting up Press Ganged!")
    replay.choose(setting.get_by_label("Setup plunder: the d6 on the Plunder Table"), "5")
    replay.tap(setting.get_by_role("button", name="Start Press Ganged!"))
    expect(owner.get_by_text("Press Ganged! is being played")).to_be_visible(timeout=5000)
    scenario = _api(http, owner, f"/v1/campaigns/{campaign}/scenario")["scenario"]
    assert scenario["in_progress"] and len(scenario["locations"]) == 6
    replay.report("Skull & Shackles: replaying the lost Press Ganged!")
    assert replay.taps <= 10 and replay.typed == 0, replay


ATTRIBUTE_LABELS = (
    ("melee", "Melee Combat"),
    ("ranged", "Ranged Combat"),
    ("strength", "Strength"),
    ("agility", "Agility"),
    ("intelligence", "Intelligence"),
    ("perception", "Perception"),
    ("charisma", "Charisma"),
)
POINT_LABELS = (
    ("action_points", "Action Points"),
    ("health", "Health"),
    ("destiny_points", "Destiny Points"),
    ("salary", "Salary"),
)


def _recruit(form: Any, effort: Effort, pirate: dict[str, Any], typed_card: bool) -> None:
    """One player recruits her Pirate: the archetype, her name, her hand, and the card's values when the campaign does
    not keep the group's card yet."""
    effort.choose(form.get_by_label("Character Card (archetype)"), pirate["archetype"])
    effort.type(form.get_by_label("Pirate's name"), pirate["name"])
    if pirate.get("dominant_hand", "right") != "right":
        effort.choose(form.get_by_label("Dominant hand"), pirate["dominant_hand"])
    if typed_card:
        for box in ("Rogue", "Duelist", "Scholar", "Mystic", "Rowdy", "Shooter"):
            checked = form.get_by_label(f"Class: {box}").is_checked()
            if checked != (box in pirate["classes"]):
                effort.tap(form.get_by_label(f"Class: {box}"))
        for key, label in ATTRIBUTE_LABELS:
            effort.type(form.get_by_label(label, exact=True), str(pirate["attributes"][key]))
        for key, label in POINT_LABELS:
            effort.type(form.get_by_label(label, exact=True), str(pirate[key]))
        for skill in pirate.get("skills", []):
            effort.pick(form, "Starting skills", skill[:4].lower(), skill)
        for item in pirate.get("starting_gear", []):
            effort.type(form.get_by_label("Starting gear", exact=True), item)
            effort.tap(form.get_by_role("button", name="Add the starting gear"))
        expect(form.get_by_label("Keep these values as the group's card")).to_be_checked()
    else:
        # The group's card is kept: its values are on the form already, and nothing is typed but the name.
        expect(form.get_by_text(f"The group's {pirate['archetype']} card is kept")).to_be_visible()
        expect(form.get_by_label("Health", exact=True)).to_have_value(str(pirate["health"]))
    effort.tap(form.get_by_role("button", name="Recruit the pirate"))
    expect(form.locator(".done")).to_contain_text(f"{pirate['name']} joined the crew")


def _crew_started(http: Any, owner: Any, effort: Effort, what: str) -> str:
    """The first chapter started, then the crew and its chapter read through the API; the effort reported."""
    effort.tap(owner.get_by_role("button", name="Start chapter 1, The Secret of Captain Jones"))
    expect(owner.get_by_text("Chapter 1 is open, in its adventure phase")).to_be_visible(timeout=5000)
    campaign: str = owner.url.rsplit("/", 1)[1]
    pirates = _api(http, owner, f"/v1/campaigns/{campaign}/pirates")["pirates"]
    wanted = [p["data"] for p in CREW[:3]]
    assert [p["name"] for p in pirates] == [p["name"] for p in wanted]
    for got, want in zip(pirates, wanted, strict=True):
        assert got["archetype"] == want["archetype"] and got["classes"] == want["classes"]
        assert got["health"] == want["health"] and got["salary"] == want["salary"]
        assert got["starting_gear"] == want.get("starting_gear", [])
        assert got["dominant_hand"] == want.get("dominant_hand", "right")
    chapter = _api(http, owner, f"/v1/campaigns/{campaign}/chapter")["chapter"]
    assert (chapter["chapter"], chapter["phase"]) == (1, "adventure")
    effort.report(what)
    return campaign


def test_a_new_crew_of_three_pirates_is_recruited_from_their_cards_and_starts_the_first_chapter(phones, http, tmp_path):
    # The first campaign: each card is typed once, and kept as the group's own.
    effort = Effort()
    owner = _start_campaign(phones, effort, "Jones", game="skull-tales-full-sail")
    effort.tap(owner.get_by_role("tab", name="Set up"))
    form = owner.locator("#setup-recruit").locator("..")
    for pirate in (p["data"] for p in CREW[:3]):
        _recruit(form, effort, pirate, typed_card=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    owner.screenshot(path=str(SHOTS / "setup-tales-crew.png"), full_page=True)
    campaign = _crew_started(
        http, owner, effort, "Skull Tales: three pirates recruited and the first chapter started, cards typed"
    )
    assert effort.taps <= 90 and effort.typed <= 120, effort
    cards = _api(http, owner, f"/v1/campaigns/{campaign}/cards")["cards"]["character_cards"]
    assert sorted(c["archetype"] for c in cards) == sorted(p["data"]["archetype"] for p in CREW[:3])

    # The group downloads its cards...
    share = owner.locator("details").filter(has_text="Share the group's cards")
    share.get_by_text("Share the group's cards").click()
    with owner.expect_download() as downloading:
        share.get_by_role("button", name="Download the group's cards").click()
    saved = tmp_path / "cards.json"
    downloading.value.save_as(saved)

    # ...and a second campaign loads them and recruits the same three with no card typed.
    again = Effort()
    other = _start_campaign(phones, again, "Jones again", game="skull-tales-full-sail")
    again.tap(other.get_by_role("tab", name="Set up"))
    share = other.locator("details").filter(has_text="Share the group's cards")
    again.tap(share.get_by_text("Share the group's cards"))
    # A tap on the file field, a tap on the file in the phone's chooser.
    share.get_by_label("File of a group's cards").set_input_files(str(saved))
    again.taps += 2
    again.decisions += 1
    again.tap(share.get_by_role("button", name="Load the file into this campaign"))
    expect(beside(share, "Load the file into this campaign").locator(".done")).to_contain_text("Loaded 3 cards")
    form = other.locator("#setup-recruit").locator("..")
    for pirate in (p["data"] for p in CREW[:3]):
        _recruit(form, again, pirate, typed_card=False)
    other.screenshot(path=str(SHOTS / "setup-tales-crew-from-cards.png"), full_page=True)
    second = _crew_started(
        http,
        other,
        again,
        "Skull Tales: three pirates recruited and the first chapter started, cards loaded from the file",
    )
    assert second != campaign
    assert again.taps <= 90 and again.typed <= 120, again


def test_an_adventure_the_catalogue_knows_only_in_part_is_begun_with_typed_controls(phones, http):
    # Given a fresh Skull & Shackles campaign: the rulebook names only Island Hopping of Plunder and Peril's five.
    campaign = http.campaign(PACG)
    page = phones.open(campaign["token"])
    effort = Effort()
    effort.tap(page.get_by_role("tab", name="Set up"))
    place = page.locator("#setup-adventure").locator("..")
    expect(place).to_contain_text("The party is playing no adventure")
    effort.tap(place.get_by_text("Begin an adventure"))
    # When the group picks the adventure by a few letters, the page fills in what the catalogue knows of it
    effort.pick(place, "Adventure", "plun", "Plunder and Peril")
    expect(place.get_by_label("Its scenarios, in order: chosen")).to_contain_text("Island Hopping")
    expect(place.get_by_label("Scenarios its card lists", exact=True)).to_have_value("5")
    expect(place).to_contain_text("The catalogue knows only Island Hopping")
    effort.tap(place.get_by_role("button", name="Begin the adventure"))
    expect(beside(place, "Begin the adventure").locator(".done")).to_contain_text("Plunder and Peril has begun")
    # then the party plays it, its card's five scenarios counted with one named, and the page says so.
    adventure = http.get(campaign, "/state")["state"]["adventure"]
    assert (adventure["name"], adventure["scenarios"], adventure["count"]) == (
        "Plunder and Peril",
        ["Island Hopping"],
        5,
    )
    expect(place).to_contain_text("The party is playing Plunder and Peril: 0 of its 5 scenarios won", timeout=5000)
    effort.report("Skull & Shackles: Plunder and Peril begun with one of its five scenarios named")
    assert effort.typed == 4


def test_an_adventure_s_card_cannot_list_fewer_scenarios_than_are_named_and_nothing_is_written(phones, http):
    campaign = http.campaign(PACG)
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Set up").click()
    place = page.locator("#setup-adventure").locator("..")
    place.get_by_text("Begin an adventure").click()
    place.get_by_label("Adventure", exact=True).fill("Our Own Adventure")
    place.get_by_label("Its scenarios, in order", exact=True).fill("First Blood")
    place.get_by_role("button", name="Add the scenario").click()
    place.get_by_label("Its scenarios, in order", exact=True).fill("Second Blood")
    place.get_by_role("button", name="Add the scenario").click()
    before = http.get(campaign, "")["position"]
    place.get_by_role("button", name="Begin the adventure").click()
    refusal = beside(place, "Begin the adventure").locator(".refusal").first
    expect(refusal).to_contain_text("cannot list 1 scenarios when 2 are named: nothing was written")
    assert http.get(campaign, "")["position"] == before
