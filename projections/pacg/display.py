"""What the table display shows of a Skull & Shackles game: whose turn, the locations and their cards left, the
blessings left. Read from the scenario and turn views, so the shared screen and the phones never disagree."""

from __future__ import annotations

from typing import Any

from quartermaster.projections.pacg.play import turn_view
from quartermaster.projections.pacg.scenario import view as scenario_view
from quartermaster.projections.pacg.state import State


def display(state: State) -> dict[str, Any]:
    """The shared screen's part of the game.

    Shape: `{"scenario": name | null, "adventure": name | null, "turn": {number, character, location, step} | null,
    "next": [names of who may take the next turn, when no turn is in progress], "blessings": {name, left} | null
    (`name`: the hourglass or the blessings deck, as the campaign names it), "locations": [{name, status ("open",
    "closed", "temporarily closed"), cards (left in its deck), characters: [names]}], "ended": the sentence of the
    latest scenario's loss | null, "completed": [scenario names won]}`.
    """
    scenario = scenario_view(state)
    if not scenario["in_progress"]:
        return {
            "scenario": None,
            "adventure": scenario["adventure"],
            "turn": None,
            "next": [],
            "blessings": None,
            "locations": [],
            "ended": scenario["lost"],
            "completed": scenario["completed"],
        }
    turn = turn_view(state)
    who = turn["character"]
    hourglass = scenario["hourglass"]
    return {
        "scenario": scenario["name"],
        "adventure": scenario["adventure"],
        "turn": None
        if who is None
        else {
            "number": turn["turn"],
            "character": who["name"],
            "location": turn["location"],
            "step": turn["step_name"],
        },
        "next": [n["name"] for n in turn["next"]] if who is None else [],
        "blessings": {"name": hourglass["name"], "left": hourglass["left"]},
        "locations": [
            {
                "name": place["name"],
                "status": place["status"],
                "cards": place["cards"],
                "characters": [state.characters[cid].name for cid in place["characters"]],
            }
            for place in scenario["locations"]
        ],
        "ended": None,
        "completed": list(state.completed),
    }
