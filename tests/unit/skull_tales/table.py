"""Given/when/then over the Skull Tales fold: payloads expanded by the catalogue, as the service records them."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from quartermaster.events.base import Event
from quartermaster.events.campaign import COMMON
from quartermaster.projections.game import Meta, Rejection, fold, step
from quartermaster.projections.skull_tales import GAME
from quartermaster.projections.skull_tales.state import SkullTales
from quartermaster.service.application.catalog import skull_tales as catalogue
from tests.unit.skull_tales.chapter_one import CREW, OPTIONS, WITCH, event

CATALOG = catalogue.load()


_UNION: Any = COMMON[0]
for _event_type in COMMON[1:] + GAME.event_types:
    _UNION = _UNION | _event_type


def decode(payload: dict[str, Any]) -> Event:
    """A posted payload, expanded from the catalogue and decoded like the API does. A fact given against the
    catalogue (a Feat's `requires` emptied, to reach the rule a test is about) is kept as given, as the service keeps
    it under an override; the refusal of such a fact without one is tested in test_every_refusal.py."""
    data = catalogue.expand(CATALOG, payload["type"], dict(payload["data"]), overridden=True)
    return msgspec.convert({"type": payload["type"], **data}, _UNION)


def start(options: dict[str, Any] | None = None) -> SkullTales:
    started = {"type": "campaign.started", "data": {"name": "Test", "game": GAME.id, "options": options or {}}}
    state = step(GAME, None, decode(started), Meta(position=1))
    assert state is not None
    return state


def given(
    *payloads: dict[str, Any], options: dict[str, Any] | None = None, state: SkullTales | None = None
) -> SkullTales:
    """The state after these payloads, which must all be accepted."""
    state = state or start(options)
    first = len(state.ledger) + 2
    events = [(decode(p), Meta(position=first + i)) for i, p in enumerate(payloads)]
    result = fold(GAME, events, state)
    assert result is not None
    return result


def when(state: SkullTales, payload: dict[str, Any], position: int = 1000) -> SkullTales:
    result = step(GAME, state, decode(payload), Meta(position=position))
    assert result is not None
    return result


def refused(state: SkullTales, payload: dict[str, Any]) -> str:
    """The sentence the fold refuses this payload with."""
    with pytest.raises(Rejection) as caught:
        step(GAME, state, decode(payload), Meta(position=1000))
    return caught.value.reason


def view(state: SkullTales, name: str, **params: Any) -> Any:
    """A view as the API would encode it."""
    return msgspec.json.decode(msgspec.json.encode(GAME.views[name].read(state, **params)))


def at_sea(*extra, options=None):
    """Anne, Jack and Tia in a Voyage-only first chapter, Jack Cursed."""
    return given(
        *CREW[:2],
        WITCH,
        event("chapter.started", number=1, phases=["voyage"]),
        event("phase.started", phase="voyage"),
        event("curse.gained", pirate_id="jack"),
        *extra,
        options=options if options is not None else OPTIONS,
    )
