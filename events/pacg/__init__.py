"""Events of the Pathfinder Adventure Card Game: Skull & Shackles (game id `pacg-skull-and-shackles`).

Every event is self-contained: a character joins with the facts of her character card, a
product arrives in the vault with its card list, a scenario starts with its locations and their deck lists. The
service fills these in from the catalogue before recording; the fold never reads the catalogue.

Each part of the game has a module of its own below, listing its names in `__all__`; every one is importable from
here.
"""

from __future__ import annotations

from quartermaster.events.pacg import aside, cards, characters, recorded, rewards, scenarios, ships
from quartermaster.events.pacg.aside import *
from quartermaster.events.pacg.cards import *
from quartermaster.events.pacg.characters import *
from quartermaster.events.pacg.recorded import *
from quartermaster.events.pacg.rewards import *
from quartermaster.events.pacg.scenarios import *
from quartermaster.events.pacg.ships import *

__all__ = [
    *aside.__all__,
    *cards.__all__,
    *characters.__all__,
    *recorded.__all__,
    *rewards.__all__,
    *scenarios.__all__,
    *ships.__all__,
]
