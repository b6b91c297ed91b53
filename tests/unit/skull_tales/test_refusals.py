"""Every refusal the fold makes, with its sentence."""

from __future__ import annotations

import pytest

from quartermaster.projections.game import Rejection
from quartermaster.projections.skull_tales import GAME
from quartermaster.service.application.catalog import CatalogError, skull_tales as catalogue
from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, ROUND_TRIP, event
from tests.unit.skull_tales.table import CATALOG, given, refused, start, when


def in_port(*extra, options=None):
    """The crew of the chapter payloads, Anne Captain, at the start of chapter 2's Port phase."""
    return given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        *extra,
        options=options if options is not None else OPTIONS,
    )


def test_learning_a_skill_without_enough_coins_names_the_price_and_the_purse():
    state = in_port()
    # Jack (Rowdy only) learns Sweeping Strike, Rowdy 130 tier: 130 Coins, 70 Fame (Book II: Feats, Classes and Skills, Rowdy Skills); he has 70 Coins.
    reason = refused(state, event("skill.learned", pirate_id="jack", skill="Sweeping Strike"))
    assert reason == "Jack cannot learn Sweeping Strike: it costs 130 Coins and Jack has 70."


def test_learning_a_skill_without_enough_fame_is_refused():
    state = in_port(
        event("salary.collected", pirate_id="jack"), event("coins.changed", pirate_id="jack", amount=50, source="event")
    )
    reason = refused(state, event("skill.learned", pirate_id="jack", skill="Sweeping Strike"))
    assert reason == "Jack cannot learn Sweeping Strike: it costs 70 Fame and Jack has 47."


def test_an_attribute_prerequisite_is_checked_when_learning():
    state = in_port()
    # Pounce needs Agility 4 (Book II: Feats, Classes and Skills, Rogue Skills); Jack has Agility 3.
    assert refused(state, event("skill.learned", pirate_id="jack", skill="Pounce")) == (
        "Jack cannot learn Pounce: it needs Agility 4 and Jack has 3."
    )


def test_a_skill_prerequisite_is_checked_when_learning():
    state = in_port()
    assert refused(state, event("skill.learned", pirate_id="jack", skill="Double Slash")) == (
        "Jack cannot learn Double Slash: it needs Ambidextrous, which Jack does not know."
    )


def test_a_special_skill_capacity_prerequisite_is_checked():
    state = in_port(options={**OPTIONS, "special_skill_capacity": 2})
    assert refused(state, event("skill.learned", pirate_id="jack", skill="Survivor")) == (
        "Jack cannot learn Survivor: it needs Special Skill capacity 3 and Jack's is 2."
    )


def test_special_skills_stop_at_the_capacity():
    state = in_port(options={**OPTIONS, "special_skill_capacity": 0})
    assert refused(state, event("skill.learned", pirate_id="mary", skill="Articulate")) == (
        "Mary cannot learn Articulate: it is a Special Skill and Mary has used all 0 slots of Special Skill capacity."
    )


def test_only_mystics_learn_mystic_skills():
    state = in_port()
    assert refused(state, event("skill.learned", pirate_id="anne", skill="Blessed")) == (
        "Anne cannot learn Blessed: only Pirates with the Mystic class learn Mystic skills, and Anne is Duelist."
    )


def test_starting_only_skills_cannot_be_learned():
    state = in_port()
    assert refused(state, event("skill.learned", pirate_id="anne", skill="Voodoo")) == (
        "Anne cannot learn Voodoo: it is a starting skill only (Book II: Feats, Classes and Skills, Mystic Skills)."
    )


def test_a_known_skill_cannot_be_learned_again():
    assert (
        refused(in_port(), event("skill.learned", pirate_id="anne", skill="Fencing")) == "Anne already knows Fencing."
    )


def test_a_master_must_have_known_the_skill_before_this_port():
    state = in_port(
        event("salary.collected", pirate_id="mary"),
        event("skill.learned", pirate_id="mary", skill="Fencing", master_id="anne"),
    )
    state = when(state, event("coins.changed", pirate_id="jack", amount=100, source="event"))
    state = when(state, event("fame.changed", pirate_id="jack", amount=100, source="event"))
    assert refused(state, event("skill.learned", pirate_id="jack", skill="Fencing", master_id="mary")) == (
        "Mary cannot teach Fencing to Jack: Mary learned it in this same Port Phase (Book II: Feats, Classes and Skills, Master and apprentice)."
    )


def test_a_master_who_does_not_know_the_skill_cannot_teach_it():
    assert refused(in_port(), event("skill.learned", pirate_id="mary", skill="Fencing", master_id="jack")) == (
        "Jack cannot teach Fencing to Mary: Jack does not know it."
    )


def test_a_disapproving_master_teaches_nothing_until_the_next_port():
    state = in_port(event("approval.given", pirate_id="mary", master="Francisco Carranza", kind="disapproval"))
    assert refused(state, event("skill.learned", pirate_id="mary", skill="Fencing")) == (
        "Mary cannot learn Fencing: Francisco Carranza Disapproves of Mary until the next Port Phase."
    )


def test_skills_are_learned_in_port_only():
    state = given(*CREW, options=OPTIONS)
    assert refused(state, event("skill.learned", pirate_id="mary", skill="Fencing")) == (
        "Learning Fencing happens in the Port Phase, and this is no phase."
    )


def test_learning_takes_seven_time_units():
    state = in_port(event("time.spent", pirate_id="mary", amount=15))
    assert refused(state, event("skill.learned", pirate_id="mary", skill="Fencing")) == (
        "Mary cannot learn Fencing: it takes 7 Time Units and Mary has 5 left."
    )


def test_bosun_cannot_be_learned_by_the_captain():
    state = in_port(event("coins.changed", pirate_id="anne", amount=100, source="event"))
    assert (
        refused(state, event("skill.learned", pirate_id="anne", skill="Bosun"))
        == "Anne cannot learn Bosun while Captain."
    )


def test_bosun_is_unique_to_one_character():
    # Jack (Rowdy) pays the off-class price for Bosun (Scholar, 70 tier): 105 Coins, 75 Fame (Book II: Feats, Classes and Skills, Scholar Skills).
    state = in_port(
        event("coins.changed", pirate_id="jack", amount=35, source="event"),
        event("fame.changed", pirate_id="jack", amount=28, source="event"),
        event("skill.learned", pirate_id="jack", skill="Bosun"),
    )
    state = when(state, event("coins.changed", pirate_id="mary", amount=10, source="event"))
    assert refused(state, event("skill.learned", pirate_id="mary", skill="Bosun")) == (
        "Mary cannot learn Bosun: only one Character may have it, and Jack does."
    )


def test_an_unknown_skill_is_refused_by_the_catalogue_with_a_suggestion():
    with pytest.raises(CatalogError) as caught:
        catalogue.expand(CATALOG, "skill.learned", {"pirate_id": "anne", "skill": "Fencin"})
    assert str(caught.value) == "Skull Tales has no skill called 'Fencin'. Did you mean Fencing or Feint?"


def test_a_feat_needs_its_counter():
    state = in_port()
    assert refused(state, event("feat.gained", pirate_id="anne", feat="Bravery")) == (
        "Anne cannot accomplish the Bravery Feat: it needs 4 Adventure Phases completed with total Success and Anne has 1."
    )


def test_only_the_captain_upgrades_the_ship():
    assert refused(in_port(), event("ship.upgraded", pirate_id="jack", upgrade="Cannon")) == (
        "Jack cannot buy the Cannon upgrade: only the Captain can, and the Captain is Anne."
    )


def test_an_upgrade_the_crews_booty_cannot_pay_is_refused():
    assert refused(in_port(), event("ship.upgraded", pirate_id="anne", upgrade="Cannon")) == (
        "Anne cannot buy the Cannon upgrade: it costs 100 Coins and there are 0 in the Crew's Booty."
    )


def test_cannons_stop_at_five():
    state = in_port(
        event("salary.collected", pirate_id="anne"),
        event("ship.upgraded", pirate_id="anne", upgrade="Cannon"),
        event("coins.given", from_pirate="anne", to="crew_booty", amount=100),
        event("ship.upgraded", pirate_id="anne", upgrade="Cannon"),
        event("coins.given", from_pirate="mary", to="crew_booty", amount=100),
    )
    assert refused(state, event("ship.upgraded", pirate_id="anne", upgrade="Cannon")) == (
        "Anne cannot buy the Cannon upgrade: the ship already carries 5 Cannons, the most it may."
    )


def test_the_hold_cannot_grow_past_the_ship_types_maximum():
    state = in_port(
        event("salary.collected", pirate_id="anne"),
        event("ship.upgraded", pirate_id="anne", upgrade="Expand Hold"),
        event("ship.upgraded", pirate_id="anne", upgrade="Expand Hold"),
    )
    assert refused(state, event("ship.upgraded", pirate_id="anne", upgrade="Expand Hold")) == (
        "Anne cannot buy the Expand Hold upgrade: the Brigantine's Hold is at its maximum of 9."
    )


def test_goods_the_hold_does_not_carry_cannot_be_sold():
    assert refused(in_port(), event("goods.traded", pirate_id="anne", goods="Metal", quantity=1, direction="sell")) == (
        "Anne cannot sell 1 Metal: the Hold has 0 Metal."
    )


def test_prisoners_cannot_be_sold():
    state = in_port(event("goods.gained", goods="Prisoners", quantity=1, source="plunder"))
    assert refused(state, event("goods.traded", pirate_id="anne", goods="Prisoners", quantity=1, direction="sell")) == (
        "Prisoners cannot be sold; deliver them to the Brotherhood for the reward."
    )


def test_a_full_hold_takes_no_more_goods():
    state = in_port()
    # The Southern Lady: Hold 7 columns = 14 spaces; 5 Goods and 3 Cannons aboard (Book III: Voyage Phase, Important Concepts).
    assert refused(state, event("goods.gained", goods="Wood", quantity=7, source="plunder")) == (
        "The Hold cannot take 7 Wood: it has room for 14 tokens and would hold 15 (Goods and Cannons)."
    )


def test_groups_of_pirates_stop_at_six():
    state = in_port(
        event("salary.collected", pirate_id="anne"),
        event("group.hired", pirate_id="anne"),
        event("group.hired", pirate_id="anne"),
    )
    assert refused(state, event("group.hired", pirate_id="anne")) == (
        "Anne cannot hire a Group of Pirates: the ship carries 6, the most it may."
    )


def test_salary_is_collected_once_per_port():
    state = in_port(event("salary.collected", pirate_id="jack"))
    assert refused(state, event("salary.collected", pirate_id="jack")) == (
        "Jack has already collected Salary in this Port Phase."
    )


def test_a_second_loan_waits_for_the_first_to_be_repaid():
    # A Debtor "from the next Port Phase onwards" (Book II: Locations, Market Square): in a later Port, no new loan.
    state = in_port(event("loan.taken", pirate_id="jack", amount=20, lender="market"), *ROUND_TRIP)
    assert refused(state, event("loan.taken", pirate_id="jack", amount=10, lender="market")) == (
        "Jack cannot take another loan: Jack already owes Monsieur Fontaine 24 Coins."
    )


def test_a_second_loan_in_the_port_of_the_first_adds_up_to_fifty():
    # Not yet a Debtor in the Port of the first loan: the two add up, within Monsieur Fontaine's 50 Coins.
    state = in_port(event("loan.taken", pirate_id="jack", amount=20, lender="market"))
    after = when(state, event("loan.taken", pirate_id="jack", amount=10, lender="market"))
    assert after.pirates["jack"].loan is not None and after.pirates["jack"].loan.owed == 24 + 12
    assert refused(state, event("loan.taken", pirate_id="jack", amount=35, lender="market")) == (
        "Jack cannot borrow 35 Coins more: Monsieur Fontaine lends up to 50 Coins, and Jack borrowed 20 in this "
        "Port Phase."
    )


def test_loans_stop_at_fifty_coins():
    assert refused(in_port(), event("loan.taken", pirate_id="jack", amount=55, lender="market")) == (
        "Jack cannot borrow 55 Coins: loans come in 5s, up to 50 Coins."
    )


def test_a_captain_buries_booty_on_a_single_island():
    state = in_port(
        event("salary.collected", pirate_id="anne"),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("booty.buried", pirate_id="anne", island="B", amount=40),
    )
    assert refused(state, event("booty.buried", pirate_id="anne", island="C", amount=10)) == (
        "Anne cannot bury booty on island C: each Captain buries on a single island, and Anne's is island B."
    )


def test_only_the_captain_buries_booty():
    state = in_port(event("phase.ended", phase="port"), event("phase.started", phase="voyage"))
    assert refused(state, event("booty.buried", pirate_id="jack", island="B", amount=10)) == (
        "Jack cannot bury booty on island B: only the Captain can, and the Captain is Anne."
    )


def test_a_mutineer_must_exceed_the_captains_trust():
    state = in_port(
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        # The Captain's Trust comes from resolving Voyage Events (Book III: Voyage Phase, Trust Points).
        event("trust.changed", character_id="anne", amount=3, reason="a Voyage Event"),
        event("trust.changed", character_id="jack", amount=3),
    )
    assert refused(state, event("mutiny.resolved", instigator="jack", bids={"jack": 1, "anne": 0})) == (
        "Jack cannot join the Mutiny: Jack has 3 Trust Points and the Captain Anne has 3; "
        "a Mutineer must exceed the Captain (Book III: Voyage Phase, Mutiny)."
    )


def test_a_mutineer_cannot_bid_more_coins_than_their_record_sheet_holds():
    state = in_port(
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("trust.changed", character_id="jack", amount=3),
    )
    # Jack has 70 Coins: 7 bidding coins (Book III: Voyage Phase, Mutiny).
    assert refused(state, event("mutiny.resolved", instigator="jack", bids={"jack": 8, "anne": 0})) == (
        "Jack cannot bid 8 coins: Jack has 70 Coins, 7 bidding coins, and must bid at least 1."
    )


def test_a_tied_mutiny_needs_the_charisma_roll():
    state = in_port(
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("trust.changed", character_id="jack", amount=3),
    )
    assert refused(state, event("mutiny.resolved", instigator="jack", bids={"jack": 2, "anne": 2})) == (
        "Jack, Anne tie with 2 coins: name the winner of the confronted Charisma roll."
    )


def test_the_captaincy_goes_to_the_most_adventure_fame():
    state = given(*CREW, *CHAPTER_ONE[:-2], options=OPTIONS)
    assert refused(state, event("captain.elected", pirate_id="jack")) == (
        "Jack gained 45 Fame in the Adventure and Anne gained 80: the captaincy goes to the most Fame (Book I: End of the Adventure)."
    )


def test_a_captain_cannot_be_elected_over_a_captain():
    state = given(*CREW, *CHAPTER_ONE, options=OPTIONS)
    assert refused(state, event("captain.elected", pirate_id="mary")) == "Mary cannot be elected: Anne is the Captain."


def test_an_ally_with_more_charisma_costs_three_coins_and_fame_a_point():
    state = in_port(event("coins.changed", pirate_id="jack", amount=0 + 1, source="event"))
    # Jack (Charisma 3) hires a Charisma 5 Surgeon with Salary 60: 60 + 2 x 3 = 66 Coins; he has 71.
    state = when(
        state,
        event(
            "ally.hired", pirate_id="jack", ally_id="surgeon", archetype="Surgeon", charisma=5, salary=60, fame_cost=10
        ),
    )
    sheet = GAME.views["pirate"].read(state, pirate_id="jack")
    assert (sheet["coins"], sheet["fame"], sheet["ally"]) == (71 - 66, 47 - 16, "Surgeon")


def test_one_ally_per_pirate_per_chapter():
    state = in_port(
        event("ally.hired", pirate_id="jack", ally_id="cook", archetype="Cook", charisma=2, salary=10, fame_cost=5)
    )
    assert refused(
        state,
        event("ally.hired", pirate_id="jack", ally_id="witch", archetype="Witch", charisma=2, salary=10, fame_cost=5),
    ) == ("Jack cannot hire the Witch: each Pirate hires only one Ally per chapter (Book I: The Characters, Allies).")


def test_the_crew_limit_of_five_characters_holds():
    state = in_port(
        event("ally.hired", pirate_id="jack", ally_id="cook", archetype="Cook", charisma=2, salary=10, fame_cost=5),
        event("ally.hired", pirate_id="mary", ally_id="witch", archetype="Witch", charisma=2, salary=10, fame_cost=5),
    )
    assert refused(
        state,
        event(
            "ally.hired", pirate_id="anne", ally_id="surgeon", archetype="Surgeon", charisma=2, salary=10, fame_cost=5
        ),
    ) == (
        "Anne cannot hire the Surgeon: there cannot be more than 5 Characters (Pirates and Allies) in play (Book I: The Characters)."
    )


def test_an_archetype_in_play_is_not_in_the_ally_bag():
    assert refused(
        in_port(),
        event("ally.hired", pirate_id="jack", ally_id="sd", archetype="Sea Dog", charisma=2, salary=10, fame_cost=5),
    ) == ("Jack cannot hire the Sea Dog: the Sea Dog is already in play, not in the Ally bag.")


def test_allies_are_not_paid_from_the_crews_booty_outside_solo_mode():
    state = in_port(event("salary.collected", pirate_id="anne"))
    assert refused(
        state,
        event(
            "ally.hired",
            pirate_id="anne",
            ally_id="cook",
            archetype="Cook",
            charisma=2,
            salary=10,
            fame_cost=5,
            paid_from="crew_booty",
        ),
    ) == ("Anne cannot pay an Ally from the Crew's Booty: only in Solo Mode (Book II: Port Phase, Important Concepts).")


def test_a_prosthesis_needs_the_injury_it_replaces():
    assert refused(in_port(), event("prosthesis.bought", pirate_id="jack", prosthesis="hook")) == (
        "Jack cannot buy a Hook: Jack has no Permanent Injury to the hands."
    )


def test_a_pirate_with_both_eyes_need_not_retire():
    assert refused(in_port(), event("pirate.retired", pirate_id="jack")) == (
        "Jack has not lost a pair of eyes, hands or legs and need not retire."
    )


def test_wounds_cannot_pass_health():
    assert refused(in_port(), event("wounds.changed", pirate_id="anne", amount=6)) == (
        "Anne cannot take 6 Wounds: Anne has 0 of 5 Health; at 5 Anne falls Unconscious (log pirate.unconscious)."
    )


def test_destiny_points_cannot_be_spent_when_gone():
    assert refused(in_port(), event("destiny.changed", pirate_id="jack", amount=-3)) == (
        "Jack cannot spend 3 Destiny Points: Jack has 2."
    )


def test_coins_from_nowhere_are_refused():
    assert refused(in_port(), event("coins.changed", pirate_id="jack", amount=10, source="printing press")) == (
        "Jack cannot gain Coins from 'printing press'; Coins come from assignment, card_game, event, fallen_enemy, "
        "gambling, goal, island, rumor, search_card."
    )


def test_a_pirate_cannot_give_coins_they_do_not_have():
    assert refused(in_port(), event("coins.given", from_pirate="jack", to="mary", amount=100)) == (
        "Jack cannot give 100 Coins to Mary: Jack has 70."
    )


def test_a_sixth_character_cannot_join():
    state = given(*CREW, options=OPTIONS)
    # Each a Character Card of its own: there is one card of each archetype (Book I: How to start).
    for n, archetype in enumerate(("Cook", "Gunner")):
        data = {**CREW[0]["data"], "pirate_id": f"p{n}", "name": f"P{n}", "archetype": archetype}
        state = when(state, {**CREW[0], "data": data})
    nine = {**CREW[0]["data"], "pirate_id": "p9", "name": "Nine", "archetype": "Surgeon"}
    assert refused(state, {**CREW[0], "data": nine}) == (
        "Nine cannot join: there cannot be more than 5 Characters (Pirates and Allies) in play (Book I: The Characters)."
    )


def test_the_same_pirate_id_cannot_join_twice():
    assert refused(given(*CREW, options=OPTIONS), CREW[0]) == "There is already a pirate with the id 'anne' (Anne)."


def test_an_unknown_pirate_is_named_with_the_crew():
    assert refused(in_port(), event("salary.collected", pirate_id="bart")) == (
        "There is no pirate 'bart' in this crew (the crew: anne, jack, mary)."
    )


def test_phases_follow_the_chapter_order():
    state = given(*CREW, event("chapter.started", number=1, phases=["port", "voyage", "adventure"]), options=OPTIONS)
    assert refused(state, event("phase.started", phase="voyage")) == (
        "The next phase of chapter 1 is the port phase, not the voyage phase."
    )


def test_a_chapter_is_skipped_nowhere():
    state = given(*CREW, options=OPTIONS)
    assert refused(state, event("chapter.started", number=3)) == (
        "After chapter 0 comes chapter 1 (or chapter 0 again), not chapter 3."
    )


def test_an_adventure_cannot_end_without_each_pirates_degree_of_success():
    state = given(*CREW, event("chapter.started", number=1), event("phase.started", phase="adventure"), options=OPTIONS)
    assert refused(state, event("phase.ended", phase="adventure", degrees={"anne": "total_success"})) == (
        "Say how the Adventure ended for Jack, Mary: total success, partial success or failure."
    )


def test_an_unconscious_pirate_cannot_claim_success():
    state = given(
        *CREW,
        event("chapter.started", number=1),
        event("phase.started", phase="adventure"),
        event("pirate.unconscious", pirate_id="jack"),
        options=OPTIONS,
    )
    assert refused(
        state,
        event(
            "phase.ended",
            phase="adventure",
            degrees={"anne": "total_success", "jack": "partial_success", "mary": "total_success"},
        ),
    ) == ("Jack is Unconscious at the end of the Adventure, which is a failure (Book I: End of the Adventure).")


def test_more_than_five_dice_are_refused():
    state = given(*CREW, options=OPTIONS)
    dice = [{"sides": 6, "face": 3}] * 6
    assert refused(state, event("dice.rolled", dice=dice, total=18, target=4)) == (
        "Skull Tales rolls at most 5 dice at once, and this roll has 6 (Book I: Dice Rolls, Dice Limit)."
    )


def test_successes_are_the_dice_exceeding_the_target():
    state = given(*CREW, options=OPTIONS)
    dice = [{"sides": 6, "face": f} for f in (4, 5, 6)]
    assert refused(state, event("dice.rolled", dice=dice, total=15, target=4, successes=3)) == (
        "Dice [4, 5, 6] against 4 give 2 successes, not 3."
    )


def test_a_destiny_point_adds_one_to_each_die_of_the_next_roll():
    state = given(*CREW, event("destiny.changed", pirate_id="anne", amount=-1, plus_one=True), options=OPTIONS)
    dice = [{"sides": 6, "face": f} for f in (4, 5, 6)]
    assert refused(state, event("dice.rolled", dice=dice, total=15, target=4, successes=2, character_id="anne")) == (
        "Dice [4, 5, 6] against 4 with a Destiny Point's +1 to each die give 3 successes, not 2."
    )


def test_only_six_sided_dice_are_rolled():
    state = given(*CREW, options=OPTIONS)
    assert refused(state, event("dice.rolled", dice=[{"sides": 8, "face": 3}], total=3)) == (
        "Skull Tales uses six-sided dice only, not a d8."
    )


def test_bad_options_are_refused_when_the_campaign_starts():
    with pytest.raises(Rejection) as caught:
        GAME.initial({"players": 7})
    assert caught.value.reason == "Skull Tales is played by 1 to 5 players, not 7."


def test_an_unknown_setting_is_refused_by_the_catalogue():
    with pytest.raises(CatalogError) as caught:
        catalogue.expand(
            CATALOG,
            "campaign.started",
            {"name": "x", "game": GAME.id, "options": {"settings": ["cabin_boy.port.free_rum"]}},
        )
    assert str(caught.value).startswith(
        "Skull Tales has no Cabin Boy or Admiral setting called 'cabin_boy.port.free_rum'."
    )


def test_an_unexpanded_setting_is_refused_by_the_fold():
    with pytest.raises(Rejection) as caught:
        GAME.initial({"settings": ["admiral.adventure.critical_fail"]})
    assert caught.value.reason == (
        "The setting 'admiral.adventure.critical_fail' must be expanded from the catalogue before the campaign "
        "starts (the service does this when it knows the name)."
    )


def test_the_pirate_view_names_an_unknown_pirate():
    with pytest.raises(KeyError) as caught:
        GAME.views["pirate"].read(start(), pirate_id="bart")
    assert "There is no pirate 'bart' in this crew" in str(caught.value)
