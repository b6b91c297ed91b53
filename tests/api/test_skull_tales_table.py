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
    posted(api, campaign, *CREW, *CHAPTER_ONE,
           event("chapter.started", number=2, phases=["port", "adventure"]), event("phase.started", phase="port"),
           event("ally.hired", pirate_id="jack", **COOK), event("phase.ended", phase="port"),
           event("phase.started", phase="adventure"),
           event("coins.changed", ally_id="cook", amount=6, source="search_card"),
           event("ally.died", ally_id="cook"),
           event("phase.ended", phase="adventure", outcome="success",
                 degrees={"anne": "total_success", "jack": "total_success", "mary": "total_success"}),
           event("chapter.ended", number=2))
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
        ("ally:cook", "sink:ally_lost", 6)]


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
