"""Catalogues: data files made from the rulebooks, and the expansion of catalogue names into self-contained events.

A recorded event never depends on catalogue files that may change, so that replaying a campaign years later folds the
same facts. When a client names a thing by catalogue key ("Merisiel joins", "add product B to the vault"), the game's
catalogue module fills in the facts before the event is folded and recorded.

Each game has a module here exposing:

- `load() -> Catalog`: the game's catalogue read from `service/catalog/<game-id>/` (cached by the caller);
- `expand(catalog, event_type, data) -> data`: the event's data with catalogue names expanded, or `CatalogError`
  with a sentence naming what is unknown; data that is already self-contained comes back unchanged;
- `public(catalog) -> object`: what `GET /v1/catalog/{game}` answers.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache, partial
from types import ModuleType
from typing import Any

from projections.registry import module_name


class CatalogError(ValueError):
    """A catalogue name the service cannot expand; the message says which and why."""


@cache
def _module(game_id: str) -> ModuleType:
    # A game's catalogue module has the name of its projections module (projections.registry).
    return importlib.import_module(f"service.catalog.{module_name(game_id)}")


@cache
def catalog(game_id: str) -> Any:
    """The loaded catalogue of a game, read once per process."""
    return _module(game_id).load()


def expand(game_id: str, event_type: str, data: dict[str, Any]) -> dict[str, Any]:
    """The event's data with every catalogue name expanded into facts."""
    return _module(game_id).expand(catalog(game_id), event_type, data)


@cache
def expander(game_id: str) -> Callable[[str, dict[str, Any]], dict[str, Any]]:
    """`expand` for one game, its module and catalogue looked up once (a batch expands every event)."""
    return partial(_module(game_id).expand, catalog(game_id))


def public(game_id: str) -> Any:
    """The catalogue as `GET /v1/catalog/{game}` shows it."""
    return _module(game_id).public(catalog(game_id))
