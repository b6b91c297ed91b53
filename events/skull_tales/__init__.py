"""Skull Tales: Full Sail! events: what happens to the pirates, their ship and their booty.

Events that name a catalogue thing (a skill, a feat, a ship type, an upgrade, a goods type, an injury roll, an
archetype) carry the facts the fold needs, filled in by `service/application/catalog/skull_tales.py` before recording, so a
recorded campaign replays without the catalogue. Each docstring names the rulebook section it follows.

Each part of the game has a module of its own below, as the fold in projections/skull_tales/ has, listing its names
in `__all__`; every one is importable from here.
"""

from __future__ import annotations

from quartermaster.events.skull_tales import (
    allies,
    booty,
    captaincy,
    cards,
    chapters,
    injuries,
    pirates,
    port,
    ship,
    skills,
    voyage,
)
from quartermaster.events.skull_tales.allies import *
from quartermaster.events.skull_tales.booty import *
from quartermaster.events.skull_tales.captaincy import *
from quartermaster.events.skull_tales.cards import *
from quartermaster.events.skull_tales.chapters import *
from quartermaster.events.skull_tales.injuries import *
from quartermaster.events.skull_tales.pirates import *
from quartermaster.events.skull_tales.port import *
from quartermaster.events.skull_tales.ship import *
from quartermaster.events.skull_tales.skills import *
from quartermaster.events.skull_tales.voyage import *

__all__ = [
    *allies.__all__,
    *booty.__all__,
    *captaincy.__all__,
    *cards.__all__,
    *chapters.__all__,
    *injuries.__all__,
    *pirates.__all__,
    *port.__all__,
    *ship.__all__,
    *skills.__all__,
    *voyage.__all__,
]
