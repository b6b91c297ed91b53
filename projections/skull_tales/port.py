"""The Port Phase's own comings and goings: back aboard the Pirate Ship on time or late, Rumors heard, kept and
resolved, and stories told at the Tavern.

Skull Tales: Full Sail! rulebook, Book II: Port Phase, Port Components and Setup; Book II: Locations, Madame
Claude's Manor and Tavern.
"""

from __future__ import annotations

from msgspec.structs import replace

from quartermaster.events.skull_tales import PirateBoarded, RumorResolved, RumorsHeard, StoryTold
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.booty import gain_coins, inside_manor, lose_coins, pay, spend_time
from quartermaster.projections.skull_tales.pirates import add_fame, lose_fame
from quartermaster.projections.skull_tales.state import SkullTales, active_pirate, attribute, change, put, require_phase
from quartermaster.projections.skull_tales.words import count

LATE_FAME = 5  # Book II: Port Phase, Port Components: "If your Time Units are reduced to zero before you have returned to the Pirate Ship"
RUMOR_TIME_UNITS = 2
STORY_TIME_UNITS = 2  # Book II: Locations, Tavern, Storytelling
STORY_DIFFICULTY = 6
STORY_COINS = 3  # "You can spend up to 3 Coins before rolling to add +1 to the roll for each coin spent."


def boarded(state: SkullTales, event: PirateBoarded) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Returning to the Pirate Ship")
    if p.boarded or p.port_unconscious:
        how = "was carried aboard Unconscious" if p.port_unconscious else "is already back aboard"
        raise Rejection(f"{p.name} {how}; their Port Phase is over.")
    if event.late:
        if p.time_units > 0:
            broken(
                f"{p.name} is not late: {p.name} still has {count(p.time_units, 'Time Unit')} to reach the Pirate Ship."
            )
        state = lose_fame(state, p.id, LATE_FAME, "being late for reembarking")
    # "The Port Phase immediately ends for your Pirate" (Book II: Port Phase, End of the Port Phase): what Time Units are left are gone.
    return put(state, change(state.pirates[p.id], boarded=True, time_units=0))


def rumors_heard(state: SkullTales, event: RumorsHeard) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Listening to Rumors")
    if p.rumor is not None:
        # "If you keep it, you cannot draw any more Rumor cards until you complete the mission or fail" (Book II: Locations, Tavern).
        broken(f"{p.name} cannot listen to Rumors: {p.name} keeps the Rumor {p.rumor} until it succeeds or fails.")
    where = "the Tavern" if event.where == "tavern" else "the Manor"
    state = spend_time(state, p.id, RUMOR_TIME_UNITS, f"listen to Rumors at {where}")
    if event.where == "manor":
        state = inside_manor(state, p.id)
    if event.kept is None:
        return state
    return put(state, change(state.pirates[p.id], rumor=event.kept, rumor_serial=state.phase_serial))


def rumor_resolved(state: SkullTales, event: RumorResolved) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Resolving a Rumor")
    if p.rumor is None:
        raise Rejection(f"{p.name} keeps no Rumor to resolve.")
    if p.rumor_serial >= state.phase_serial:
        broken(
            f"{p.name}'s Rumor {p.rumor} was kept in this Port Phase; it is resolved when the crew returns to "
            "Tortuga Island (Book II: Locations, Tavern)."
        )
    if event.success and (event.coins < 0 or event.fame < 0):
        raise Rejection(f"A Rumor fulfilled pays {p.name} a reward, not a loss.")
    if not event.success and (event.coins > 0 or event.fame > 0):
        raise Rejection(f"A failed Rumor costs {p.name} its penalty, not a reward.")
    if event.coins > 0:
        state = gain_coins(state, p.id, event.coins, "rumor", f"the Rumor {p.rumor}")
    elif event.coins < 0:
        state = lose_coins(state, p.id, -event.coins, "rumor", f"the Rumor {p.rumor} failed")
    if event.fame > 0:
        state = add_fame(state, p.id, event.fame)
    elif event.fame < 0:
        state = lose_fame(state, p.id, -event.fame, f"the Rumor {p.rumor} failed")
    return put(state, change(state.pirates[p.id], rumor=None, rumor_serial=0))


def story_total(state: SkullTales, event: StoryTold) -> int:
    """The Storytelling roll's final result: the die, the Pirate's Charisma, the Coins spent and a Destiny Point's +1
    (Book I: Dice Rolls, Charisma rolls: "rolling a die and adding the value of the Character")."""
    p = state.pirates[event.pirate_id]
    destiny = 1 if p.id in state.plus_one else 0
    return event.roll + destiny + attribute(p, "charisma") + event.coins


def story_fame(state: SkullTales, total: int) -> int:
    """The Fame a story earns: "the amount by which the roll was surpassed"; nothing unless it passes."""
    passed = total > STORY_DIFFICULTY or (state.options.charisma_difficulty == "meet" and total == STORY_DIFFICULTY)
    return total - STORY_DIFFICULTY if passed else 0


def story_told(state: SkullTales, event: StoryTold) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Storytelling")
    if not 1 <= event.roll <= 6:
        raise Rejection(f"{p.name}'s Storytelling is a Charisma roll on one die; {event.roll} is not a face.")
    if not 0 <= event.coins <= STORY_COINS:
        broken(
            f"{p.name} can spend up to {count(STORY_COINS, 'Coin')} on a story, +1 to the roll each, not {event.coins}."
        )
    total = story_total(state, event)
    state = spend_time(state, p.id, STORY_TIME_UNITS, "tell a story at the Tavern")
    state = pay(
        state, f"pirate:{p.id}", event.coins, f"spend {count(event.coins, 'Coin')} on a story", "storytelling", p.name
    )
    if p.id in state.plus_one:
        state = replace(state, plus_one=[c for c in state.plus_one if c != p.id])
    fame = story_fame(state, total)
    return add_fame(state, p.id, fame) if fame else state
