"""The examples each new or changed Skull Tales event type documents are accepted by the fold in a realistic state."""

from __future__ import annotations

from quartermaster.events import skull_tales as ev
from quartermaster.events.base import tag_of
from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, SOLO_ALLIES, event
from tests.unit.skull_tales.table import given, when

# In the order the examples build on one another: items gained, then lost or sold, then a trade and a story.
DOCUMENTED = (ev.ItemGained, ev.ItemLost, ev.TradeMade, ev.StoryTold)


def test_every_documented_example_is_accepted_in_a_port_of_the_worked_campaign():
    state = given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        event("goods.gained", goods="Sugar", quantity=1, source="plunder"),
        options=OPTIONS,
    )
    for event_type in DOCUMENTED:
        assert event_type.EXAMPLES, f"{event_type.__name__} documents no example"
        for data in event_type.EXAMPLES:
            state = when(state, event(tag_of(event_type), **data))
    assert state.ship is not None and state.ship.goods == {"Supplies": 3, "Wood": 1}


def test_the_ally_scheme_examples_are_accepted_at_sea_in_solo_mode():
    state = given(
        CREW[0],
        *SOLO_ALLIES[:2],
        event("ally.drawn", pirate_id="anne", ally_id="cook", archetype="Cook", charisma=2, salary=10, fame_cost=5),
        event("chapter.started", number=1),
        event("phase.started", phase="adventure"),
        event("fame.changed", pirate_id="anne", amount=20, source="goal"),
        event("phase.ended", phase="adventure", outcome="success", degrees={"anne": "total_success"}),
        event("chapter.ended", number=1),
        event("chapter.started", number=2, phases=["port", "voyage"]),
        event("phase.started", phase="port"),
        event("salary.collected", pirate_id="anne"),
        event("ally.upkeep_paid", ally_id="cook"),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        options={"solo": True},
    )
    for data in ev.AllySchemeResolved.EXAMPLES:
        state = when(state, event(tag_of(ev.AllySchemeResolved), **data))
    assert state.caught_scheming == ["cook"]
