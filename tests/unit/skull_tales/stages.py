"""Where a campaign stands when a test begins: the crew recruited, chapter 2's Port, its Voyage, its Adventure.

After chapter 1 (Anne 82 Fame 60 Coins, Captain; Jack 47/70; Mary 72/120), chapter 2 plays Port, Voyage and
Adventure. Shared by the test modules that start from these stages.
"""

from __future__ import annotations

from typing import Any

from quartermaster.projections.skull_tales.state import SkullTales
from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, event
from tests.unit.skull_tales.table import given


def crew(*extra: dict[str, Any], options: dict[str, Any] | None = None) -> SkullTales:
    """Anne, Jack and Mary recruited; no chapter yet."""
    return given(*CREW, *extra, options=options if options is not None else OPTIONS)


def in_port(*extra: dict[str, Any], options: dict[str, Any] | None = None) -> SkullTales:
    """After chapter 1 (Anne 82 Fame 60 Coins, Captain; Jack 47/70; Mary 72/120), chapter 2's Port phase."""
    return crew(
        *CHAPTER_ONE, event("chapter.started", number=2), event("phase.started", phase="port"), *extra, options=options
    )


def at_sea(*extra: dict[str, Any], options: dict[str, Any] | None = None) -> SkullTales:
    """Chapter 2's Voyage, straight after its Port phase."""
    return in_port(event("phase.ended", phase="port"), event("phase.started", phase="voyage"), *extra, options=options)


def adventuring(*extra: dict[str, Any], options: dict[str, Any] | None = None) -> SkullTales:
    """Chapter 2's Adventure, after its Port and Voyage."""
    return at_sea(
        event("phase.ended", phase="voyage"), event("phase.started", phase="adventure"), *extra, options=options
    )
