"""Rules a table meets that the fold now enforces or applies by itself, each from both sides: the legal event is
accepted and does what the rulebook says; the illegal one is refused with a sentence (and so nothing is written),
as a rule of the game the table may override, or as an integrity rule nothing overrides.

Skull Tales: Full Sail! rulebook sections are named in each test.
"""

from __future__ import annotations

from typing import Any

import pytest

from quartermaster.projections.game import Meta, Rejection, RuleBroken, step
from quartermaster.projections.skull_tales import GAME
from quartermaster.projections.skull_tales.state import SkullTales
from tests.unit.skull_tales.chapter_one import CREW, OPTIONS, SOLO_ALLIES, event
from tests.unit.skull_tales.stages import adventuring, at_sea, in_port
from tests.unit.skull_tales.table import decode, given, view, when

WITCH_ALLY = {"ally_id": "witch", "archetype": "Witch", "charisma": 2, "salary": 0, "fame_cost": 0}
ALL_TOTAL = {"anne": "total_success", "jack": "total_success", "mary": "total_success"}
PARTIAL = {"anne": "partial_success", "jack": "partial_success", "mary": "partial_success"}
TO_ADVENTURE = [
    event("phase.ended", phase="port"),
    event("phase.started", phase="voyage"),
    event("phase.ended", phase="voyage"),
    event("phase.started", phase="adventure"),
]


def setting(key: str, mode: str, phase: str, fame: int) -> dict[str, Any]:
    return {"key": key, "mode": mode, "phase": phase, "fame": fame, "text": key}


def with_settings(*settings: dict[str, Any]) -> dict[str, Any]:
    return {**OPTIONS, "settings": [*OPTIONS["settings"], *settings]}


def refusal(state: SkullTales, payload: dict[str, Any], override: str | None = None) -> Rejection:
    with pytest.raises(Rejection) as caught:
        step(GAME, state, decode(payload), Meta(position=1000, override=override))
    return caught.value


def overridden(state: SkullTales, payload: dict[str, Any], reason: str = "house rule") -> SkullTales:
    result = step(GAME, state, decode(payload), Meta(position=1000, override=reason))
    assert result is not None
    return result


def pirate(state: SkullTales, pirate_id: str) -> dict[str, Any]:
    sheet: dict[str, Any] = view(state, "pirate", pirate_id=pirate_id)
    return sheet


# --- Book III: Voyage Phase, Voyage Components, Rum Token -------------------------------------------------------


def test_a_rum_token_at_sea_gives_every_pirate_a_destiny_point_and_its_die_of_morale():
    state = at_sea(
        event("destiny.changed", pirate_id="anne", amount=-2),
        event("destiny.changed", pirate_id="jack", amount=-1),
        event("morale.changed", amount=-10),
    )
    after = when(state, event("goods.spent", goods="Rum", purpose="Morale", roll=4))
    assert (after.pirates["anne"].destiny, after.pirates["jack"].destiny, after.pirates["mary"].destiny) == (2, 2, 3)
    assert after.morale == 14
    assert after.ship is not None and after.ship.goods["Rum"] == 1


def test_a_rum_token_s_morale_stops_at_twenty():
    after = when(at_sea(event("morale.changed", amount=-2)), event("goods.spent", goods="Rum", roll=6))
    assert after.morale == 20


def test_with_the_cabin_boy_setting_rum_raises_morale_by_four_without_a_die():
    options = with_settings(setting("cabin_boy.voyage.rum_morale_4", "cabin_boy", "voyage", -1))
    state = at_sea(event("morale.changed", amount=-10), options=options)
    assert when(state, event("goods.spent", goods="Rum")).morale == 14
    assert refusal(state, event("goods.spent", goods="Rum", roll=3)).reason == (
        "With the Cabin Boy setting a Rum token raises Morale by 4 without a die; leave the roll out."
    )


def test_a_morale_die_belongs_only_to_a_rum_token_at_sea():
    assert refusal(at_sea(), event("goods.spent", goods="Supplies", roll=3)).reason == (
        "Only a Rum token spent at sea rolls a die for Morale."
    )
    assert refusal(at_sea(), event("goods.spent", goods="Rum", quantity=2, roll=3)).reason == (
        "Each Rum token rolls its own die for Morale: log them one at a time."
    )


def test_rum_outside_the_voyage_gives_no_destiny_point():
    state = in_port(event("destiny.changed", pirate_id="anne", amount=-1))
    assert when(state, event("goods.spent", goods="Rum")).pirates["anne"].destiny == 2


# --- Book II: Feats, Classes and Skills, Feats (Bravery, Luxury) ------------------------------------------------


def _brave_anne(*extra: dict[str, Any]) -> SkullTales:
    return in_port(
        event("salary.collected", pirate_id="anne"),
        event("feat.gained", pirate_id="anne", feat="Bravery", requires={}),
        event("wounds.changed", pirate_id="anne", amount=2),
        event("wounds.changed", pirate_id="jack", amount=2),
        *extra,
    )


def test_bravery_discards_a_wound_at_the_start_of_the_adventure_phase():
    state = given(*TO_ADVENTURE, state=_brave_anne())
    assert (state.pirates["anne"].wounds, state.pirates["jack"].wounds) == (1, 2)


def test_bravery_heals_again_when_the_adventure_is_repeated_from_the_same_start():
    state = given(*TO_ADVENTURE, state=_brave_anne())
    state = given(
        event("wounds.changed", pirate_id="anne", amount=3),
        event("phase.ended", phase="adventure", outcome="repeat", degrees=PARTIAL),
        event("phase.started", phase="adventure"),
        state=state,
    )
    # The attempt started with 1 Wound after Bravery; the repeat starts from the same 2 and heals again.
    assert state.pirates["anne"].wounds == 1


def test_bravery_heals_no_wound_at_the_start_of_a_voyage():
    state = given(event("phase.ended", phase="port"), event("phase.started", phase="voyage"), state=_brave_anne())
    assert state.pirates["anne"].wounds == 2


# --- Appendix II: Admiral Mode, Adventure Phase: "Reduce your Destiny Points by 1 per Wound" -----------------------


ADMIRAL_WOUNDS = setting("admiral.adventure.destiny_per_wound", "admiral", "adventure", 2)


def test_the_admiral_setting_takes_a_destiny_point_per_wound_in_the_adventure():
    state = adventuring(options=with_settings(ADMIRAL_WOUNDS))
    after = when(state, event("wounds.changed", pirate_id="anne", amount=2))
    assert (after.pirates["anne"].wounds, after.pirates["anne"].destiny) == (2, 1)
    after = when(after, event("wounds.changed", pirate_id="anne", amount=2))
    assert after.pirates["anne"].destiny == 0  # never below none


def test_without_the_setting_a_wound_takes_no_destiny_point():
    after = when(adventuring(), event("wounds.changed", pirate_id="anne", amount=2))
    assert after.pirates["anne"].destiny == 3


def test_the_admiral_setting_s_destiny_points_go_only_with_adventure_wounds():
    after = when(in_port(options=with_settings(ADMIRAL_WOUNDS)), event("wounds.changed", pirate_id="anne", amount=1))
    assert after.pirates["anne"].destiny == 3


# --- Book I: Game Modes, Lone Pirates ---------------------------------------------------------------------------


SOLO = {"solo": True}


def test_the_lone_pirate_is_captain_from_the_start():
    state = given(CREW[0], options=SOLO)
    assert state.captain == "anne"


def test_the_lone_pirate_is_not_elected_captain_again():
    state = given(
        CREW[0],
        *SOLO_ALLIES,
        event("chapter.started", number=1),
        event("phase.started", phase="adventure"),
        event("phase.ended", phase="adventure", outcome="success", degrees={"anne": "total_success"}),
        options=SOLO,
    )
    assert refusal(state, event("captain.elected", pirate_id="anne")).reason == (
        "Anne cannot be elected: Anne is the Captain."
    )


def test_the_lone_pirate_starts_with_three_random_allies():
    state = given(CREW[0], *SOLO_ALLIES, event("chapter.started", number=1), options=SOLO)
    after = when(state, event("phase.started", phase="adventure"))
    assert sorted(a.id for a in after.allies.values() if a.status == "hired") == ["avenger", "cabin_boy", "freedman"]
    assert all(a.hirer == "anne" for a in after.allies.values())


def test_the_first_phase_of_solo_mode_waits_for_the_three_allies():
    state = given(CREW[0], *SOLO_ALLIES[:2], event("chapter.started", number=1), options=SOLO)
    refused = refusal(state, event("phase.started", phase="adventure"))
    assert isinstance(refused, RuleBroken)
    assert refused.reason == (
        "In Solo Mode the Lone Pirate starts with 3 random Allies, and 2 are drawn: log each (ally.drawn) before the "
        "first phase (Book I: Game Modes, Lone Pirates)."
    )


def test_a_lone_pirate_draws_three_allies_not_four():
    state = given(CREW[0], *SOLO_ALLIES, options=SOLO)
    fourth = event("ally.drawn", pirate_id="anne", **WITCH_ALLY)
    assert refusal(state, fourth).reason == (
        "A Lone Pirate starts with 3 random Allies, not more (Book I: Game Modes, Lone Pirates)."
    )


def test_a_crew_of_pirates_hires_its_allies_rather_than_drawing_them():
    state = given(*CREW, options=OPTIONS)
    assert refusal(state, event("ally.drawn", pirate_id="anne", **WITCH_ALLY)).reason == (
        "Only a Lone Pirate starts with random Allies (Book I: Game Modes, Lone Pirates); a crew hires them."
    )


def test_a_drawn_ally_is_not_a_card_already_in_play():
    state = given(CREW[0], *SOLO_ALLIES[:1], options=SOLO)
    again = event("ally.drawn", pirate_id="anne", **{**WITCH_ALLY, "ally_id": "cb2", "archetype": "Cabin Boy"})
    refused = refusal(state, again, override="two boxes")
    assert type(refused) is Rejection  # an integrity rule: no override lets it through
    assert refused.reason == "The Cabin Boy is already in play, not in the Ally bag."


def _solo_with_four_allies(options: dict[str, Any] | None = None) -> SkullTales:
    """Anne alone with her three drawn Allies, paid in the first Port, and the Witch hired there."""
    return given(
        CREW[0],
        *SOLO_ALLIES,
        event("chapter.started", number=1, phases=["port", "adventure"]),
        event("phase.started", phase="port"),
        event("salary.collected", pirate_id="anne"),
        *(event("ally.upkeep_paid", ally_id=a["data"]["ally_id"]) for a in SOLO_ALLIES),
        event("ally.hired", pirate_id="anne", **WITCH_ALLY),
        event("phase.ended", phase="port"),
        options={**SOLO, **(options or {})},
    )


def test_in_solo_mode_the_captain_takes_three_allies_into_the_adventure():
    state = _solo_with_four_allies()
    after = when(state, event("phase.started", phase="adventure", allies=["witch", "avenger", "freedman"]))
    assert after.adventure_allies == ["witch", "avenger", "freedman"]


def test_in_solo_mode_four_allies_do_not_all_go_into_the_adventure():
    state = _solo_with_four_allies()
    assert refusal(state, event("phase.started", phase="adventure")).reason == (
        "In Solo Mode only 3 Allies go into the Adventure, and the Captain has 4: say which (allies) "
        "(Book II: Locations, Tavern)."
    )
    everyone = event("phase.started", phase="adventure", allies=["witch", "avenger", "freedman", "cabin_boy"])
    assert refusal(state, everyone).reason == (
        "In Solo Mode the Captain leads at most 3 Allies in the Adventure Phase, not 4 (Book I: Game Modes, Lone Pirates)."
    )


def test_with_the_cabin_boy_setting_a_fourth_ally_goes_into_the_adventure():
    fourth = setting("cabin_boy.adventure.fourth_solo_ally", "cabin_boy", "adventure", -3)
    state = _solo_with_four_allies({"settings": [fourth]})
    assert when(state, event("phase.started", phase="adventure")).adventure_allies is None


def test_an_ally_left_aboard_finds_nothing_in_the_adventure():
    state = when(
        _solo_with_four_allies(), event("phase.started", phase="adventure", allies=["witch", "avenger", "freedman"])
    )
    assert refusal(state, event("coins.changed", ally_id="cabin_boy", amount=3, source="search_card")).reason == (
        "The Cabin Boy stayed aboard and is not in this Adventure."
    )
    assert when(state, event("coins.changed", ally_id="witch", amount=3, source="search_card")).allies["witch"].coins


def test_an_overridden_fourth_ally_goes_into_the_adventure():
    state = _solo_with_four_allies()
    everyone = event("phase.started", phase="adventure", allies=["witch", "avenger", "freedman", "cabin_boy"])
    assert overridden(state, everyone).adventure_allies == ["witch", "avenger", "freedman", "cabin_boy"]


def test_a_crew_of_pirates_does_not_choose_its_allies_for_an_adventure():
    state = at_sea(event("phase.ended", phase="voyage"))
    assert refusal(state, event("phase.started", phase="adventure", allies=[])).reason == (
        "Only in Solo Mode does the Captain choose the Allies of an Adventure; every hired Ally goes."
    )


# --- Book I: How to start; Components: one Character Card of each archetype --------------------------------------


def _recruit(pirate_id: str, name: str, archetype: str, **more: Any) -> dict[str, Any]:
    return {
        **CREW[0],
        "data": {**CREW[0]["data"], "pirate_id": pirate_id, "name": name, "archetype": archetype, **more},
    }


def test_two_players_cannot_take_the_same_character():
    state = given(*CREW, options=OPTIONS)
    refused = refusal(state, _recruit("xena", "Xena", "Sea Dog"), override="we have two boxes")
    assert type(refused) is Rejection
    assert refused.reason == (
        "Xena cannot be the Sea Dog: Jack already plays that Character Card, and there is one of each (two players "
        "who want the same Pirate draw for it, Book I: How to start)."
    )
    assert "xena" in when(state, _recruit("xena", "Xena", "Cook")).pirates


def test_a_pirate_is_not_the_card_of_a_hired_ally():
    state = in_port(event("ally.hired", pirate_id="jack", **WITCH_ALLY))
    assert refusal(state, _recruit("xena", "Xena", "Witch")).reason == (
        "Xena cannot be the Witch: that card is in play as Jack's Ally."
    )


def test_a_retiring_pirate_s_replacement_may_take_the_same_archetype():
    state = adventuring(
        event("injury.suffered", pirate_id="jack", roll=1), event("injury.suffered", pirate_id="jack", roll=6)
    )
    assert state.pirates["jack"].status == "must_retire"
    after = when(state, _recruit("jim", "Jim", "Sea Dog", replaces="jack"))
    assert after.pirates["jim"].archetype == "Sea Dog"


# --- Book II: Locations, Madame Claude's Manor (Loans) ----------------------------------------------------------


def test_a_loan_is_repaid_whole_for_one_time_unit():
    state = in_port(
        event("loan.taken", pirate_id="jack", amount=20, lender="market"), event("manor.entered", pirate_id="jack")
    )
    after = when(state, event("loan.repaid", pirate_id="jack", amount=24))
    assert after.pirates["jack"].loan is None
    assert after.pirates["jack"].time_units == state.pirates["jack"].time_units - 1
    assert after.pirates["jack"].coins == state.pirates["jack"].coins - 24


def test_a_loan_is_not_repaid_in_part():
    state = in_port(event("loan.taken", pirate_id="jack", amount=20, lender="market"))
    refused = refusal(state, event("loan.repaid", pirate_id="jack", amount=12))
    assert isinstance(refused, RuleBroken)
    assert refused.reason == (
        "Jack repays Monsieur Fontaine all that is owed at once, 24 Coins (6 for every 5 borrowed), not 12 "
        "(Book II: Locations, Madame Claude's Manor)."
    )


def test_a_loan_is_repaid_in_port():
    state = in_port(
        event("loan.taken", pirate_id="jack", amount=20, lender="market"),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
    )
    assert refusal(state, event("loan.repaid", pirate_id="jack", amount=24)).reason == (
        "Repaying Monsieur Fontaine happens in the Port Phase, and this is the voyage phase."
    )


def test_the_market_lends_the_amount_needed_the_manor_lends_in_fives():
    state = in_port()
    after = when(state, event("loan.taken", pirate_id="jack", amount=13, lender="market"))
    assert after.pirates["jack"].loan is not None and after.pirates["jack"].loan.owed == 16  # 15.6, rounded up
    assert refusal(state, event("loan.taken", pirate_id="jack", amount=13, lender="manor", fame=1)).reason == (
        "Jack cannot borrow 13 Coins: loans come in 5s, up to 50 Coins."
    )


# --- Book II: Feats, Classes and Skills, Scholar Skills (Bosun) --------------------------------------------------


def _bosun_jack(*extra: dict[str, Any]) -> SkullTales:
    return in_port(
        event("salary.collected", pirate_id="anne"),
        event("skill.learned", pirate_id="jack", skill="Bosun", free=True),
        *extra,
    )


def test_a_bosun_does_a_captain_s_port_action_and_gains_one_fame():
    state = _bosun_jack()
    after = when(state, event("group.hired", pirate_id="jack"))
    assert after.ship is not None and state.ship is not None and after.ship.groups == state.ship.groups + 1
    assert after.pirates["jack"].fame == state.pirates["jack"].fame + 1
    assert after.crew_booty == state.crew_booty - 30


def test_a_bosun_draws_the_captain_s_assignment():
    after = when(_bosun_jack(), event("assignment.taken", pirate_id="jack", assignment="Smugglers"))
    assert after.assignment is not None and after.assignment.holder == "anne"


def test_a_pirate_without_bosun_does_no_captain_s_action():
    refused = refusal(in_port(), event("group.hired", pirate_id="jack"))
    assert isinstance(refused, RuleBroken)
    assert refused.reason == "Jack cannot hire a Group of Pirates: only the Captain can, and the Captain is Anne."


def test_a_bosun_s_captain_actions_are_for_the_port_only():
    state = given(event("phase.ended", phase="port"), event("phase.started", phase="voyage"), state=_bosun_jack())
    assert refusal(state, event("booty.buried", pirate_id="jack", island="B", amount=5)).reason == (
        "Jack cannot bury booty on island B: only the Captain can, and the Captain is Anne."
    )


# --- Book I: Adventure Phase, End of the Adventure --------------------------------------------------------------


def test_an_adventure_with_every_pirate_unconscious_is_replayed():
    state = adventuring(*(event("pirate.unconscious", pirate_id=p, lost_item=None) for p in ("anne", "jack", "mary")))
    degrees = {"anne": "failure", "jack": "failure", "mary": "failure"}
    assert refusal(state, event("phase.ended", phase="adventure", outcome="success", degrees=degrees)).reason == (
        "Every Pirate is Unconscious: the Adventure Phase must be replayed (outcome repeat), without deciding who "
        "succeeded (Book I: End of the Adventure)."
    )
    assert when(state, event("phase.ended", phase="adventure", outcome="repeat")).phase is None


def test_a_pirate_on_their_feet_does_not_fail_a_successful_adventure():
    degrees = {**ALL_TOTAL, "mary": "failure"}
    assert refusal(
        adventuring(), event("phase.ended", phase="adventure", outcome="success", degrees=degrees)
    ).reason == (
        "Mary ends the Adventure on their feet: a failure is being Unconscious at its end while another Character "
        "succeeds; say total or partial success (Book I: End of the Adventure)."
    )


def test_the_captaincy_is_decided_only_after_a_successful_adventure():
    first = given(*CREW, event("chapter.started", number=1), event("phase.started", phase="adventure"), options=OPTIONS)
    first = when(first, event("fame.changed", pirate_id="anne", amount=10, source="goal"))
    failed = when(first, event("phase.ended", phase="adventure", outcome="failure"))
    assert refusal(failed, event("captain.elected", pirate_id="anne")).reason == (
        "Anne cannot take the captaincy: it is decided after a successful Adventure, and this one failed "
        "(Book I: End of the Adventure)."
    )
    succeeded = when(first, event("phase.ended", phase="adventure", outcome="success", degrees=ALL_TOTAL))
    assert when(succeeded, event("captain.elected", pirate_id="anne")).captain == "anne"


# --- Book II: Locations, Market Square (Black Market); Rogue Skills (Grifter) ------------------------------------


def test_a_black_market_card_costs_half_as_much_again():
    state = in_port()
    after = when(state, event("item.gained", pirate_id="mary", item="Dagger", price=15, black_market=True))
    assert after.pirates["mary"].coins == state.pirates["mary"].coins - 23  # the rulebook's own dagger


def test_a_grifter_pays_half_for_gear():
    state = in_port(event("skill.learned", pirate_id="mary", skill="Grifter", free=True))
    after = when(state, event("item.gained", pirate_id="mary", item="Pistol", price=25))
    assert after.pirates["mary"].coins == state.pirates["mary"].coins - 13


# --- Book II: Port Phase, Port Components: late for reembarking ---------------------------------------------------


def test_a_pirate_out_of_time_units_who_never_came_back_aboard_is_late():
    state = in_port(event("time.spent", pirate_id="jack", amount=20, purpose="wandering"))
    after = when(state, event("phase.ended", phase="port"))
    assert after.pirates["jack"].fame == state.pirates["jack"].fame - 5
    assert after.pirates["mary"].fame == state.pirates["mary"].fame


def test_a_pirate_back_aboard_in_time_is_not_late():
    state = in_port(
        event("time.spent", pirate_id="jack", amount=19, purpose="wandering"), event("pirate.boarded", pirate_id="jack")
    )
    assert when(state, event("phase.ended", phase="port")).pirates["jack"].fame == state.pirates["jack"].fame


# --- Overrides: a rule of the game goes through with a recorded reason, an integrity rule never ----------------


def test_an_overridden_rule_of_the_game_is_folded_as_if_the_rule_allowed_it():
    state = in_port(event("salary.collected", pirate_id="anne"))
    after = overridden(state, event("group.hired", pirate_id="jack"), "Anne is ill; Jack runs the Docks today")
    assert after.ship is not None and state.ship is not None and after.ship.groups == state.ship.groups + 1


def test_an_action_overridden_past_its_time_units_leaves_none():
    state = in_port(event("time.spent", pirate_id="jack", amount=20))
    after = overridden(state, event("salary.collected", pirate_id="jack"))
    assert after.pirates["jack"].time_units == 0 and after.pirates["jack"].coins == state.pirates["jack"].coins + 15


def test_an_unaffordable_price_is_an_integrity_rule():
    refused = refusal(in_port(), event("item.gained", pirate_id="jack", item="Gold Idol", price=500), override="x")
    assert type(refused) is Rejection


# --- the options of this round -----------------------------------------------------------------------------------


def test_rum_s_destiny_point_skips_the_sickbay_when_the_option_says_so():
    state = at_sea(
        event("destiny.changed", pirate_id="anne", amount=-1),
        event("pirate.unconscious", pirate_id="jack"),
        options={**OPTIONS, "rum_destiny_to": "conscious"},
    )
    after = when(state, event("goods.spent", goods="Rum", roll=1))
    assert (after.pirates["anne"].destiny, after.pirates["jack"].destiny) == (3, 0)
    everyone = at_sea(event("pirate.unconscious", pirate_id="jack"))
    assert when(everyone, event("goods.spent", goods="Rum", roll=1)).pirates["jack"].destiny == 1


def test_an_ally_s_trust_gives_its_hirer_no_fame_when_the_option_says_so():
    def voyage(options: dict[str, Any]) -> SkullTales:
        state = in_port(event("ally.hired", pirate_id="jack", **WITCH_ALLY), options=options)
        return given(
            event("phase.ended", phase="port"),
            event("phase.started", phase="voyage"),
            event("trust.changed", character_id="witch", amount=5, reason="Helm"),
            event("phase.ended", phase="voyage"),
            state=state,
        )

    assert (
        voyage(OPTIONS).pirates["jack"].fame - voyage({**OPTIONS, "ally_trust_to_hirer": False}).pirates["jack"].fame
        == 3
    )


def test_an_adventure_is_repeated_only_with_everyone_down_or_after_a_partial_success():
    assert refusal(adventuring(), event("phase.ended", phase="adventure", outcome="repeat")).reason == (
        "An Adventure is played again when every Pirate is Unconscious, or by choice after a partial success: give "
        "the degrees that show it (Book I: End of the Adventure)."
    )
    repeated = when(adventuring(), event("phase.ended", phase="adventure", outcome="repeat", degrees=PARTIAL))
    assert repeated.phase is None and repeated.phases_done == ["port", "voyage"]


# --- Book II: Locations, Docks (upgrades) ------------------------------------------------------------------------


def _upgraded(*upgrades: dict[str, Any]) -> SkullTales:
    """Anne buys upgrades in Port from the Crew's Booty (her Salary's 100), then the crew sails."""
    return in_port(
        event("salary.collected", pirate_id="anne"),
        *upgrades,
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
    )


def test_a_permanent_upgrade_stays_on_the_ship_when_used():
    state = _upgraded(event("ship.upgraded", pirate_id="anne", upgrade="Ram"))
    assert refusal(state, event("upgrade.used", upgrade="Ram")).reason == (
        "The Ram is a permanent upgrade: it stays on the ship when used (Book II: Locations, Docks)."
    )


def test_a_signal_codex_is_discarded_after_use():
    state = _upgraded(event("ship.upgraded", pirate_id="anne", upgrade="Signal Codex"))
    after = when(state, event("upgrade.used", upgrade="Signal Codex"))
    assert after.ship is not None and "Signal Codex" not in after.ship.upgrades


def test_ammunition_used_in_a_voyage_is_discarded_at_its_end():
    state = _upgraded(event("ship.upgraded", pirate_id="anne", upgrade="Ammunition", ammunition="chainshot"))
    used = when(state, event("upgrade.used", upgrade="Ammunition (chainshot)"))
    assert used.ship is not None and used.ship.upgrades == {"Ammunition (chainshot)": 1}
    used = when(used, event("upgrade.used", upgrade="Ammunition (chainshot)"))  # fired again in the same Voyage
    ended = when(used, event("phase.ended", phase="voyage"))
    assert ended.ship is not None and ended.ship.upgrades == {}


def test_ammunition_not_used_stays_for_the_next_voyage():
    state = _upgraded(event("ship.upgraded", pirate_id="anne", upgrade="Ammunition", ammunition="grapeshot"))
    ended = when(state, event("phase.ended", phase="voyage"))
    assert ended.ship is not None and ended.ship.upgrades == {"Ammunition (grapeshot)": 1}


# --- Book III: Voyage Phase, Command Points ---------------------------------------------------------------------


def test_the_quarterdeck_gains_trust_only_when_the_captain_spends_its_points():
    state = at_sea()
    assert when(state, event("command.issued", points=1, quarterdeck_id="jack")).trust == {}
    assert when(state, event("command.issued", points=3, quarterdeck_id="jack")).trust == {"jack": 1}


# --- Unconscious at the last Wound (Book II: Port Phase, Port Components; Book III: Voyage Phase, Unconscious) -----


def test_the_last_wound_in_port_knocks_a_pirate_out_with_its_price():
    state = in_port(event("wounds.changed", pirate_id="jack", amount=5))
    after = when(state, event("wounds.changed", pirate_id="jack", amount=1))
    jack, before = after.pirates["jack"], state.pirates["jack"]
    assert (jack.coins, jack.fame, jack.time_units, jack.port_unconscious) == (
        before.coins - 5,
        before.fame - 5,
        0,
        True,
    )
    assert refusal(after, event("pirate.unconscious", pirate_id="jack")).reason == (
        "Jack was already carried aboard Unconscious; their Port Phase is over."
    )


def test_the_last_wound_at_sea_sends_a_pirate_to_the_sickbay_without_destiny_points():
    after = when(at_sea(), event("wounds.changed", pirate_id="anne", amount=5))
    assert (after.pirates["anne"].status, after.pirates["anne"].destiny) == ("unconscious", 0)


def test_a_wound_short_of_health_knocks_nobody_out():
    after = when(at_sea(), event("wounds.changed", pirate_id="anne", amount=4))
    assert (after.pirates["anne"].status, after.pirates["anne"].destiny) == ("active", 3)


def test_in_the_adventure_the_last_wound_waits_for_the_item_lost_to_be_named():
    after = when(adventuring(), event("wounds.changed", pirate_id="anne", amount=5))
    assert after.pirates["anne"].status == "active"


# --- Book I: Character Actions, Search ----------------------------------------------------------------------------


def search(faces: list[int], who: str = "anne", purpose: str = "Search") -> dict[str, Any]:
    return event(
        "dice.rolled",
        dice=[{"sides": 6, "face": f} for f in faces],
        total=sum(faces),
        target=4,
        character_id=who,
        purpose=purpose,
    )


def test_a_failed_search_with_a_one_gives_a_destiny_point():
    state = adventuring(event("destiny.changed", pirate_id="anne", amount=-2))
    assert when(state, search([1, 3, 4])).pirates["anne"].destiny == 2


def test_a_failed_search_without_a_one_or_a_successful_one_gives_none():
    state = adventuring(event("destiny.changed", pirate_id="anne", amount=-2))
    assert when(state, search([2, 3, 4])).pirates["anne"].destiny == 1
    assert when(state, search([1, 5, 2])).pirates["anne"].destiny == 1
    assert when(state, search([1, 2], purpose="Revive")).pirates["anne"].destiny == 1


def test_a_failed_search_gives_no_destiny_point_past_the_card():
    assert when(adventuring(), search([1, 1, 2])).pirates["anne"].destiny == 3


# --- Book III: Voyage Phase, Trust Points ---------------------------------------------------------------------------


def test_the_captain_gains_trust_only_from_a_voyage_event():
    refused = refusal(at_sea(), event("trust.changed", character_id="anne", amount=2, reason="Helm"))
    assert isinstance(refused, RuleBroken)
    assert refused.reason == (
        "Anne is the Captain, who gains Trust Points only by resolving a Voyage Event card, not for Helm: say which "
        "Event in the reason (Book III: Voyage Phase, Trust Points)."
    )
    after = when(at_sea(), event("trust.changed", character_id="anne", amount=2, reason="resolved the Event Storm"))
    assert after.trust == {"anne": 2}
    assert when(at_sea(), event("trust.changed", character_id="jack", amount=2, reason="Helm")).trust == {"jack": 2}


def test_a_pirate_in_the_sickbay_does_not_scheme():
    state = at_sea(event("pirate.unconscious", pirate_id="jack"))
    assert refusal(state, event("scheme.resolved", pirate_id="jack", coin="silver")).reason == (
        "Jack is Unconscious in the «Sickbay» and cannot Scheme in the «Cabins»."
    )
    assert when(at_sea(), event("scheme.resolved", pirate_id="jack", coin="silver")).trust == {"jack": 3}


# --- Book III: End of the Voyage Phase ----------------------------------------------------------------------------


def test_a_surrender_s_cause_is_what_happened():
    state = at_sea()
    assert refusal(state, event("crew.surrendered", cause="revolt")).reason == (
        "The crew revolts only when Morale reaches 0, and it is 20."
    )
    assert refusal(state, event("crew.surrendered", cause="sunk")).reason == (
        "The Pirate Ship has not sunk: its «Hold» Impact token has not reached column 1."
    )
    assert refusal(state, event("crew.surrendered", cause="sickbay")).reason == (
        "Not every Character is in the «Sickbay»: Anne, Jack, Mary still stand."
    )
    assert when(state, event("crew.surrendered", cause="surrendered")).crew_booty == 0
    assert when(given(event("morale.changed", amount=-20), state=state), event("crew.surrendered", cause="revolt"))
    sunk = given(event("ship.damaged", hold=7), state=state)
    assert when(sunk, event("crew.surrendered", cause="sunk"))


def test_solo_mode_is_played_by_one_pirate():
    state = given(CREW[0], options=SOLO)
    assert refusal(state, CREW[1]).reason == (
        "Jack cannot join: there cannot be more than 5 Characters (Pirates and Allies) in play (Book I: The "
        "Characters) and Solo Mode has one Pirate."
    )
