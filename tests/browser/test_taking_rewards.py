"""After a won scenario the Play tab takes its rewards by tap, from what the scenario view says is due: a feat on a
card that records its boxes (one tap), a loot card the campaign does not know yet (its type asked once), a ship
checked off, the plunder won turned over and handed out, and a role card's side when one is due.

The campaign is the rules tests' two-character world (tests/unit/pacg/pacg_world.py), whose character cards carry
their feat boxes; Island Hopping is won through the API. "Tidewater Cutlass" stands in for a loot card a scenario
card names: the rulebooks print none.
"""

from __future__ import annotations

import copy

from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.effort import Effort
from tests.browser.table import PACG, SHOTS
from tests.browser.turns import LIVE, caught_up, moved_on, panel, position
from tests.unit.pacg.pacg_world import SETUP, START

WON = {"type": "scenario.ended", "data": {"result": "won"}}


def _tap(page, http, campaign, effort, button):
    before = position(http, campaign)
    effort.tap(button)
    caught_up(page, moved_on(http, campaign, before, panel(page)))


def test_a_feat_a_new_loot_card_a_ship_the_plunder_and_a_role_are_taken_by_tap_after_a_win(phones, http):
    # A table that hands out role cards from the start: a role is due at once (the rulebook waits for the third
    # adventure of the Adventure Path).
    campaign = http.campaign(PACG, {"roles_after_adventures": 0}, name="Island Hopping")
    http.append(campaign, [*SETUP, *START, WON])
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Play and log").click()
    reward = page.get_by_role("region", name="The reward of Island Hopping")
    expect(reward).to_be_visible(timeout=LIVE)
    found = violations(page)
    assert not found, " | ".join(found)
    effort = Effort()

    # Merisiel's card records her boxes: the leftmost open box of each line is one tap away.
    merisiel = reward.get_by_role("group", name="Merisiel's feat from Island Hopping")
    expect(merisiel.get_by_role("button")).to_have_count(6)
    _tap(page, http, campaign, effort, merisiel.get_by_role("button", name="Merisiel: Card: Weapon: 3 cards"))
    expect(reward).to_contain_text("Merisiel has her feat from Island Hopping", timeout=LIVE)

    # A loot card new to the campaign: named, its type asked once, handed to Valeros.
    effort.tap(reward.get_by_text("A loot card, if the card gives one"))
    effort.type(reward.get_by_label("Loot card from Island Hopping", exact=True), "Tidewater Cutlass")
    effort.choose(reward.get_by_label("Loot card from Island Hopping: counts as"), "weapon")
    effort.choose(reward.get_by_label("Loot card from Island Hopping: to"), "valeros")
    _tap(page, http, campaign, effort, reward.get_by_role("button", name="Hand out the loot from Island Hopping"))

    # A ship, chosen among those the fleet card has not checked off.
    effort.tap(reward.get_by_text("A ship, if the card gives one"))
    effort.choose(reward.get_by_label("Ship earned from Island Hopping", exact=True), "Truewind")
    _tap(
        page, http, campaign, effort, reward.get_by_role("button", name="Check off the ship earned from Island Hopping")
    )

    # The setup plunder, a weapon face down under the ship, turned over and put in the vault.
    plunder = page.get_by_role("region", name="The plunder won")
    effort.pick(plunder, "The weapon turned over", "dag", "Dagger")
    effort.choose(plunder.get_by_label("The weapon turned over: to"), "vault")
    _tap(page, http, campaign, effort, plunder.get_by_role("button", name="Hand out the weapon turned over"))
    expect(plunder).to_have_count(0, timeout=LIVE)
    # Merisiel's role card, a side her card records, in one tap.
    roles = page.get_by_role("region", name="Role cards")
    _tap(page, http, campaign, effort, roles.get_by_role("button", name="Merisiel: take the role Infiltrator"))
    expect(roles.get_by_role("group", name="Merisiel's role")).to_have_count(0, timeout=LIVE)
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel(page).screenshot(path=str(SHOTS / "pacg-rewards-taken.png"))
    effort.report("Island Hopping's rewards: a feat, a new loot card, a ship, the plunder and a role")

    merisiel = http.get(campaign, "/characters/merisiel")["character"]
    assert merisiel["feats"]["card"] == {"weapon": ["3"]} and merisiel["role"] == "Infiltrator"
    assert http.get(campaign, "/characters/valeros")["character"]["zones"]["deck"]["Tidewater Cutlass"] == 1
    assert "Truewind" in http.get(campaign, "/fleet")["fleet"]["checked"]
    assert http.get(campaign, "/scenario")["scenario"]["plunder"] == {"face_down": {}, "known": {}}
    assert effort.typed <= 20


def test_a_role_side_her_card_does_not_record_is_named_with_its_power_boxes_once(phones, http):
    # Valeros's card as recorded carries no role card: the side chosen and its boxes are given with the choice.
    setup = copy.deepcopy(SETUP)
    valeros = next(e for e in setup if e["type"] == "character.joined" and e["data"]["character_id"] == "valeros")
    del valeros["data"]["card"]["roles"]
    campaign = http.campaign(PACG, {"roles_after_adventures": 0}, name="Island Hopping")
    http.append(campaign, [*setup, *START, WON])
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Play and log").click()
    role = page.get_by_role("region", name="Role cards").get_by_role("group", name="Valeros's role")
    expect(role).to_be_visible(timeout=LIVE)
    found = violations(page)
    assert not found, " | ".join(found)
    effort = Effort()
    effort.type(role.get_by_label("Valeros's role side", exact=True), "Guardian")
    effort.type(role.get_by_label("Valeros's role power 1", exact=True), "Hand Size")
    effort.type(role.get_by_label("Valeros's role power 1: boxes", exact=True), "4, 5")
    _tap(page, http, campaign, effort, role.get_by_role("button", name="Valeros: take the role"))
    expect(role).to_have_count(0, timeout=LIVE)
    effort.report("A role card's side named with its power boxes")
    valeros_now = http.get(campaign, "/characters/valeros")["character"]
    assert valeros_now["role"] == "Guardian"
    # The role's Hand Size boxes carry the character card's checked ones over: none were checked.
    assert valeros_now["feats"]["power"] == {}
