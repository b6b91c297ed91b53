"""Every event type is described once, on its class: what happened, each field, examples the fold accepts."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from quartermaster.events.base import summary
from quartermaster.events.campaign import CampaignStarted
from quartermaster.projections.game import Meta, Rejection, step
from quartermaster.projections.registry import GAME_IDS, event_types, game
from quartermaster.service.application import catalog
from quartermaster.service.http.reference import data_schema
from quartermaster.service.http.requests import unknown_fields
from tests.unit.pacg import example_of_play
from tests.unit.skull_tales import chapter_one

ALL = [(game_id, tag) for game_id in GAME_IDS for tag in event_types(game_id)]


def decoded(game_id: str, tag: str, data: dict[str, Any]) -> Any:
    """The example as intake reads it: catalogue names expanded, no unknown field, strictly typed."""
    expanded = catalog.expand(game_id, tag, data)
    assert unknown_fields(event_types(game_id)[tag], expanded) == []
    return msgspec.convert({**expanded, "type": tag}, event_types(game_id)[tag], strict=True)


def states(game_id: str, payloads: list[dict[str, Any]], options: dict[str, Any], scenes=()) -> list[Any]:
    """The state before every event of a worked example and after its last, then along each scene played on from
    its end (a scene is what a table might do next: a character dies, a scenario is won)."""
    chosen = game(game_id)
    state = step(chosen, None, CampaignStarted(name="t", game=game_id, options=options), Meta(1))
    seen = [state]
    for position, payload in enumerate(payloads, start=2):
        state = step(chosen, state, decoded(game_id, payload["type"], payload["data"]), Meta(position))
        seen.append(state)
    end = state
    for scene in scenes:
        state = end
        for position, payload in enumerate(scene, start=len(payloads) + 2):
            state = step(chosen, state, decoded(game_id, payload["type"], payload["data"]), Meta(position))
            seen.append(state)
    return seen


def _event(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "data": data}


# Lirianne's cards at the end of the worked example's scenario, every copy: the list written down as she is set aside.
LIRIANNE_AT_THE_END = [
    *["Blessing of the Gods"] * 4,
    "Buckler",
    "Carver",
    "Cat-o'-Nine-Tails",
    "Dagger",
    "Leather Armor",
    "Light Crossbow",
    "Lookout",
    "Master Gunner",
    "Pistol",
    "Pistol",
    "Potion of Glibness",
    "Powder Horn",
    "Rum Bottle",
    "Speed",
]
PACG_SCENES = [
    [
        _event("scenario.ended", result="won"),
        _event("character.set_aside", character_id="lirianne", cards=LIRIANNE_AT_THE_END),
    ],
    [_event("character.died", character_id="seltyiel")],
    [_event("hero_point.awarded", character_id="alahazra")],
    # Lirianne, commanding, meets an enemy ship: evaded or defeated, and a defeated Wormwood seized by a card.
    [_event("ship.encountered", ship="Shackles Pirate Ship", character_id="lirianne")],
    [_event("ship.encountered", ship="Wormwood", character_id="lirianne"), _event("ship.defeated", ship="Wormwood")],
    [
        _event("scenario.ended", result="won"),
        _event("character.joined", character_id="merisiel", player="Mira"),
        # The catalogue has no feat boxes for Lirianne; the table completes her card from the card in hand.
        _event(
            "character.card_completed",
            character_id="lirianne",
            card={"skills": {"Dexterity": {"die": "d8", "feats": ["+1", "+2", "+3"]}}},
        ),
    ],
]
TALES_SCENES = [
    [_event("ally.hired", pirate_id="anne", ally_id="bosun", archetype="Bosun", charisma=2, salary=10, fame_cost=5)],
    [_event("item.gained", pirate_id="anne", item="Cutlass", value=20)],
    [_event("curse.gained", pirate_id="mary")],
    [_event("loan.taken", pirate_id="mary", amount=20, lender="market"), _event("manor.entered", pirate_id="mary")],
]

WORKED = {
    "pacg-skull-and-shackles": lambda: states(
        "pacg-skull-and-shackles", example_of_play.PAYLOADS, example_of_play.OPTIONS, PACG_SCENES
    ),
    "skull-tales-full-sail": lambda: states(
        "skull-tales-full-sail", chapter_one.CAMPAIGN, chapter_one.OPTIONS, TALES_SCENES
    ),
}
_STATES: dict[str, list[Any]] = {}


def worked_states(game_id: str) -> list[Any]:
    if game_id not in _STATES:
        _STATES[game_id] = WORKED[game_id]()
    return _STATES[game_id]


@pytest.mark.parametrize(("game_id", "tag"), ALL, ids=[f"{g}:{t}" for g, t in ALL])
def test_every_event_type_says_what_happened_and_documents_every_field(game_id, tag):
    event_type = event_types(game_id)[tag]
    assert summary(event_type), f"{tag} has no docstring of its own"
    schema = data_schema(event_type)
    for name, field in schema["properties"].items():
        described = "description" in field or any("description" in branch for branch in field.get("anyOf", ()))
        assert described, f"{tag}: the field `{name}` has no description"


def accepted(game_id: str, tag: str) -> bool:
    """Whether some example of the type is accepted by the fold in a state of the worked example or its scenes."""
    chosen = game(game_id)
    for example in event_types(game_id)[tag].EXAMPLES:
        event = decoded(game_id, tag, example)
        for state in worked_states(game_id):
            try:
                step(chosen, state, event, Meta(10_000))
                return True
            except Rejection:
                continue
    return False


@pytest.mark.parametrize(("game_id", "tag"), ALL, ids=[f"{g}:{t}" for g, t in ALL])
def test_every_example_is_read_as_intake_reads_it(game_id, tag):
    event_type = event_types(game_id)[tag]
    assert event_type.EXAMPLES, f"{tag} has no example"
    for example in event_type.EXAMPLES:
        decoded(game_id, tag, example)


# Types whose examples need a state neither worked example nor its scenes reaches yet (a later Port's setup, a
# Voyage with a Cursed crew, the third adventure's reward): here their examples are only checked to decode (some are
# folded in states of their own elsewhere, as tests/unit/skull_tales/test_examples.py does for trade.made). The test
# below fails when one of them becomes accepted, so this list only shrinks.
NOT_YET_SHOWN = {
    "pacg-skull-and-shackles": {"role.chosen", "loot.awarded"},
    "skull-tales-full-sail": {
        "feat.gained",
        "ally.died",
        "ally.upkeep_paid",
        "ally.loyalty_rolled",
        "curse.removed",
        "assignment.resolved",
        "ally_mutiny.resolved",
        "ship.bought",
        "ship.repaired",
        "upgrade.used",
        "booty.recovered",
        "rumor.resolved",
        "purge.used",
        "ally_scheme.resolved",
        "trade.made",
        "ally.drawn",
    },
}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_example_is_accepted_by_the_fold_in_a_state_of_the_worked_example(game_id):
    refused = {
        tag
        for tag, event_type in event_types(game_id).items()
        if not event_type.WRITTEN_BY and not accepted(game_id, tag)
    }
    assert refused == NOT_YET_SHOWN[game_id]


@pytest.mark.parametrize(("game_id", "tag"), ALL)
def test_an_events_stored_data_is_its_fields_without_its_type(game_id, tag):
    from quartermaster.service.http.intake import encode_data

    for example in event_types(game_id)[tag].EXAMPLES:
        event = decoded(game_id, tag, example)
        fields = msgspec.to_builtins(event)
        assert fields.pop("type") == tag
        assert encode_data(event) == msgspec.json.encode(fields)
