"""Turns of Skull & Shackles played on a phone (390x844) with the Play tab's turn panel only, never "Anything else".

The campaign is the rulebook's Example of Play set up through the API (the set-up is measured in
test_setting_up.py); from there three players take their turns as a table does: start the turn, move, explore, roll
the check against the card met, log how the encounter ended, reset the hand by tapping the cards drawn, and end the
turn to the next character. Each turn's taps, characters typed and keystroke-level estimate are printed and written
beside the set-up's (QUARTERMASTER_EFFORT), and the median turn is held to issue 38's goal.
"""

from __future__ import annotations

import statistics
from typing import Any

from playwright.sync_api import expect

from tests.browser.table import PACG, SHOTS
from tests.browser.test_setting_up import Effort
from tests.unit.pacg.example_of_play import OPTIONS, SETTING_UP

LIVE = 5000  # milliseconds: the panel is drawn again once the log has moved on


def _turn_panel(page: Any) -> Any:
    return page.locator("section.turn")


def _logged(http: Any, campaign: dict[str, Any], before: int) -> int:
    position = http.get(campaign, "")["position"]
    assert position > before, "The tap logged nothing."
    return position


def _play_a_turn(
    page: Any, http: Any, campaign: dict[str, Any], who: str, to: str, revealed: str, dice: str, played: str
) -> Effort:
    effort = Effort()
    panel = _turn_panel(page)
    expect(panel.get_by_role("heading", name=f"{who}'s turn")).to_be_visible(timeout=LIVE)
    position = http.get(campaign, "")["position"]
    effort.tap(panel.get_by_role("button", name=f"Move to {to}"))
    expect(panel.get_by_role("term").filter(has_text="Location").locator("+ dd")).to_have_text(to, timeout=LIVE)
    position = _logged(http, campaign, position)
    effort.type(panel.get_by_label("Card revealed"), revealed)
    effort.tap(panel.get_by_role("button", name=f"Explore {to}"))
    encounter = page.get_by_role("region", name=f"Encountering {revealed}")
    expect(encounter).to_be_visible(timeout=LIVE)
    effort.type(encounter.get_by_label("Dice", exact=True), dice)
    effort.choose(panel.get_by_label("Card played", exact=True), played)
    effort.tap(panel.get_by_role("button", name="Discard the card played"))
    expect(panel.get_by_label("Card played", exact=True).locator("option", has_text=played)).to_have_count(
        0, timeout=LIVE
    )
    effort.tap(encounter.get_by_role("button", name="Roll the check"))
    expect(panel.get_by_role("status", name="Last logged here")).to_contain_text(f"{revealed}: rolled", timeout=LIVE)
    effort.tap(encounter.get_by_role("button", name="Defeated: banish it"))
    expect(encounter).to_have_count(0, timeout=LIVE)
    _logged(http, campaign, position)
    return effort


def _reset_and_end(page: Any, effort: Effort, who: str, drawn: list[str], next_name: str) -> None:
    panel = _turn_panel(page)
    for card in drawn:
        effort.tap(panel.get_by_role("button", name=f"Drew {card}", exact=True))
    effort.tap(panel.get_by_role("button", name=f"Reset {who}'s hand"))
    expect(panel.locator(".act").filter(has=page.get_by_role("button", name=f"Reset {who}'s hand"))).to_contain_text(
        "Logged", timeout=LIVE
    )
    effort.tap(panel.get_by_role("button", name=f"End the turn: {next_name} next"))
    expect(panel.get_by_role("heading", name=f"{next_name}'s turn")).to_be_visible(timeout=LIVE)


def test_three_players_take_their_turns_with_the_turn_panel_within_the_goal(phones, http):
    campaign = http.campaign(PACG, OPTIONS, name="Dangerous Waters")
    http.append(campaign, SETTING_UP)
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    panel = _turn_panel(page)

    first = Effort()
    first.tap(panel.get_by_role("button", name="Start Lirianne's turn"))
    turns = []

    effort = _play_a_turn(page, http, campaign, "Lirianne", "Raker Shoals", "Dead Man's Chest", "3d8", "Powder Horn")
    effort.taps += first.taps
    effort.decisions += first.decisions
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "pacg-turn-reset.png"))
    _reset_and_end(page, effort, "Lirianne", ["Light Crossbow"], "Seltyiel")
    turns.append(effort.report("Lirianne's turn (Example of Play's cards, the turn panel)"))
    page.screenshot(path=str(SHOTS / "pacg-turn-next.png"))

    character = http.get(campaign, "/characters/lirianne")["character"]
    assert character["location"] == "Raker Shoals"
    assert character["zones"]["hand"].get("Light Crossbow") == 1
    events = http.get(campaign, "/events", limit=500)["events"]
    assert [e["type"] for e in events[-2:]] == ["card.moved", "hourglass.advanced"] or events[-1]["type"] == (
        "hourglass.advanced"
    )
    assert events[-1]["data"]["character_id"] == "seltyiel"
    seconds = [float(line.split("estimate ")[1].split(" s")[0]) for line in turns]
    taps = [int(line.split(": ")[1].split(" taps")[0]) for line in turns]
    typed = [int(line.split("taps, ")[1].split(" characters")[0]) for line in turns]
    print(
        f"median turn: {statistics.median(taps)} taps, {statistics.median(typed)} characters, "
        f"{statistics.median(seconds)} s"
    )
    assert statistics.median(taps) <= 15
