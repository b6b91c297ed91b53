"""A Skull & Shackles table of three plays a whole scenario on one phone (390x844), from its set-up to its end and its
rewards, with page controls only, never "Anything else"; then the campaign's progress is read.

Set-up: the owner begins Plunder and Peril (the catalogue knows its five scenarios' count), picks Lirianne, Seltyiel
and Alahazra with their suggested decks, sets up Dangerous Waters from the catalogue's locations for three players
(each location's deck list counted once, from the Example of Play's table: no rulebook prints them), rolls the setup
plunder, and deals each starting hand in one step. Dangerous Waters is played on its own, not as part of the
adventure.

The scenario: six turns in the seating order. Two Buccaneers are defeated and their locations closed; the others
explore and move so that, when Alahazra meets Jemma Redclaw at Raker Shoals, Lirianne and Seltyiel stand at the two
other open locations and close them for the encounter; the villain defeated has nowhere to escape, and the party
wins. One monster revealed is not in the catalogue: its type is asked once, in the Explore box. Each check's dice are
her skill's, tapped; the faces of the table's own dice are typed. The cards revealed are the table's (of a type face
down there).

Rewards: the scenario card's reward is not in the rulebooks; the table here reads "a feat" off it (this test's
stand-in). Each character's card as the catalogue records it has no feat boxes, so each counts hers once, inline,
then taps the box she checks. The setup plunder, a spell face down under the ship, is turned over and handed out.
The progress is read afterwards: the feats on the characters, Dangerous Waters among the scenarios won, Plunder and
Peril still at 0 of its 5 with Island Hopping next.

The figures (set-up taps; each turn's taps, characters and keystroke-level estimate; the median turn; the count of
actions that needed "Anything else") are printed and written beside the others (QUARTERMASTER_EFFORT).
"""

from __future__ import annotations

import statistics
from typing import Any

from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.effort import Effort, note
from tests.browser.table import PACG, SHOTS
from tests.browser.turns import LIVE, caught_up, deal, moved_on, panel, position, reset_and_end

PARTY = ("Lirianne", "Seltyiel", "Alahazra")
HAND_SIZES = {"Lirianne": 4, "Seltyiel": 5, "Alahazra": 6}
# Each location's deck list as the table counts it from its location card (the Example of Play's table).
DECKS = {
    "Cannibal Isle": {"monster": 1, "barrier": 1, "item": 1, "blessing": 1},
    "Fog Bank": {"monster": 1, "spell": 1, "ally": 1, "blessing": 1},
    "Raker Shoals": {"barrier": 1, "armor": 1, "blessing": 1},
    "Shipwreck Graveyard": {"monster": 1, "weapon": 1, "item": 1},
    "Tempest Cay": {"monster": 1, "weapon": 1, "blessing": 1},
}
# A monster the catalogue does not know: the table's own card (its type asked once, in the Explore box).
NEW_MONSTER = "Giant Crab"
# Each turn: who, where she moves (None: she stays), the card revealed, its type when the campaign does not know it,
# the skill whose dice she rolls (tapped), the difficulty, the faces thrown, the outcome button, the locations closed
# during the turn (for good after a henchman; for the villain's encounter: "temporary"), and who is next (None: the
# scenario is over).
TURNS: list[dict[str, Any]] = [
    {"who": "Lirianne", "to": None, "card": "Buccaneer", "skill": "Ranged 1d8+3", "difficulty": "8", "faces": "7",
     "outcome": "Defeated: banish it", "close": ["Cannibal Isle"], "next": "Seltyiel"},
    {"who": "Seltyiel", "to": "Fog Bank", "card": "Buccaneer", "skill": "Arcane 1d8+3", "difficulty": "8", "faces": "6",
     "outcome": "Defeated: banish it", "close": ["Fog Bank"], "next": "Alahazra"},
    {"who": "Alahazra", "to": "Raker Shoals", "card": "Leather Armor", "skill": "Charisma 1d12", "difficulty": "5",
     "faces": "9", "outcome": "Acquired", "next": "Lirianne"},
    {"who": "Lirianne", "to": "Shipwreck Graveyard", "card": NEW_MONSTER, "type": "monster", "skill": "Ranged 1d8+3",
     "difficulty": "7", "faces": "6", "outcome": "Defeated: banish it", "next": "Seltyiel"},
    {"who": "Seltyiel", "to": "Tempest Cay", "card": "Dagger", "skill": "Arcane 1d8+3", "difficulty": "4", "faces": "2",
     "outcome": "Acquired", "next": "Alahazra"},
    {"who": "Alahazra", "to": None, "card": "Jemma Redclaw", "skill": "Divine 1d12+2", "difficulty": "10",
     "faces": "11", "outcome": "Defeated: close Raker Shoals, banish it, the scenario is won",
     "temporary": ["Shipwreck Graveyard", "Tempest Cay"], "next": None},
]  # fmt: skip
# The feat each takes from the reward, with the boxes her card shows of that kind (this test's stand-ins).
FEATS = {
    "Lirianne": ("skill", {"Dexterity": 3}, "Dexterity +1"),
    "Seltyiel": ("card", {"weapon": 2}, "Weapon: 5 cards"),
    "Alahazra": ("skill", {"Charisma": 4}, "Charisma +1"),
}


def _set_up(page: Any, http: Any, campaign: dict[str, Any], effort: Effort) -> None:
    effort.tap(page.get_by_role("tab", name="Set up"))
    # The tab drawn whole (the party's picks come last) before a form in it is opened.
    expect(page.get_by_role("button", name="Pick Lirianne")).to_be_visible(timeout=LIVE)
    adventure = page.locator("#setup-adventure").locator("..")
    effort.tap(adventure.get_by_text("Begin an adventure"))
    effort.pick(adventure, "Adventure", "plun", "Plunder and Peril")
    effort.tap(adventure.get_by_role("button", name="Begin the adventure"))
    expect(adventure).to_contain_text("0 of its 5 scenarios won", timeout=LIVE)
    for who in PARTY:
        effort.tap(page.get_by_role("button", name=f"Pick {who}"))
        expect(page.get_by_role("article", name=who)).to_be_visible(timeout=LIVE)
    for who in PARTY:
        effort.tap(page.get_by_role("button", name=f"Use the suggested deck for {who}"))
        expect(page.get_by_role("article", name=who)).to_contain_text("The deck is built", timeout=LIVE)
    effort.tap(page.get_by_role("button", name="Set up Dangerous Waters"))
    setting = page.get_by_label("Setting up Dangerous Waters")
    expect(setting).to_contain_text("Dangerous Waters for 3 players")
    for place, deck in DECKS.items():
        for card_type, count in deck.items():
            for _ in range(count):
                effort.tap(setting.get_by_role("button", name=f"One more: {place}: {card_type}"))
    effort.choose(setting.get_by_label("Setup plunder: the d6 on the Plunder Table"), "2")
    setting.screenshot(path=str(SHOTS / "pacg-scenario-set-up.png"))
    _clean(page, "a catalogue scenario set up")
    effort.tap(setting.get_by_role("button", name="Start Dangerous Waters"))
    expect(page.get_by_text("Dangerous Waters is being played")).to_be_visible(timeout=LIVE)
    effort.tap(page.get_by_role("tab", name="Play and log"))
    for who in PARTY:
        deal(page, http, campaign, effort, who, HAND_SIZES[who])
    effort.tap(panel(page).get_by_role("button", name="Start Lirianne's turn"))
    expect(panel(page).get_by_role("heading", name="Lirianne's turn")).to_be_visible(timeout=LIVE)


def _tap_and_wait(page: Any, http: Any, campaign: dict[str, Any], effort: Effort, button: Any) -> int:
    before = position(http, campaign)
    effort.tap(button)
    at = moved_on(http, campaign, before, panel(page))
    caught_up(page, at)
    return at


def _turn(page: Any, http: Any, campaign: dict[str, Any], turn: dict[str, Any], shots: set[str]) -> Effort:
    effort = Effort()
    box = panel(page)
    who = turn["who"]
    expect(box.get_by_role("heading", name=f"{who}'s turn")).to_be_visible(timeout=LIVE)
    if turn["to"]:
        _tap_and_wait(page, http, campaign, effort, box.get_by_role("button", name=f"Move to {turn['to']}"))
    here = turn["to"] or http.get(campaign, "/turn")["turn"]["location"]
    card = turn["card"]
    if "type" in turn:
        # A card new to the campaign: typed whole, and its type chosen once.
        effort.type(box.get_by_label("Card revealed", exact=True), card)
        effort.choose(box.get_by_label("Its type", exact=True), turn["type"])
    else:
        effort.pick(box, "Card revealed", card[:3].lower(), card)
    _tap_and_wait(page, http, campaign, effort, box.get_by_role("button", name=f"Explore {here}"))
    encounter = page.get_by_role("region", name=f"Encountering {card}")
    expect(encounter).to_be_visible(timeout=LIVE)
    if "encounter" not in shots:
        shots.add("encounter")
        panel(page).screenshot(path=str(SHOTS / "pacg-scenario-encounter.png"))
        _clean(page, "an encounter with her skills offered")
    for place in turn.get("temporary", []):
        _tap_and_wait(page, http, campaign, effort, box.get_by_role("button", name=f"Close {place} for this encounter"))
    # A card played on the check: the first of her hand, discarded.
    played = box.get_by_label("Card played", exact=True)
    effort.choose(played, played.locator("option").first.get_attribute("value"))
    _tap_and_wait(page, http, campaign, effort, box.get_by_role("button", name="Discard the card played"))
    effort.tap(encounter.get_by_role("group", name=f"{who}'s skills").get_by_role("button", name=turn["skill"]))
    effort.type(encounter.get_by_label("Difficulty", exact=True), turn["difficulty"])
    effort.type(encounter.get_by_label("Faces thrown", exact=True), turn["faces"])
    _tap_and_wait(
        page, http, campaign, effort, encounter.get_by_role("button", name="Log the dice thrown for the check")
    )
    outcomes = encounter.get_by_role("group", name="How the encounter ended").get_by_role("button")
    expect(outcomes.filter(has_text=turn["outcome"])).to_have_count(1, timeout=LIVE)
    _tap_and_wait(page, http, campaign, effort, outcomes.filter(has_text=turn["outcome"]))
    for place in turn.get("close", []):
        _tap_and_wait(page, http, campaign, effort, box.get_by_role("button", name=f"Close {place}", exact=True))
    if turn["next"]:
        reset_and_end(page, http, campaign, effort, who, turn["next"])
    return effort


def _clean(page: Any, view: str) -> None:
    found = violations(page)
    assert not found, f"{view}: " + " | ".join(found)


def _reward(page: Any, http: Any, campaign: dict[str, Any], effort: Effort, who: str, first: bool = False) -> None:
    kind, boxes, feat = FEATS[who]
    reward = page.get_by_role("region", name="The reward of Dangerous Waters")
    mine = reward.get_by_role("group", name=f"{who}'s feat from Dangerous Waters")
    effort.tap(mine.get_by_text("feat boxes (not recorded yet)"))
    if first:
        _clean(page, "the rewards, a card's boxes asked")
    for group, count in boxes.items():
        for _ in range(count):
            effort.tap(mine.get_by_role("button", name=f"One more: {who}'s {group} feat boxes"))
    _tap_and_wait(page, http, campaign, effort, mine.get_by_role("button", name=f"Keep {who}'s {kind} feat boxes"))
    _tap_and_wait(page, http, campaign, effort, mine.get_by_role("button", name=f"{who}: {kind.capitalize()}: {feat}"))
    expect(reward).to_contain_text(f"{who} has her feat from Dangerous Waters", timeout=LIVE)


def test_a_table_of_three_plays_dangerous_waters_from_its_set_up_to_its_rewards_with_page_controls_only(phones, http):
    campaign = http.campaign(PACG, name="Dangerous Waters")
    page = phones.open(campaign["token"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    anything_else = 0  # actions that needed the generic form: none is opened below, and the count says so

    setting_up = Effort()
    _set_up(page, http, campaign, setting_up)
    setting_up.report("Dangerous Waters set up for three (adventure begun, party, decks, locations, starting hands)")
    scenario = http.get(campaign, "/scenario")["scenario"]
    assert [place["name"] for place in scenario["locations"]] == list(DECKS)
    assert (
        http.get(campaign, "/recorded")["recorded"]["scenario_cards"][0]["locations"][0]["deck"]
        == DECKS["Cannibal Isle"]
    )

    turns = []
    shots: set[str] = set()
    for turn in TURNS:
        effort = _turn(page, http, campaign, turn, shots)
        turns.append(effort)
        effort.report(f"{turn['who']}'s turn at Dangerous Waters (the turn panel)")
    rewards = page.get_by_role("heading", name="Rewards")
    expect(rewards).to_be_visible(timeout=LIVE)
    panel(page).screenshot(path=str(SHOTS / "pacg-scenario-rewards.png"))
    events = http.get(campaign, "/events", limit=1000)["events"]
    assert events[-1]["type"] == "scenario.ended" and events[-1]["data"]["result"] == "won"

    taking = Effort()
    for who in PARTY:
        _reward(page, http, campaign, taking, who, first=who == PARTY[0])
    # The setup plunder (a spell, face down under the ship) is the party's: turned over, named, handed out.
    plunder = page.get_by_role("region", name="The plunder won")
    taking.pick(plunder, "The spell turned over", "cur", "Cure")
    taking.choose(plunder.get_by_label("The spell turned over: to"), "seltyiel")
    _tap_and_wait(page, http, campaign, taking, plunder.get_by_role("button", name="Hand out the spell turned over"))
    expect(plunder).to_have_count(0, timeout=LIVE)
    panel(page).screenshot(path=str(SHOTS / "pacg-scenario-rewarded.png"))
    taking.report("Rewards of Dangerous Waters: three feats (each card's boxes counted once) and the plunder")

    # The campaign's progress reads right afterwards.
    feats = {who: http.get(campaign, f"/characters/{who.lower()}")["character"]["feats"] for who in PARTY}
    assert feats["Lirianne"]["skill"] == {"Dexterity": ["+1"]}
    assert feats["Seltyiel"]["card"] == {"weapon": ["5"]}
    assert feats["Alahazra"]["skill"] == {"Charisma": ["+1"]}
    assert "Cure" in http.get(campaign, "/characters/seltyiel")["character"]["zones"]["deck"]
    after = http.get(campaign, "/scenario")["scenario"]
    assert after["completed"] == ["Dangerous Waters"]
    adventure = after["progress"]["adventure"]
    assert (adventure["name"], adventure["won"], adventure["scenario_count"], adventure["next"]) == (
        "Plunder and Peril",
        0,
        5,
        "Island Hopping",
    )
    expect(page.get_by_label("The campaign's progress")).to_have_text(
        "Plunder and Peril: 0 of its 5 scenarios won. Next: Island Hopping."
    )
    assert all(c["feat_gained"] for c in after["rewards"][0]["characters"])

    taps = statistics.median(e.taps for e in turns)
    typed = statistics.median(e.typed for e in turns)
    seconds = statistics.median(e.seconds() for e in turns)
    note(
        f"Dangerous Waters, whole scenario of {len(turns)} turns: set-up {setting_up.taps} taps; median turn "
        f"{taps} taps, {typed} characters, {seconds:.0f} s; rewards {taking.taps} taps; "
        f"{anything_else} actions through Anything else"
    )
    assert setting_up.taps <= 100
    assert taps <= 15 and typed <= 10 and seconds <= 45
    assert not page.locator("details[open]").filter(has_text="Anything else").count()
