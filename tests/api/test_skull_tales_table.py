"""Skull Tales rules as a table meets them, posted through the HTTP API and read back through the views."""

from __future__ import annotations

from typing import Any

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, event

GAME = "skull-tales-full-sail"
COOK = {"ally_id": "cook", "archetype": "Cook", "charisma": 2, "salary": 10, "fame_cost": 5}


def read(api, campaign, name: str, **params: Any) -> Any:
    answer = api.get(campaign, f"/views/{name}", **params)
    assert answer.status_code == 200, answer.text
    return answer.json()[name]


def posted(api, campaign, *events: dict[str, Any]) -> None:
    answer = api.append(campaign, list(events))
    assert answer.status_code == 201, answer.text


def refused(api, campaign, *events: dict[str, Any]) -> str:
    answer = api.append(campaign, list(events))
    assert answer.status_code == 422, answer.text
    return answer.json()["detail"]


def sheet(api, campaign, pirate_id: str) -> dict[str, Any]:
    return read(api, campaign, "pirate", pirate_id=pirate_id)


# -- an Ally's death (Book I: Allies, Wounds and Revival; Book II: Port Phase, Setup) -------------------------------


def _ally_dies(api):
    """Chapter 2: Jack hires the Cook in Port; the Cook finds 6 Coins and dies in the Adventure."""
    campaign = api.new_campaign(GAME, options=OPTIONS)
    posted(
        api,
        campaign,
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2, phases=["port", "adventure"]),
        event("phase.started", phase="port"),
        event("ally.hired", pirate_id="jack", **COOK),
        event("phase.ended", phase="port"),
        event("phase.started", phase="adventure"),
        event("coins.changed", ally_id="cook", amount=6, source="search_card"),
        event("ally.died", ally_id="cook"),
        event(
            "phase.ended",
            phase="adventure",
            outcome="success",
            degrees={"anne": "total_success", "jack": "total_success", "mary": "total_success"},
        ),
        event("chapter.ended", number=2),
    )
    return campaign


def test_given_an_ally_died_when_the_next_port_is_set_up_then_its_hirer_pays_the_salary_and_play_goes_on(api):
    campaign = _ally_dies(api)
    before = sheet(api, campaign, "jack")["coins"]

    posted(api, campaign, event("chapter.started", number=3), event("phase.started", phase="port"))

    # "If your Pirate has lost an Ally in the Adventure Phase, you must also pay compensation equal to the Ally's
    # Salary" (Book II: Port Phase, Setup); option lost_ally_compensation: a sink by default.
    assert sheet(api, campaign, "jack")["coins"] == before - COOK["salary"]
    ledger = read(api, campaign, "ledger")
    assert sum(ledger["balances"].values()) == ledger["from_sources"] - ledger["to_sinks"]


def test_given_an_ally_died_then_its_coins_are_discarded_and_nothing_is_paid_out_to_its_hirer(api):
    campaign = _ally_dies(api)

    entries = read(api, campaign, "ledger")["entries"]

    # "everything else obtained by the Ally is discarded: Coins and any type of card"
    # (Book I: Allies, Wounds and Revival).
    assert [(e["from"], e["to"], e["amount"]) for e in entries if e["from"] == "ally:cook"] == [
        ("ally:cook", "sink:ally_lost", 6)
    ]


def test_given_an_ally_died_when_its_upkeep_is_paid_at_the_next_port_then_it_is_refused(api):
    campaign = _ally_dies(api)
    posted(api, campaign, event("chapter.started", number=3), event("phase.started", phase="port"))

    assert "There is no hired Ally 'cook'." in refused(api, campaign, event("ally.upkeep_paid", ally_id="cook"))


def test_given_an_ally_died_when_its_hirer_hires_the_same_archetype_at_the_next_port_then_it_joins(api):
    campaign = _ally_dies(api)
    posted(api, campaign, event("chapter.started", number=3), event("phase.started", phase="port"))

    # "You may rehire the same Ally archetype in any subsequent Port Phase." (Book I: Character Actions, Revive)
    posted(api, campaign, event("ally.hired", pirate_id="jack", **COOK))

    assert sheet(api, campaign, "jack")["ally"] == "Cook"


# -- the Voyage's end (Book III: End of the Voyage Phase, Unconscious Characters) ------------------------------------


def _at_sea(api, *events: dict[str, Any], options: dict[str, Any] | None = None):
    campaign = api.new_campaign(GAME, options=OPTIONS if options is None else options)
    posted(
        api,
        campaign,
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2, phases=["voyage"]),
        event("phase.started", phase="voyage"),
        *events,
    )
    return campaign


def test_given_a_pirate_healed_out_of_the_sickbay_when_the_voyage_ends_then_no_fame_is_lost(api):
    campaign = _at_sea(api, event("pirate.unconscious", pirate_id="mary"), event("pirate.revived", pirate_id="mary"))
    before = sheet(api, campaign, "mary")["fame"]

    posted(api, campaign, event("phase.ended", phase="voyage", outcome="success"))

    assert sheet(api, campaign, "mary")["fame"] == before


def test_given_a_pirate_unconscious_when_the_voyage_ends_then_they_start_the_next_phase_with_half_rounded_up(api):
    # Mary ends Chapter 1 with 72 Fame; 3 Trust Points become Fame at the end of the Voyage: 75.
    campaign = _at_sea(
        api,
        event("trust.changed", character_id="mary", amount=3, reason="Helm"),
        event("pirate.unconscious", pirate_id="mary"),
    )
    assert sheet(api, campaign, "mary")["fame"] == 72

    posted(api, campaign, event("phase.ended", phase="voyage", outcome="success"))

    # "starts the next Phase with half of their Fame"; "always round up" (Book I: How to start): 75 keeps 38.
    assert sheet(api, campaign, "mary")["fame"] == 38
    assert sheet(api, campaign, "mary")["status"] == "active"


# -- an Ally's Mutiny (Book III: Mutiny) ----------------------------------------------------------------------------


def test_given_an_allys_mutiny_then_only_the_captains_trust_becomes_fame_and_everyone_elses_is_reset(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    posted(
        api,
        campaign,
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2, phases=["port", "voyage"]),
        event("phase.started", phase="port"),
        event("ally.hired", pirate_id="jack", **COOK),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("trust.changed", character_id="anne", amount=2, reason="resolved a Voyage Event"),
        event("trust.changed", character_id="mary", amount=4, reason="Helm"),
        event("trust.changed", character_id="cook", amount=5, reason="Fight Enemies"),
    )
    fame = {pid: sheet(api, campaign, pid)["fame"] for pid in ("anne", "jack", "mary")}

    # Anne's Charisma 4 against the Cook's Charisma 2 and a die of 1: the mutiny fails.
    posted(api, campaign, event("ally_mutiny.resolved", ally_id="cook", coins_spent=0, ally_roll=1))

    assert sheet(api, campaign, "anne")["fame"] == fame["anne"] + 2
    posted(api, campaign, event("phase.ended", phase="voyage", outcome="success"))
    after = {pid: sheet(api, campaign, pid)["fame"] for pid in ("anne", "jack", "mary")}
    assert after == {"anne": fame["anne"] + 2, "jack": fame["jack"], "mary": fame["mary"]}
    assert read(api, campaign, "pirate", pirate_id="anne")["captain"] is True


# -- one Trade action (Book II: Locations, Docks: "By spending 2 Time Units, you can trade") -------------------------


def _in_port(api, *events: dict[str, Any]):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    posted(
        api,
        campaign,
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        *events,
    )
    return campaign


def test_given_the_captain_at_the_docks_when_one_trade_sells_and_buys_several_goods_then_it_takes_2_time_units(api):
    campaign = _in_port(api)
    units = sheet(api, campaign, "anne")["time_units"]

    posted(
        api,
        campaign,
        event(
            "trade.made",
            pirate_id="anne",
            lines=[
                {"goods": "Rum", "quantity": 2, "direction": "sell"},
                {"goods": "Supplies", "quantity": 1, "direction": "sell"},
                {"goods": "Wood", "quantity": 2, "direction": "buy"},
            ],
        ),
    )

    assert sheet(api, campaign, "anne")["time_units"] == units - 2
    ship = read(api, campaign, "ship")
    assert ship["ship"]["goods"] == {"Supplies": 2, "Wood": 2}
    # 2 Rum and 1 Supplies sold for 30 Coins; 2 Wood bought for 30, paid from what the sales brought.
    assert ship["crew_booty"] == 0


def test_given_a_trade_when_a_purchase_costs_more_than_the_crews_booty_holds_then_nothing_of_it_is_written(api):
    campaign = _in_port(api)

    detail = refused(
        api,
        campaign,
        event(
            "trade.made",
            pirate_id="anne",
            lines=[
                {"goods": "Rum", "quantity": 1, "direction": "sell"},
                {"goods": "Metal", "quantity": 1, "direction": "buy"},
            ],
        ),
    )

    assert "Anne cannot buy 1 Metal: it costs 50 Coins and there are 10 in the Crew's Booty." in detail
    assert read(api, campaign, "ship")["ship"]["goods"] == {"Rum": 2, "Supplies": 3}


def test_given_a_pirate_who_is_not_the_captain_when_they_trade_then_it_is_refused(api):
    campaign = _in_port(api)

    detail = refused(
        api,
        campaign,
        event("trade.made", pirate_id="jack", lines=[{"goods": "Rum", "quantity": 1, "direction": "sell"}]),
    )

    assert "Jack cannot trade at the Docks: only the Captain can, and the Captain is Anne." in detail


# -- selling gear with Haggle (Book II: Locations, Market Square: "sell non-starting gear at half its value") -------


def test_given_gear_bought_in_port_when_it_is_sold_with_haggle_then_it_brings_half_what_was_paid_rounded_up(api):
    campaign = _in_port(api, event("item.gained", pirate_id="mary", item="Dagger", price=15))
    coins = sheet(api, campaign, "mary")["coins"]

    posted(api, campaign, event("item.lost", pirate_id="mary", item="Dagger", haggled=True))

    # 15 / 2 = 7.5, and "In any situation where rounding is necessary, always round up" (Book I: How to start).
    assert sheet(api, campaign, "mary")["coins"] == coins + 8
    assert sheet(api, campaign, "mary")["items"] == []


def test_given_gear_found_with_its_card_price_and_given_away_when_it_is_sold_then_it_brings_half_that_price(api):
    campaign = _in_port(
        api,
        event("item.gained", pirate_id="jack", item="Pistol", value=25),
        event("item.given", from_pirate="jack", to_pirate="mary", item="Pistol"),
    )
    coins = sheet(api, campaign, "mary")["coins"]

    posted(api, campaign, event("item.lost", pirate_id="mary", item="Pistol", haggled=True))

    assert sheet(api, campaign, "mary")["coins"] == coins + 13


def test_given_gear_whose_worth_is_unknown_when_it_is_haggled_then_its_card_price_is_asked_for(api):
    campaign = _in_port(api, event("item.gained", pirate_id="mary", item="Rope"))

    detail = refused(api, campaign, event("item.lost", pirate_id="mary", item="Rope", haggled=True))
    assert "What Rope is worth is not on Mary's Record Sheet: give its card's price (value) to sell it." in detail

    coins = sheet(api, campaign, "mary")["coins"]
    posted(api, campaign, event("item.lost", pirate_id="mary", item="Rope", haggled=True, value=10))
    assert sheet(api, campaign, "mary")["coins"] == coins + 5


def test_given_a_legendary_item_when_it_is_haggled_then_it_is_refused_as_no_gear_card(api):
    campaign = _in_port(api, event("item.gained", pirate_id="mary", item="Jones' Compass", kind="legendary", value=50))

    detail = refused(api, campaign, event("item.lost", pirate_id="mary", item="Jones' Compass", haggled=True))

    assert "it is a Legendary item, not a Gear card" in detail


# -- Storytelling (Book II: Locations, Tavern: "make a Charisma 6 roll. If you succeed, you gain Fame equal to the
# amount by which the roll was surpassed. You can spend up to 3 Coins before rolling to add +1 ...") --------------


def test_given_a_pirate_at_the_tavern_when_a_story_is_told_then_the_fold_computes_the_fame_from_the_roll(api):
    campaign = _in_port(api)
    before = sheet(api, campaign, "mary")

    # Mary's Charisma 3, a die of 4 and 3 Coins spent: a final result of 10 surpasses 6 by 4.
    posted(api, campaign, event("story.told", pirate_id="mary", roll=4, coins=3))

    after = sheet(api, campaign, "mary")
    assert after["fame"] == before["fame"] + 4
    assert after["coins"] == before["coins"] - 3
    assert after["time_units"] == before["time_units"] - 2


def test_given_the_default_options_when_a_story_only_equals_6_then_it_gains_no_fame_but_costs_its_time(api):
    campaign = _in_port(api)
    before = sheet(api, campaign, "mary")

    posted(api, campaign, event("story.told", pirate_id="mary", roll=3))

    after = sheet(api, campaign, "mary")
    assert (after["fame"], after["time_units"]) == (before["fame"], before["time_units"] - 2)


def test_given_a_story_when_more_than_3_coins_are_spent_on_it_then_it_is_refused(api):
    campaign = _in_port(api)

    detail = refused(api, campaign, event("story.told", pirate_id="mary", roll=3, coins=4))

    assert "Mary can spend up to 3 Coins on a story, +1 to the roll each, not 4." in detail


# -- a chapter that opens at sea (Book III: Important Concepts, The Southern Lady) ----------------------------------


def test_given_a_first_chapter_that_opens_at_sea_then_the_crew_sails_the_southern_lady(api):
    campaign = api.new_campaign(GAME, options={"chapter_one_phases": ["voyage", "adventure"]})
    posted(api, campaign, *CREW, event("chapter.started", number=1), event("phase.started", phase="voyage"))

    posted(
        api, campaign, event("goods.spent", goods="Supplies", purpose="a Voyage Day"), event("ship.damaged", sails=1)
    )

    ship = read(api, campaign, "ship")["ship"]
    assert (ship["name"], ship["type"], ship["cannons"]) == ("The Southern Lady", "Brigantine", 3)
    assert ship["sails_damaged"] == 1
    assert ship["goods"] == {"Rum": 2, "Supplies": 2}


# -- the Surrender wipe (Book III: End of the Voyage Phase, Surrender) -----------------------------------------------


def _surrendered(api, options: dict[str, Any]):
    campaign = _at_sea(
        api,
        event("item.gained", pirate_id="mary", item="Cutlass", value=20),
        event("coins.given", from_pirate="mary", to="crew_booty", amount=20),
        event("crew.surrendered", cause="surrendered"),
        options={**OPTIONS, **options},
    )
    return campaign


def test_given_the_default_options_when_the_crew_surrenders_then_goods_and_ship_stay_and_the_rest_is_lost(api):
    campaign = _surrendered(api, {})

    mary = sheet(api, campaign, "mary")
    assert (mary["coins"], mary["items"]) == (0, [])
    ship = read(api, campaign, "ship")
    assert ship["crew_booty"] == 0
    assert ship["ship"]["name"] == "The Southern Lady" and ship["ship"]["goods"] == {"Rum": 2, "Supplies": 3}


def test_given_surrender_goods_lost_when_the_crew_surrenders_then_the_hold_is_emptied(api):
    campaign = _surrendered(api, {"surrender_goods": "lost"})

    ship = read(api, campaign, "ship")["ship"]
    assert ship["goods"] == {} and ship["cannons"] == 3


def test_given_surrender_ship_lost_when_the_crew_surrenders_then_no_voyage_starts_until_a_ship_is_bought(api):
    campaign = _surrendered(api, {"surrender_ship": "lost"})
    assert read(api, campaign, "ship")["ship"] is None
    posted(
        api,
        campaign,
        event("phase.ended", phase="voyage", outcome="failure"),
        event("chapter.ended", number=2),
        event("chapter.started", number=3, phases=["voyage"]),
    )

    detail = refused(api, campaign, event("phase.started", phase="voyage"))

    assert "The crew has no ship to sail: the Captain buys one at the Docks first." in detail


# -- Solo Mode's Ally Scheme (Book III: Voyage Phase Sequence, Crew Round: "In Solo Mode, Allies can also 'Scheme'") -

WITCH = {"ally_id": "witch", "archetype": "Witch", "charisma": 3, "salary": 0, "fame_cost": 0}


def _solo_at_sea(api, options: dict[str, Any] | None = None):
    """Anne sails alone as Captain with the Cook and the Witch, 100 Coins in the Crew's Booty.

    The Lone Pirate is Captain from the start and draws 3 random Allies (Book I: Game Modes, Lone Pirates); she keeps
    the two she pays for in the Port, and the Gunner goes back to the bag."""
    campaign = api.new_campaign(GAME, options={"solo": True, **(options or {})})
    gunner = {"ally_id": "gunner", "archetype": "Gunner", "charisma": 2, "salary": 10, "fame_cost": 5}
    posted(
        api,
        campaign,
        CREW[0],
        *(event("ally.drawn", pirate_id="anne", **ally) for ally in (COOK, WITCH, gunner)),
        event("chapter.started", number=1),
        event("phase.started", phase="adventure"),
        event("fame.changed", pirate_id="anne", amount=20, source="goal"),
        event("phase.ended", phase="adventure", outcome="success", degrees={"anne": "total_success"}),
        event("chapter.ended", number=1),
        event("chapter.started", number=2, phases=["port", "voyage"]),
        event("phase.started", phase="port"),
        event("salary.collected", pirate_id="anne"),
        event("ally.upkeep_paid", ally_id="cook"),
        event("ally.upkeep_paid", ally_id="witch"),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
    )
    return campaign


def test_given_solo_mode_when_an_unguarded_ally_schemes_then_it_takes_its_charisma_in_coins_and_trust(api):
    campaign = _solo_at_sea(api)

    posted(api, campaign, event("ally_scheme.resolved", ally_id="cook", supplies=True))

    ship = read(api, campaign, "ship")
    assert ship["crew_booty"] == 98 and ship["trust"] == {"cook": 2}
    assert ship["ship"]["goods"] == {"Rum": 2, "Supplies": 2}


def test_given_solo_mode_when_the_captain_wins_the_charisma_roll_then_the_ally_loses_5_trust_and_schemes_no_more(api):
    campaign = _solo_at_sea(api)
    posted(api, campaign, event("trust.changed", character_id="cook", amount=7, reason="Helm"))

    # The Cook's Charisma 2 and a die of 2 against Anne's Charisma 4 and a die of 5.
    posted(api, campaign, event("ally_scheme.resolved", ally_id="cook", guard="anne", ally_roll=2, guard_roll=5))

    assert read(api, campaign, "ship")["trust"] == {"cook": 2}
    detail = refused(api, campaign, event("ally_scheme.resolved", ally_id="cook"))
    assert "The Cook was caught scheming and cannot Scheme again this Voyage Phase." in detail


def test_given_a_guarding_ally_when_the_guard_side_wins_then_the_guarding_ally_gains_1_trust(api):
    campaign = _solo_at_sea(api, {"solo_scheme_guard_charisma": "guard"})

    # The Cook's 2 + 3 against the Witch's own Charisma 3 + 4.
    posted(api, campaign, event("ally_scheme.resolved", ally_id="cook", guard="witch", ally_roll=3, guard_roll=4))

    assert read(api, campaign, "ship")["trust"] == {"witch": 1, "cook": 0}


def test_given_a_tied_ally_scheme_then_nothing_happens(api):
    campaign = _solo_at_sea(api)

    # The Cook's 2 + 6 against Anne's 4 + 4.
    posted(api, campaign, event("ally_scheme.resolved", ally_id="cook", guard="group", ally_roll=6, guard_roll=4))

    ship = read(api, campaign, "ship")
    assert (ship["crew_booty"], ship["trust"]) == (100, {})


def test_given_a_crew_of_pirates_when_an_ally_schemes_then_it_is_refused(api):
    campaign = _at_sea(api)

    detail = refused(api, campaign, event("ally_scheme.resolved", ally_id="cook"))

    assert "Allies scheme only in Solo Mode" in detail


# -- out of the «Sickbay» (Book III: Voyage Phase, Voyage Posts/Stations, Sickbay; Crew Round, Assist) ---------------


def test_given_a_pirate_in_the_sickbay_when_their_intelligence_roll_succeeds_then_they_leave_with_one_wound_less(api):
    campaign = _at_sea(api, event("pirate.unconscious", pirate_id="mary"))

    posted(api, campaign, event("pirate.revived", pirate_id="mary", single_wound=True))

    mary = sheet(api, campaign, "mary")
    assert (mary["status"], mary["wounds"]) == ("active", mary["health"] - 1)


def test_given_a_pirate_in_the_sickbay_when_another_assists_them_then_the_assistant_gains_1_trust_point(api):
    campaign = _at_sea(api, event("pirate.unconscious", pirate_id="mary"))
    destiny = sheet(api, campaign, "jack")["destiny_points"]

    posted(api, campaign, event("pirate.revived", pirate_id="mary", reviver_id="jack"))

    assert sheet(api, campaign, "mary")["wounds"] == 0
    assert read(api, campaign, "ship")["trust"] == {"jack": 1}
    assert sheet(api, campaign, "jack")["destiny_points"] == destiny
