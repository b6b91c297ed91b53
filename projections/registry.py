"""The games this service knows, by id."""

from __future__ import annotations

import importlib
from functools import cache

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
