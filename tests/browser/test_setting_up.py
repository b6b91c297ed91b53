"""Setting up a game at the table on phones (390x844), with taps and short names only, then read through the API.

Each test counts the taps and the characters typed, and computes the keystroke-level estimate of how long it takes
(1.35 s to decide before each action, 1.1 s a tap, 0.35 s a character typed): the figures are printed, and held to
the goals of issue 22.

The rulebooks print no scenario card: the scenario card of Press Ganged! is typed here as a group would type it from
its own card, and the names and counts below are this test's stand-ins for what is printed there, not the card.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.table import SHOTS
from tests.unit.skull_tales.chapter_one import CREW

DECIDE, TAP, CHARACTER = 1.35, 1.1, 0.35


@dataclass
class Effort:
    """What a person does on the phone: every tap, every character typed."""

    taps: int = 0
    typed: int = 0
    decisions: int = 0

    def tap(self, locator: Any) -> None:
        locator.click()
        self.taps += 1
        self.decisions += 1

    def type(self, locator: Any, text: str) -> None:
        # A tap into the field, then the characters.
        locator.click()
        locator.fill(text)
        self.taps += 1
        self.typed += len(text)
        self.decisions += 1

    def pick(self, scope: Any, label: str, typed: str, name: str) -> None:
        """A few letters typed into a name field, then a tap on the suggestion the page offers for them."""
        self.type(scope.get_by_label(label, exact=True), typed)
        offered = scope.locator(f'.suggest[data-for="{label}"]')
        self.tap(offered.get_by_role("button", name=name, exact=True))

    def choose(self, locator: Any, value: str) -> None:
        # A native select on a phone: a tap to open it, a tap on the option.
        locator.select_option(value)
        self.taps += 2
        self.decisions += 1

    def seconds(self) -> float:
        return DECIDE * self.decisions + TAP * self.taps + CHARACTER * self.typed

    def report(self, what: str) -> str:
        line = (
            f"{what}: {self.taps} taps, {self.typed} characters typed, {self.decisions} decisions; keystroke-level "
            f"estimate {self.seconds():.0f} s ({self.seconds() / 60:.1f} min)"
        )
        print(line)
        out = Path(os.environ.get("QUARTERMASTER_EFFORT", "/tmp/quartermaster-setup-effort.txt"))
        with out.open("a") as log:
            log.write(line + "\n")
        return line


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


def test_a_new_crew_of_three_pirates_is_recruited_from_their_cards_and_starts_the_first_chapter(phones, http):
    effort = Effort()
    owner = _start_campaign(phones, effort, "Jones", game="skull-tales-full-sail")
    effort.tap(owner.get_by_role("tab", name="Set up"))
    form = owner.locator("#setup-recruit").locator("..")
    for pirate in (p["data"] for p in CREW[:3]):
        effort.choose(form.get_by_label("Character Card (archetype)"), pirate["archetype"])
        effort.type(form.get_by_label("Pirate's name"), pirate["name"])
        if pirate.get("dominant_hand", "right") != "right":
            effort.choose(form.get_by_label("Dominant hand"), pirate["dominant_hand"])
        for box in ("Rogue", "Duelist", "Scholar", "Mystic", "Rowdy", "Shooter"):
            checked = form.get_by_label(f"Class: {box}").is_checked()
            if checked != (box in pirate["classes"]):
                effort.tap(form.get_by_label(f"Class: {box}"))
        for key, label in (
            ("melee", "Melee Combat"),
            ("ranged", "Ranged Combat"),
            ("strength", "Strength"),
            ("agility", "Agility"),
            ("intelligence", "Intelligence"),
            ("perception", "Perception"),
            ("charisma", "Charisma"),
        ):
            effort.type(form.get_by_label(label, exact=True), str(pirate["attributes"][key]))
        for key, label in (
            ("action_points", "Action Points"),
            ("health", "Health"),
            ("destiny_points", "Destiny Points"),
            ("salary", "Salary"),
        ):
            effort.type(form.get_by_label(label, exact=True), str(pirate[key]))
        for skill in pirate.get("skills", []):
            effort.pick(form, "Starting skills", skill[:4].lower(), skill)
        for item in pirate.get("starting_gear", []):
            effort.type(form.get_by_label("Starting gear", exact=True), item)
            effort.tap(form.get_by_role("button", name="Add the starting gear"))
        effort.tap(form.get_by_role("button", name="Recruit the pirate"))
        expect(form.locator(".done")).to_contain_text(f"{pirate['name']} joined the crew")
    effort.tap(owner.get_by_role("button", name="Start chapter 1, The Secret of Captain Jones"))
    expect(owner.get_by_text("Chapter 1 is open, in its adventure phase")).to_be_visible(timeout=5000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    owner.screenshot(path=str(SHOTS / "setup-tales-crew.png"), full_page=True)

    campaign = owner.url.rsplit("/", 1)[1]
    pirates = _api(http, owner, f"/v1/campaigns/{campaign}/pirates")["pirates"]
    wanted = [p["data"] for p in CREW[:3]]
    assert [p["name"] for p in pirates] == [p["name"] for p in wanted]
    for got, want in zip(pirates, wanted, strict=True):
        assert got["archetype"] == want["archetype"] and got["classes"] == want["classes"]
        assert got["health"] == want["health"] and got["starting_gear"] == want.get("starting_gear", [])
    chapter = _api(http, owner, f"/v1/campaigns/{campaign}/chapter")["chapter"]
    assert (chapter["chapter"], chapter["phase"]) == (1, "adventure")
    effort.report("Skull Tales: three pirates recruited and the first chapter started, from a fresh campaign")
    assert effort.taps <= 90 and effort.typed <= 120, effort
