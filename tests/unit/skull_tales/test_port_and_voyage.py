"""Given/when/then for rules added from the rulebook: late aboard, the Admiral loyalty roll, Rumors, Schemes and
the surrender wipe."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, ROUND_TRIP, event
from tests.unit.skull_tales.table import given, refused, view, when

LOYALTY = {
    "key": "admiral.port.ally_charisma_roll",
    "mode": "admiral",
    "phase": "port",
    "fame": 2,
    "text": "Each Pirate with an Ally must pass a confronted Charisma roll",
}
COOK = {"ally_id": "cook", "archetype": "Cook", "charisma": 2, "salary": 10, "fame_cost": 5}


def in_port(*extra, options=None):
    return given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        *extra,
        options=options if options is not None else OPTIONS,
    )


def at_sea(*extra, options=None):
    return in_port(event("phase.ended", phase="port"), event("phase.started", phase="voyage"), *extra, options=options)


# --- late to the ship (Book II: Port Phase, Port Components) ---


def test_a_pirate_whose_time_units_ran_out_before_reaching_the_ship_loses_five_fame():
    state = in_port(event("time.spent", pirate_id="jack", amount=20))
    state = when(state, event("pirate.boarded", pirate_id="jack", late=True))
    jack = view(state, "pirate", pirate_id="jack")
    assert (jack["fame"], jack["time_units"]) == (47 - 5, 0)


def test_a_pirate_back_aboard_in_time_loses_nothing_and_their_port_is_over():
    state = when(in_port(event("time.spent", pirate_id="jack", amount=4)), event("pirate.boarded", pirate_id="jack"))
    jack = view(state, "pirate", pirate_id="jack")
    assert (jack["fame"], jack["time_units"]) == (47, 0)
    assert refused(state, event("salary.collected", pirate_id="jack")) == (
        "Jack cannot collect Salary: it takes 1 Time Unit and Jack has 0 left."
    )


def test_a_pirate_with_time_units_left_is_not_late():
    assert refused(
        in_port(event("time.spent", pirate_id="jack", amount=19)), event("pirate.boarded", pirate_id="jack", late=True)
    ) == ("Jack is not late: Jack still has 1 Time Unit to reach the Pirate Ship.")


def test_a_pirate_carried_aboard_unconscious_is_not_also_late():
    state = in_port(event("pirate.unconscious", pirate_id="jack"))
    assert refused(state, event("pirate.boarded", pirate_id="jack", late=True)) == (
        "Jack was carried aboard Unconscious; their Port Phase is over."
    )


def test_a_pirate_boards_once_a_port():
    state = in_port(event("pirate.boarded", pirate_id="jack"))
    assert refused(state, event("pirate.boarded", pirate_id="jack")) == (
        "Jack is already back aboard; their Port Phase is over."
    )


# --- the Admiral loyalty roll (Appendix II: Admiral Mode and Cabin Boy Mode, Admiral Mode, Port Phase) ---


def keeping_the_cook(*extra):
    options = {**OPTIONS, "settings": [*OPTIONS["settings"], LOYALTY]}
    return in_port(event("ally.hired", pirate_id="jack", **COOK), *ROUND_TRIP, *extra, options=options)


def test_an_ally_stays_when_the_hirer_wins_the_confronted_charisma_roll_and_is_then_paid():
    # Jack: Charisma 3 + 4 = 7 against the Cook's 2 + 4 = 6.
    state = when(keeping_the_cook(), event("ally.loyalty_rolled", ally_id="cook", hirer_roll=4, ally_roll=4))
    state = when(state, event("ally.upkeep_paid", ally_id="cook"), 1001)
    assert view(state, "pirate", pirate_id="jack")["ally"] == "Cook"


def test_an_ally_leaves_when_the_hirer_loses_the_roll():
    state = when(keeping_the_cook(), event("ally.loyalty_rolled", ally_id="cook", hirer_roll=1, ally_roll=5))
    assert view(state, "pirate", pirate_id="jack")["ally"] is None
    assert {a["id"]: a["status"] for a in view(state, "ship")["allies"]} == {"cook": "dismissed"}


def test_a_tied_loyalty_roll_is_rolled_again():
    assert refused(keeping_the_cook(), event("ally.loyalty_rolled", ally_id="cook", hirer_roll=2, ally_roll=3)) == (
        "Jack and the Cook tie at 5: the tied players roll again (Book I: Dice Rolls, Charisma rolls)."
    )


def test_under_the_setting_upkeep_waits_for_the_roll():
    assert refused(keeping_the_cook(), event("ally.upkeep_paid", ally_id="cook")) == (
        "Jack must first pass the confronted Charisma roll that keeps the Cook (Admiral setting, Appendix II: Admiral Mode and Cabin Boy Mode, Admiral Mode, Port Phase)."
    )


def test_the_loyalty_roll_is_made_once_a_port():
    state = keeping_the_cook(event("ally.loyalty_rolled", ally_id="cook", hirer_roll=4, ally_roll=1))
    assert refused(state, event("ally.loyalty_rolled", ally_id="cook", hirer_roll=4, ally_roll=1)) == (
        "Jack has already rolled to keep the Cook in this Port Phase."
    )


def test_an_ally_hired_this_port_needs_no_loyalty_roll():
    options = {**OPTIONS, "settings": [*OPTIONS["settings"], LOYALTY]}
    state = in_port(event("ally.hired", pirate_id="jack", **COOK), options=options)
    assert refused(state, event("ally.loyalty_rolled", ally_id="cook", hirer_roll=4, ally_roll=1)) == (
        "The Cook was hired in this Port Phase and needs no loyalty roll."
    )


def test_without_the_setting_there_is_no_loyalty_roll():
    state = in_port(event("ally.hired", pirate_id="jack", **COOK), *ROUND_TRIP)
    assert refused(state, event("ally.loyalty_rolled", ally_id="cook", hirer_roll=4, ally_roll=1)) == (
        "Allies stay loyal without a roll unless the crew plays the Admiral setting admiral.port.ally_charisma_roll."
    )


def test_a_loyalty_roll_is_one_die_each():
    assert refused(keeping_the_cook(), event("ally.loyalty_rolled", ally_id="cook", hirer_roll=7, ally_roll=1)) == (
        "A Charisma roll is one die; 7 is not a face."
    )


# --- Rumors (Book II: Port Phase, Setup; Book II: Locations, Madame Claude's Manor; Book II: Locations, Tavern) ---


def test_a_kept_rumor_pays_its_reward_at_the_next_port():
    state = in_port(event("rumors.heard", pirate_id="mary", where="tavern", kept="The Drowned Bell"))
    assert view(state, "pirate", pirate_id="mary")["time_units"] == 20 - 2
    state = given(*ROUND_TRIP, event("rumor.resolved", pirate_id="mary", success=True, coins=30, fame=5), state=state)
    mary = view(state, "pirate", pirate_id="mary")
    assert (mary["coins"], mary["fame"], mary["rumor"]) == (120 + 30, 72 + 2 + 5, None)


def test_a_failed_rumor_costs_its_penalty():
    state = in_port(event("rumors.heard", pirate_id="mary", where="manor", kept="The Drowned Bell"), *ROUND_TRIP)
    state = when(state, event("rumor.resolved", pirate_id="mary", success=False, fame=-4))
    assert view(state, "pirate", pirate_id="mary")["fame"] == 72 + 2 - 4


def test_no_rumors_are_drawn_while_one_is_kept():
    state = in_port(event("rumors.heard", pirate_id="mary", where="tavern", kept="The Drowned Bell"))
    assert refused(state, event("rumors.heard", pirate_id="mary", where="manor")) == (
        "Mary cannot listen to Rumors: Mary keeps the Rumor The Drowned Bell until it succeeds or fails."
    )


def test_a_rumor_discarded_leaves_the_pirate_free_to_listen_again():
    state = in_port(event("rumors.heard", pirate_id="mary", where="tavern"))
    state = when(state, event("rumors.heard", pirate_id="mary", where="tavern", kept="The Drowned Bell"))
    assert view(state, "pirate", pirate_id="mary")["time_units"] == 20 - 4


def test_a_rumor_is_resolved_back_in_tortuga():
    state = in_port(event("rumors.heard", pirate_id="mary", where="tavern", kept="The Drowned Bell"))
    assert refused(state, event("rumor.resolved", pirate_id="mary", success=True, coins=30)) == (
        "Mary's Rumor The Drowned Bell was kept in this Port Phase; it is resolved when the crew returns to "
        "Tortuga Island (Book II: Locations, Tavern)."
    )


def test_only_a_kept_rumor_is_resolved():
    assert refused(in_port(), event("rumor.resolved", pirate_id="mary", success=True, coins=30)) == (
        "Mary keeps no Rumor to resolve."
    )


def test_a_rumor_pays_rewards_on_success_and_penalties_on_failure():
    state = in_port(event("rumors.heard", pirate_id="mary", where="tavern", kept="The Drowned Bell"), *ROUND_TRIP)
    assert refused(state, event("rumor.resolved", pirate_id="mary", success=True, coins=-5)) == (
        "A Rumor fulfilled pays Mary a reward, not a loss."
    )
    assert refused(state, event("rumor.resolved", pirate_id="mary", success=False, fame=5)) == (
        "A failed Rumor costs Mary its penalty, not a reward."
    )


# --- Scheme and Guard (Book III: Voyage Phase Sequence, Crew Round) ---


def with_booty(*extra):
    """At sea with 100 Coins in the Crew's Booty and Jack wounded twice."""
    return in_port(
        event("salary.collected", pirate_id="anne"),
        event("wounds.changed", pirate_id="jack", amount=2),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        *extra,
    )


def test_a_raid_takes_a_die_plus_three_coins_from_the_crews_booty():
    state = when(with_booty(), event("scheme.resolved", pirate_id="jack", coin="gold", guard="silver", roll=4))
    assert view(state, "pirate", pirate_id="jack")["coins"] == 70 + 7
    assert view(state, "ship")["crew_booty"] == 100 - 7


def test_a_raid_takes_whatever_is_left():
    state = when(at_sea(), event("scheme.resolved", pirate_id="jack", coin="gold", roll=6))
    assert view(state, "pirate", pirate_id="jack")["coins"] == 70


def test_badmouthing_gains_three_trust_points():
    state = when(with_booty(), event("scheme.resolved", pirate_id="jack", coin="silver"))
    assert view(state, "ship")["trust"] == {"jack": 3}


def test_a_theft_of_rum_recovers_all_wounds():
    state = when(with_booty(), event("scheme.resolved", pirate_id="jack", coin="copper", goods="Rum"))
    assert view(state, "pirate", pirate_id="jack")["wounds"] == 0
    assert view(state, "ship")["ship"]["goods"] == {"Rum": 1, "Supplies": 3}


def test_a_caught_schemer_loses_five_trust_and_schemes_no_more_this_voyage():
    state = with_booty(event("trust.changed", character_id="jack", amount=6))
    state = when(state, event("scheme.resolved", pirate_id="jack", coin="gold", guard="gold"))
    assert view(state, "ship")["trust"] == {"jack": 1}
    assert refused(state, event("scheme.resolved", pirate_id="jack", coin="silver")) == (
        "Jack was caught scheming and cannot Scheme again this Voyage Phase (Book III: Voyage Phase Sequence, Crew Round)."
    )


def test_an_empty_hand_does_nothing():
    state = with_booty()
    assert when(state, event("scheme.resolved", pirate_id="jack", coin=None, guard="gold")).crew_booty == 100


def test_the_captain_does_not_scheme():
    assert refused(with_booty(), event("scheme.resolved", pirate_id="anne", coin="silver")) == (
        "Anne is the Captain; only another Pirate schemes in the «Cabins» (Book III: Voyage Phase Sequence, Crew Round)."
    )


def test_a_raid_logs_its_die():
    assert refused(with_booty(), event("scheme.resolved", pirate_id="jack", coin="gold")) == (
        "Jack's Raid takes one die +3 Coins: log the die (roll 1-6)."
    )


def test_only_a_raid_rolls():
    assert refused(with_booty(), event("scheme.resolved", pirate_id="jack", coin="copper", roll=3)) == (
        "Only a Raid (gold) rolls a die; Jack showed copper."
    )


def test_badmouth_takes_nothing_else():
    assert refused(with_booty(), event("scheme.resolved", pirate_id="jack", coin="silver", goods="Rum")) == (
        "With Badmouth there is no die to roll and no Goods to take."
    )


def test_a_theft_needs_the_goods_in_the_hold():
    state = with_booty(event("goods.spent", goods="Rum", quantity=2))
    assert refused(state, event("scheme.resolved", pirate_id="jack", coin="copper", goods="Rum")) == (
        "Jack cannot steal Rum: the Hold has none."
    )


def test_a_guard_needs_a_group_of_pirates():
    state = with_booty(*(event("group.lost") for _ in range(4)))
    assert refused(state, event("scheme.resolved", pirate_id="jack", coin="silver", guard="gold")) == (
        "Nobody can Guard: it takes a Captain and a Group of Pirates on the 'Guard' space (Book III: Voyage Phase Sequence, Crew Round)."
    )


# --- the surrender wipe (Book III: End of the Voyage Phase) ---


def test_a_surrender_strips_every_record_sheet_and_the_crews_booty():
    state = with_booty(
        event("item.gained", pirate_id="mary", item="Cursed Compass", kind="legendary"),
        event("booty.buried", pirate_id="anne", island="B", amount=40),
    )
    state = when(state, event("crew.surrendered", cause="surrendered"))
    sheets = {p["id"]: p for p in view(state, "pirates")}
    assert [(s["coins"], s["items"], s["starting_gear"]) for s in sheets.values()] == [
        (0, [], ["Rapier"]),
        (0, [], ["Axe"]),
        (0, [], ["Dagger"]),
    ]
    assert view(state, "ship")["crew_booty"] == 0
    assert state.legendary == {}
    # Buried booty is not on the Record Sheet's Crew's Booty: it stays on island B.
    assert view(state, "ship")["buried"] == {"anne": {"B": 40}}
    ledger = view(state, "ledger")
    assert sum(ledger["balances"].values()) == ledger["from_sources"] - ledger["to_sinks"]


def test_a_revolt_also_loses_the_allies():
    state = in_port(
        event("ally.hired", pirate_id="jack", **COOK),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        # The crew revolts when Morale reaches 0 (Book III: End of the Voyage Phase).
        event("morale.changed", amount=-20),
    )
    state = when(state, event("crew.surrendered", cause="revolt"))
    assert view(state, "pirate", pirate_id="jack")["ally"] is None


def test_all_in_the_sickbay_strips_the_sheets_unless_the_option_reads_it_as_a_choice_of_annex():
    everyone_down = [event("pirate.unconscious", pirate_id=p) for p in ("anne", "jack", "mary")]
    state = when(with_booty(*everyone_down), event("crew.surrendered", cause="sickbay"))
    assert view(state, "pirate", pirate_id="mary")["coins"] == 0
    state = at_sea(options={**OPTIONS, "sickbay_surrender_wipe": False})
    assert refused(state, event("crew.surrendered", cause="sickbay")) == (
        "This campaign reads all the Characters in the «Sickbay» as a choice of annex, not a surrender "
        "(option sickbay_surrender_wipe); log the annex played instead."
    )


def test_surrender_happens_in_a_voyage():
    assert refused(in_port(), event("crew.surrendered", cause="surrendered")) == (
        "Surrender happens in the Voyage Phase, and this is the port phase."
    )
