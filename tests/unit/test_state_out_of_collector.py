"""Every game's state types, and the events' Structs a state keeps (the cards recorded), are kept out of the garbage
collector's sight (projections.game.StateStruct; msgspec's gc=False)."""

from __future__ import annotations

import gc
from typing import Any

import msgspec
import pytest

from quartermaster.projections.registry import GAME_IDS, game


def _structs(type_: Any) -> set[type[msgspec.Struct]]:
    """The Struct types a value of `type_` may hold, at any depth."""
    found: set[type[msgspec.Struct]] = set()
    todo = [msgspec.inspect.type_info(type_)]
    while todo:
        info = todo.pop()
        if isinstance(info, msgspec.inspect.Metadata):  # a field's Annotated type
            todo.append(info.type)
        elif isinstance(info, msgspec.inspect.StructType):
            if info.cls in found:
                continue
            found.add(info.cls)
            todo.extend(field.type for field in info.fields)
        elif isinstance(info, msgspec.inspect.UnionType):
            todo.extend(info.types)
        elif isinstance(info, msgspec.inspect.DictType):
            todo.extend((info.key_type, info.value_type))
        elif isinstance(info, msgspec.inspect.CollectionType):
            todo.append(info.item_type)
        elif isinstance(info, msgspec.inspect.TupleType):
            todo.extend(info.item_types)
    return found


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_state_type_of_the_game_is_untracked_by_the_collector(game_id: str) -> None:
    state_type = game(game_id).state_type
    own = {s for s in _structs(state_type) if s.__module__.startswith("quartermaster.")}
    assert state_type in own
    tracked = sorted(s.__qualname__ for s in own if s.__struct_config__.gc)
    assert tracked == [], f"types a state keeps tracked by the collector (StateStruct, or gc=False): {tracked}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_new_campaigns_state_and_its_decoded_copy_are_not_tracked(game_id: str) -> None:
    played = game(game_id)
    state = played.initial({})
    copy = msgspec.json.Decoder(played.state_type).decode(msgspec.json.encode(state))
    assert not gc.is_tracked(state)
    assert not gc.is_tracked(copy)
