"""Pathfinder Adventure Card Game: Skull & Shackles — the fold.

`apply(state, event, meta)` accepts or rejects each event by the rules of the rulebook, the Core rules FAQ and the
ship cards; one table, by the event's type, dispatches to the module that owns the concern.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from quartermaster.events import pacg as ev
from quartermaster.events.base import Event
from quartermaster.events.campaign import DiceRolled
from quartermaster.projections.dice import plain
from quartermaster.projections.game import Episodes, Game, Meta, Rejection, View, broken, own_types
from quartermaster.projections.pacg import (
    aside,
    characters,
    closing,
    decks,
    display,
    encounter,
    feats,
    fleet,
    hands,
    play,
    pull,
    recorded,
    scenario,
    turn,
    vault,
    verbs,
    views,
)
from quartermaster.projections.pacg.sentences import SENTENCES
from quartermaster.projections.pacg.state import Options, Owed, State

GAME_ID = "pacg-skull-and-shackles"


def initial(options: Mapping[str, Any]) -> State:
    """The state right after campaign.started, with the Core rules options checked."""
    try:
        parsed = msgspec.convert(dict(options), Options)
    except msgspec.ValidationError as error:
        raise Rejection(f"The campaign's rule options are not valid: {error}.") from None
    if parsed.roles_after_adventures < 0:
        raise Rejection(
            f"Role cards cannot wait for {parsed.roles_after_adventures} completed adventures; give 0 or more."
        )
    if parsed.hourglass < 1:
        raise Rejection(f"The hourglass needs at least 1 blessing, not {parsed.hourglass}.")
    return State(options=parsed)


def _settle(state: State, event: Event) -> State | None:
    """Discards still owed for damage come first; this event must be one of them. None: it is not, and the table
    logs it anyway (an override), as if the discards were settled."""
    due = state.owed
    assert due is not None
    if type(event) is ev.CardMoved and event.from_.zone == "hand":
        owner = event.from_.character_id
        if due.kind == "damage":
            if (
                owner == due.character_id
                and event.verb == "discard"
                and event.to.zone == "discard"
                and event.to.character_id == owner
            ):
                state = verbs.card_moved(state, event)
                left = due.count - 1
                return msgspec.structs.replace(state, owed=Owed("damage", left, owner) if left else None)
        elif event.verb in ("discard", "recharge") and event.to.character_id == owner:
            state = verbs.card_moved(state, event)
            left = due.count - 1
            return msgspec.structs.replace(state, owed=Owed("prevention", left) if left else None)
    if type(event) is ev.CharacterDied and due.kind == "damage" and event.character_id == due.character_id:
        return characters.died(state, event)
    if due.kind == "damage":
        name = state.characters[due.character_id or ""].name
        broken(
            f"{name} must first discard {due.count} more card{'s' if due.count != 1 else ''} from "
            f"{name}'s hand for the damage just dealt."
        )
        return None
    broken(
        f"{due.count} more card{'s' if due.count != 1 else ''} must first be discarded from hands to "
        "prevent the Structural damage just dealt."
    )
    return None


def _dice_rolled(state: State, event: DiceRolled) -> State:
    if event.character_id is not None:
        found = characters.character(state, event.character_id)
        scenario = state.scenario
        if not found.alive and scenario is not None and event.character_id in scenario.party:
            broken(
                f"{found.name} is dead and rolls no more dice in {scenario.name} (Skull & Shackles Rulebook, Dying)."
            )
    # Read as `/rolls` reads it (a check succeeds at "greater than or equal to the difficulty"): a roll logged whole
    # whose successes or success say otherwise is refused.
    read = plain(event)
    return encounter.check_logged(state, read)


# The module owning each event. A table rather than a `match`: a class pattern is an isinstance check, and for
# msgspec's Struct classes (built by a metaclass) every failed one goes the slow way, once per case tried.
_HANDLERS: dict[type[Event], Callable[[State, Any], State]] = {
    ev.CardMoved: verbs.card_moved,
    ev.HourglassAdvanced: turn.hourglass_advanced,
    ev.DamageDealt: characters.damage_dealt,
    ev.HandReset: hands.hand_reset,
    ev.CharacterMoved: characters.moved,
    DiceRolled: _dice_rolled,
    ev.ShipDamaged: fleet.ship_damaged,
    ev.ShipRepaired: fleet.ship_repaired,
    ev.PlunderStashed: fleet.plunder_stashed,
    ev.PlunderBanished: fleet.plunder_banished,
    ev.LocationClosed: closing.location_closed,
    ev.EncounterEnded: encounter.encounter_ended,
    ev.VillainEscaped: encounter.villain_escaped,
    ev.ScenarioStarted: scenario.scenario_started,
    ev.ScenarioEnded: scenario.scenario_ended,
    ev.AdventureStarted: scenario.adventure_started,
    ev.CharacterDied: characters.died,
    ev.CharacterRevived: characters.revived,
    ev.CharacterJoined: characters.joined,
    ev.CharacterSetAside: aside.set_aside,
    ev.CharacterBroughtBack: aside.brought_back,
    ev.CharacterCardCompleted: characters.card_completed,
    ev.DeckBuilt: decks.deck_built,
    ev.DeckRebuilt: decks.deck_rebuilt,
    ev.VaultProductsAdded: vault.products_added,
    ev.CardDefined: vault.card_defined,
    ev.ShipSeized: fleet.ship_seized,
    ev.ShipEncountered: fleet.ship_encountered,
    ev.ShipEvaded: fleet.ship_evaded,
    ev.ShipDefeated: fleet.ship_defeated,
    ev.ShipBanished: fleet.ship_banished,
    ev.ShipAnchored: fleet.ship_anchored,
    ev.ShipAwarded: fleet.ship_awarded,
    ev.FeatGained: feats.feat_gained,
    ev.RoleChosen: feats.role_chosen,
    ev.LootAwarded: feats.loot_awarded,
    ev.HeroPointAwarded: characters.hero_point_awarded,
    ev.HeroPointSpent: characters.hero_point_spent,
    ev.ScenarioCardRecorded: recorded.scenario_card_recorded,
    ev.ProductListRecorded: recorded.product_list_recorded,
}


# What happens only in a scenario in progress: after a loss, until the next scenario starts, each is refused with
# the loss (Skull & Shackles Rulebook, Ending a Scenario, Adventure, or Adventure Path: "the scenario ends immediately").
_IN_PLAY = frozenset(
    {
        ev.CardMoved,
        ev.CharacterMoved,
        ev.DamageDealt,
        ev.HandReset,
        ev.HourglassAdvanced,
        ev.LocationClosed,
        ev.EncounterEnded,
        ev.VillainEscaped,
        ev.ShipDamaged,
        ev.ShipRepaired,
        ev.ShipSeized,
        ev.ShipAnchored,
        ev.PlunderStashed,
        ev.PlunderBanished,
        ev.CharacterRevived,
        ev.ShipEncountered,
        ev.ShipEvaded,
        ev.ShipDefeated,
        ev.ShipBanished,
    }
)


def _trading(event: Event) -> bool:
    """Characters trade cards from their decks between scenarios (Skull & Shackles Rulebook, Setting Up: Trade Cards)."""
    return isinstance(event, ev.CardMoved) and event.verb == "give" and event.from_.zone == "deck"


def apply(state: State, event: Event, meta: Meta) -> State:
    """The state after one event, or Rejection with the reason."""
    if type(event) is DiceRolled:
        # A roll is a fact of the table: one character's unfinished reset or owed discards never stop another's
        # roll from being logged, nor does a scenario lost a moment ago.
        return _dice_rolled(state, event)
    due = state.owed
    if due is not None:
        during = _settle(state, event) if due.kind != "reset" else hands.resetting(state, event)
        if during is not None:
            return during
        # The reset is over (or the discards are, logged anyway); this event is the first after it.
        if due.kind == "reset":
            state = hands.reset_over(state, due.character_id or "")
        else:
            state = msgspec.structs.replace(state, owed=None)
    kind = type(event)
    if state.fresh_hero_point is not None and kind is not ev.HeroPointSpent and kind is not ev.HeroPointAwarded:
        state = msgspec.structs.replace(state, fresh_hero_point=None)
    if state.hero_feat is not None and kind is not ev.FeatGained:
        state = msgspec.structs.replace(state, hero_feat=None)
    if state.lost is not None and state.scenario is None and kind in _IN_PLAY:
        if kind is not ev.CardMoved or not _trading(event):
            broken(
                f"{state.lost} and ended at once: nothing more is explored, moved or dealt in it; the next scenario "
                "starts anew."
            )
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise Rejection(f"A Skull & Shackles campaign does not know the event {kind.__name__}.")
    return handler(state, event)


def character_of(event: Event) -> str | None:
    """The character an event concerns, for history filters."""
    # Exact types, as in the handler table: a failed isinstance on a msgspec class takes the slow path, and every
    # append asks this once per event.
    if type(event) is ev.CardMoved:
        return event.from_.character_id or event.to.character_id
    if type(event) is ev.LootAwarded:
        return None if event.to == "vault" else event.to
    return getattr(event, "character_id", None)


GAME: Game[State] = Game(
    id=GAME_ID,
    title="Pathfinder Adventure Card Game: Skull & Shackles",
    state_type=State,
    event_types=own_types(_HANDLERS),
    handlers=_HANDLERS,
    initial=initial,
    apply=apply,
    views={
        "character": View("character", views.character),
        "fleet": View("fleet", views.fleet_view),
        "vault": View("vault", views.vault_view),
        "scenario": View("scenario", views.scenario_view),
        "recorded": View("recorded", recorded.view),
        "turn": View("turn", play.turn_view),
        "pull_list": View("pull_list", pull.view),
    },
    character_of=character_of,
    episodes=Episodes("scenario.started", "scenario", ("scenario.ended",)),
    sentences=SENTENCES,
    players_may_override=lambda state: state.options.overrides == "players",
    display=display.display,
)
