"""Skull Tales rules through the HTTP API: a rule of the game refused with its sentence and nothing written, an
integrity rule likewise, and effects the fold applies by itself read back from the views."""

from __future__ import annotations

from typing import Any

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, SOLO_ALLIES, event

GAME = "skull-tales-full-sail"
WITCH = {"ally_id": "witch", "archetype": "Witch", "charisma": 2, "salary": 0, "fame_cost": 0}


def posted(api, campaign, *events: dict[str, Any]) -> None:
    answer = api.append(campaign, list(events))
    assert answer.status_code == 201, answer.text


def refused_and_nothing_written(api, campaign, *events: dict[str, Any]) -> str:
    before = api.get(campaign, "").json()["position"]
    answer = api.append(campaign, list(events))
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert api.get(campaign, "").json()["position"] == before
    return answer.json()["errors"][0]["reason"]


def read(api, campaign, name: str, **params: Any) -> Any:
    answer = api.get(campaign, f"/views/{name}", **params)
    assert answer.status_code == 200, answer.text
    return answer.json()[name]


def test_given_solo_mode_with_four_allies_when_all_go_into_the_adventure_then_it_is_refused(api):
    campaign = api.new_campaign(GAME, options={"solo": True})
    posted(
        api,
        campaign,
        CREW[0],
        *SOLO_ALLIES,
        event("chapter.started", number=1, phases=["port", "adventure"]),
        event("phase.started", phase="port"),
        event("salary.collected", pirate_id="anne"),
        *(event("ally.upkeep_paid", ally_id=a["data"]["ally_id"]) for a in SOLO_ALLIES),
        event("ally.hired", pirate_id="anne", **WITCH),
        event("phase.ended", phase="port"),
    )

    reason = refused_and_nothing_written(api, campaign, event("phase.started", phase="adventure"))

    assert reason == (
        "In Solo Mode only 3 Allies go into the Adventure, and the Captain has 4: say which (allies) "
        "(Book II: Locations, Tavern). That is a rule of the game: the owner may log it anyway, with a reason."
    )
    posted(api, campaign, event("phase.started", phase="adventure", allies=["witch", "avenger", "freedman"]))
    going = {a["id"]: a["in_adventure"] for a in read(api, campaign, "ship")["allies"]}
    assert going == {"cabin_boy": False, "avenger": True, "freedman": True, "witch": True}


def test_given_a_crew_when_a_second_player_takes_the_same_character_then_it_is_refused(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    posted(api, campaign, *CREW)
    twin = {**CREW[1], "data": {**CREW[1]["data"], "pirate_id": "jim", "name": "Jim"}}

    reason = refused_and_nothing_written(api, campaign, twin)

    assert reason.startswith("Jim cannot be the Sea Dog: Jack already plays that Character Card")


def test_given_a_voyage_when_the_captain_spends_rum_then_every_pirate_recovers_a_destiny_point(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    posted(
        api,
        campaign,
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2, phases=["voyage"]),
        event("phase.started", phase="voyage"),
        event("destiny.changed", pirate_id="anne", amount=-2),
        event("destiny.changed", pirate_id="jack", amount=-2),
        event("morale.changed", amount=-8),
    )

    posted(api, campaign, event("goods.spent", goods="Rum", purpose="Morale", roll=5))

    sheets = {p["id"]: p["destiny_points"] for p in read(api, campaign, "pirates")}
    assert sheets == {"anne": 2, "jack": 1, "mary": 3}
    assert read(api, campaign, "ship")["morale"] == 17


def test_given_a_loan_when_part_of_it_is_repaid_then_it_is_refused(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    posted(
        api,
        campaign,
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        event("loan.taken", pirate_id="mary", amount=30, lender="market"),
    )

    reason = refused_and_nothing_written(api, campaign, event("loan.repaid", pirate_id="mary", amount=30))

    assert reason == (
        "Mary repays Monsieur Fontaine all that is owed at once, 36 Coins (6 for every 5 borrowed), not 30 "
        "(Book II: Locations, Madame Claude's Manor). That is a rule of the game: the owner may log it anyway, "
        "with a reason."
    )
    posted(api, campaign, event("manor.entered", pirate_id="mary"), event("loan.repaid", pirate_id="mary", amount=36))
    assert read(api, campaign, "pirate", pirate_id="mary")["loan_owed"] == 0
