"""Catalogues: data files made from the rulebooks, and the expansion of catalogue names into self-contained events.

A recorded event never depends on catalogue files that may change, so that replaying a campaign years later folds the
same facts. When a client names a thing by catalogue key ("Merisiel joins", "add product B to the vault"), the game's
catalogue module fills in the facts before the event is folded and recorded.

Each game has a module here exposing:

- `load() -> Catalog`: the game's catalogue read from `service/application/catalog/<game-id>/` (with `read`; cached
  by the caller);
- `expand(catalog, event_type, data, overridden=False) -> data`: the event's data with catalogue names expanded, or
  `CatalogError` with a sentence naming what is unknown or what was sent against the catalogue (kept as sent when
  the event is `overridden`); data that is already self-contained comes back unchanged;
- `public(catalog) -> object`: what `GET /v1/catalog/{game}` answers;
- `FILLED`: for each event type it expands, the fields of its data the catalogue determines, which a client may
  leave out (the OpenAPI document does not require them) and, when sent, must agree with the catalogue.
"""

from __future__ import annotations

import difflib
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any, Protocol, cast

from quartermaster.projections.registry import module_name

# A game's catalogue: each data file by name, as its JSON reads, and under "by" an index per kind of thing (the
# rows a catalogue name is looked up among, by that name).
Catalog = dict[str, Any]


class CatalogError(ValueError):
    """A catalogue name the service cannot expand; the message says which and why."""


class GameCatalog(Protocol):
    """What a game's catalogue module exposes (the list above)."""

    def load(self) -> Catalog: ...

    def expand(
        self, catalog: Catalog, event_type: str, data: dict[str, Any], overridden: bool = False
    ) -> dict[str, Any]: ...

    def public(self, catalog: Catalog) -> dict[str, Any]: ...


@cache
def _module(game_id: str) -> GameCatalog:
    # A game's catalogue module has the name of its projections module (projections.registry); imported by name so
    # a process loads only the games it serves, which leaves the checker a plain ModuleType to be told about.
    return cast(GameCatalog, importlib.import_module(f"{__name__}.{module_name(game_id)}"))


def read(folder: Path, files: Sequence[str], indexes: Mapping[str, tuple[str, str, str]]) -> Catalog:
    """Every data file of a catalogue folder by name, with "by": for each kind in `indexes`, `(file, list, key)`:
    the rows of that list of that file by their `key`."""
    found: Catalog = {name: json.loads((folder / f"{name}.json").read_text("utf-8")) for name in files}
    found["by"] = {kind: {row[key]: row for row in found[file][rows]} for kind, (file, rows, key) in indexes.items()}
    return found


def find(catalog: Catalog, kind: str, name: Any, words: str, *, whose: str, fold_case: bool = False) -> dict[str, Any]:
    """The row of that kind called `name` (also by its lower case with `fold_case`), or a CatalogError saying that
    `whose` ("Skull Tales") has no `words` ("skill") called that, with the closest names."""
    table = catalog["by"][kind]
    found: dict[str, Any] | None = table.get(name)
    if found is None and fold_case:
        found = table.get(name.lower())
    if found is not None:
        return found
    close = difflib.get_close_matches(str(name), [str(k) for k in table], n=3)
    hint = f" Did you mean {' or '.join(close)}?" if close else ""
    raise CatalogError(f"{whose} has no {words} called {name!r}.{hint}")


@cache
def catalog(game_id: str) -> Catalog:
    """The loaded catalogue of a game, read once per process."""
    return _module(game_id).load()


def expand(game_id: str, event_type: str, data: dict[str, Any]) -> dict[str, Any]:
    """The event's data with every catalogue name expanded into facts."""
    return _module(game_id).expand(catalog(game_id), event_type, data)


@cache
def expander(game_id: str) -> Callable[[str, dict[str, Any], bool], dict[str, Any]]:
    """`expand` for one game, its module and catalogue looked up once (a batch expands every event)."""
    return partial(_module(game_id).expand, catalog(game_id))


def filled(game_id: str) -> Mapping[str, frozenset[str]]:
    """The fields of each event type's data that the game's catalogue fills in (its module's `FILLED`)."""
    found: Mapping[str, frozenset[str]] = getattr(_module(game_id), "FILLED", {})
    return found


def public(game_id: str) -> dict[str, Any]:
    """The catalogue as `GET /v1/catalog/{game}` shows it."""
    return _module(game_id).public(catalog(game_id))
