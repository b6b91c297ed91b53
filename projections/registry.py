"""The games this service knows, by id."""

from __future__ import annotations

import importlib
from functools import cache

import msgspec

from events.base import Event
from projections.game import Game

# Each module exposes `GAME`. Imported on first use so a process pays only for the games it serves.
_MODULES = {
    "pacg-skull-and-shackles": "projections.pacg",
    "skull-tales-full-sail": "projections.skull_tales",
}

GAME_IDS = tuple(_MODULES)


class UnknownGame(LookupError):
    pass


@cache
def game(game_id: str) -> Game:
    """The game with this id, or UnknownGame naming the ones there are."""
    try:
        module = _MODULES[game_id]
    except KeyError:
        known = ", ".join(GAME_IDS)
        raise UnknownGame(f"Quartermaster does not know the game {game_id!r}; it knows {known}.") from None
    return importlib.import_module(module).GAME


@cache
def event_types(game_id: str) -> dict[str, type]:
    """Every event type a campaign of this game may record, by its tag."""
    from events.base import tag_of
    from events.campaign import COMMON

    return {tag_of(t): t for t in (*COMMON, *game(game_id).event_types)}


@cache
def _decoder(event_type: type) -> msgspec.json.Decoder:
    return msgspec.json.Decoder(event_type)


def decode_event(game_id: str, type_: str, data: bytes | str) -> Event:
    """A recorded event from its type column and its data (stored without the type)."""
    return _decoder(event_types(game_id)[type_]).decode(data)
