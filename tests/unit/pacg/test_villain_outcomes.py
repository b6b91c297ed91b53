"""The villain's encounter in the turn view: each way it may end is one batch the fold accepts, from the check to the
villain's escape or the party's win, and the locations others may close for the encounter are offered.

Skull & Shackles Rulebook, Encountering a Villain (Attempt to Temporarily Close Open Locations; the villain defeated,
undefeated or evaded; escape); After the Scenario.
"""

from __future__ import annotations

from typing import Any

from quartermaster.projections.game import Meta, step
from quartermaster.projections.pacg import GAME
from quartermaster.projections.pacg.play import turn_view
from tests.unit.pacg.pacg_world import SCENARIO, SETUP, fold, from_payload, move, zone


def ev(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "data": data}


def _meeting_the_villain() -> Any:
    """Merisiel at Shark Island, Valeros at Tempest Cay; Merisiel explores and meets Jemma Redclaw."""
    return fold(
        *SETUP,
        SCENARIO,
        ev("plunder.stashed", roll=1),
        ev("character.moved", character_id="merisiel", to="Shark Island"),
        ev("character.moved", character_id="valeros", to="Tempest Cay"),
        ev("hourglass.advanced", character_id="merisiel"),
        _explore("Jemma Redclaw"),
    )


def _explore(name: str) -> dict[str, Any]:
    found = move(name, "reveal", zone("location", location="Shark Island"), zone("encounter"))
    found["data"]["explorer"] = "merisiel"
    return found


def _check(success: bool) -> dict[str, Any]:
    face = 9 if success else 1
    return ev(
        "dice.rolled",
        character_id="merisiel",
        purpose="check",
        dice=[{"sides": 12, "face": face}],
        total=face,
        difficulty=5,
    )


def _apply(state: Any, events: list[dict[str, Any]]) -> Any:
    for index, item in enumerate(events):
        state = step(GAME, state, from_payload(item), Meta(900 + index))
    return state


def _outcomes(state: Any) -> dict[str, list[dict[str, Any]]]:
    return {o["outcome"]: o["events"] for o in turn_view(state)["encounter"]["outcomes"]}


def test_a_defeated_villain_with_another_open_location_is_closed_in_and_escapes_there_in_one_batch():
    state = fold(_check(True), state=_meeting_the_villain())
    allowed = _outcomes(state)
    assert list(allowed) == ["defeated"]
    assert [e["type"] for e in allowed["defeated"]] == ["encounter.ended", "location.closed", "villain.escaped"]
    assert allowed["defeated"][-1]["data"] == {"villain": "Jemma Redclaw", "to": ["Tempest Cay"], "defeated": True}
    after = _apply(state, allowed["defeated"])
    assert turn_view(after)["encounter"] is None
    assert after.scenario.places["Shark Island"].closed


def test_with_the_other_location_closed_for_the_encounter_the_villains_defeat_wins_the_scenario():
    state = _meeting_the_villain()
    close = next(o for o in turn_view(state)["offered"] if o["action"] == "close")
    assert close["needs"]["locations"] == [{"location": "Tempest Cay", "how": None, "temporary": True}]
    state = fold(ev("location.closed", location="Tempest Cay", temporary=True), _check(True), state=state)
    allowed = _outcomes(state)
    assert [e["type"] for e in allowed["defeated"]] == [
        "encounter.ended",
        "location.closed",
        "card.moved",
        "scenario.ended",
    ]
    after = _apply(state, allowed["defeated"])
    assert after.scenario is None and "Island Hopping" in after.completed


def test_an_undefeated_villain_escapes_into_every_open_location_and_a_logged_end_offers_only_what_follows():
    state = fold(_check(False), state=_meeting_the_villain())
    allowed = _outcomes(state)
    assert list(allowed) == ["undefeated"]
    assert allowed["undefeated"][-1]["data"] == {
        "villain": "Jemma Redclaw",
        "to": ["Shark Island", "Tempest Cay"],
        "defeated": False,
    }
    assert turn_view(_apply(state, allowed["undefeated"]))["encounter"] is None
    # The encounter's end logged on its own (an older page, the generic form): only the escape is left to offer.
    ended = fold(ev("encounter.ended", card="Jemma Redclaw", outcome="undefeated"), state=state)
    follow = _outcomes(ended)
    assert [e["type"] for e in follow["undefeated"]] == ["villain.escaped"]
    assert turn_view(_apply(ended, follow["undefeated"]))["encounter"] is None
