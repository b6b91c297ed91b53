"""A projection is folded again when the code that folds it changes what it does, and only then."""

from __future__ import annotations

import pathlib

import quartermaster.events as events_package
import quartermaster.projections.timeline
from quartermaster.projections.registry import GAME_IDS, fingerprint, fold_sources, fold_version, module_name

TIMELINE = pathlib.Path(quartermaster.projections.timeline.__file__)


def edit(source: bytes, old: bytes, new: bytes) -> bytes:
    assert old in source, f"{old!r} is no longer in {TIMELINE.name}; pick another edit"
    return source.replace(old, new)


def version(source: bytes) -> str:
    return fingerprint([("projections/timeline.py", source)])


def test_comments_docstrings_and_wrapping_leave_the_fold_version_alone():
    source = TIMELINE.read_bytes()
    edited = edit(source, b"\ndef ", b"\n# A comment that says why, added later.\ndef ")
    edited = edit(edited, b'"""Which events count', b'"""Reworded: which events count')
    edited = edit(edited, b"MARKER_TYPES = (UNDONE, REDONE)", b"MARKER_TYPES = (\n    UNDONE,\n    REDONE,\n)  # both")
    assert version(edited) == version(source)


def test_a_rule_change_moves_the_fold_version():
    source = TIMELINE.read_bytes()
    # Redo markers no longer count as markers: the effective log, and so every state, would change.
    changed = edit(source, b"MARKER_TYPES = (UNDONE, REDONE)", b"MARKER_TYPES = (UNDONE,)")
    assert version(changed) != version(source)


def test_each_game_has_its_own_fold_version():
    versions = {game_id: fold_version(game_id) for game_id in GAME_IDS}
    assert len(set(versions.values())) == len(GAME_IDS)
    assert all(len(v) == 16 and int(v, 16) >= 0 for v in versions.values())


def test_every_module_of_a_games_events_package_is_in_its_fold_version():
    # A game's events are a package of modules (events/skull_tales/ship.py, events/pacg/cards.py): an edit to any one
    # of them, its __init__ included, must refold that game's campaigns, and not the other game's.
    events = pathlib.Path(events_package.__file__).parent
    for game_id in GAME_IDS:
        sources = fold_sources(game_id)
        for other in GAME_IDS:
            for module in sorted((events / module_name(other)).glob("*.py")):
                path = f"{module_name(other)}/{module.name}"
                assert ((path, module.read_bytes()) in sources) == (other == game_id), f"{path} in {game_id}'s fold"
