"""The games this service knows, by id."""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import pathlib
from collections.abc import Iterable
from functools import cache
from typing import Any

import msgspec

from quartermaster.events.base import Event, tag_of
from quartermaster.events.campaign import COMMON
from quartermaster.projections.game import Game

# The one registration of a game: its id and the module exposing its `GAME` (whose handler table registers its event
# types). Its catalogue is the module of the same name in the service's catalogue package. Imported on first use, so
# a process pays only for the games it serves.
_MODULES = {
    "pacg-skull-and-shackles": "quartermaster.projections.pacg",
    "skull-tales-full-sail": "quartermaster.projections.skull_tales",
}

GAME_IDS = tuple(_MODULES)


def module_name(game_id: str) -> str:
    """The name a game's modules share: `pacg` for projections.pacg, its catalogue ...application.catalog.pacg."""
    return _MODULES[game_id].rsplit(".", 1)[1]


class UnknownGame(LookupError):
    pass


@cache
def game(game_id: str) -> Game[Any]:
    """The game with this id, or UnknownGame naming the ones there are."""
    try:
        module = _MODULES[game_id]
    except KeyError:
        known = ", ".join(GAME_IDS)
        raise UnknownGame(f"Quartermaster does not know the game {game_id!r}; it knows {known}.") from None
    chosen: Game[Any] = importlib.import_module(module).GAME
    return chosen


@cache
def event_types(game_id: str) -> dict[str, type[Event]]:
    """Every event type a campaign of this game may record, by its tag."""
    types: tuple[type[Event], ...] = (*COMMON, *game(game_id).event_types)
    return {tag_of(t): t for t in types}


@cache
def _decoder(event_type: type[Event]) -> msgspec.json.Decoder[Event]:
    return msgspec.json.Decoder(event_type)


def decode_event(game_id: str, type_: str, data: bytes | str) -> Event:
    """A recorded event from its type column and its data (stored without the type)."""
    return _decoder(event_types(game_id)[type_]).decode(data)


@cache
def fold_version(game_id: str) -> str:
    """A fingerprint of the code that folds this game's events: its event types, its fold, the shared driver.

    Any change to what that code does may change the state it folds, so a projection stored under another
    fingerprint is folded again. Taken from the code itself, so nobody has to remember to bump a number; and from its
    syntax tree without docstrings, so that a comment, a docstring or a re-wrapped line refolds nothing.
    """
    return fingerprint(fold_sources(game_id))


def fold_sources(game_id: str) -> list[tuple[str, bytes]]:
    """The modules (path, source) whose code folds this game's events, in a stable order: every module of a package
    that holds an event type or the fold, so that a module added to one is fingerprinted without a line here."""
    chosen = game(game_id)
    modules = {
        "quartermaster.events.base",
        "quartermaster.events.campaign",
        "quartermaster.projections.game",
        "quartermaster.projections.timeline",
        # The package of each event type whole (quartermaster.events.pacg for its .cards), as for the fold.
        *(".".join(t.__module__.split(".")[:3]) for t in chosen.event_types),
        _MODULES[game_id],
    }
    sources: list[tuple[str, bytes]] = []
    for name in sorted(modules):
        source = pathlib.Path(inspect.getfile(importlib.import_module(name)))
        files = sorted(source.parent.rglob("*.py")) if source.name == "__init__.py" else [source]
        sources += [(path.relative_to(source.parent.parent).as_posix(), path.read_bytes()) for path in files]
    return sources


def fingerprint(sources: Iterable[tuple[str, bytes]]) -> str:
    """A hash of what these modules (path, source) do: each one's syntax tree, without docstrings or positions."""
    digest = hashlib.sha256()
    for path, source in sources:
        digest.update(path.encode())
        digest.update(_behaviour(source))
    return digest.hexdigest()[:16]


def _behaviour(source: bytes) -> bytes:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                node.body = node.body[1:] or [ast.Pass()]
    # Without line and column numbers: comments and layout leave no trace in the tree.
    return ast.dump(tree, include_attributes=False).encode()
