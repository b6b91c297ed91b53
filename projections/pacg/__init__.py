"""Pathfinder Adventure Card Game: Skull & Shackles — the fold.

`apply(state, event, meta)` accepts or rejects each event by the rules of the rulebook, the Core rules FAQ and the
ship cards; one `match` dispatches to the module that owns the concern.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from events.base import Event
from events.campaign import DiceRolled
from events.pacg import (
    PACG_EVENTS,
    AdventureStarted,
    CardDefined,
    CardMoved,
    CharacterDied,
    CharacterJoined,
    CharacterMoved,
    CharacterRevived,
    DamageDealt,
    DeckBuilt,
    DeckRebuilt,
    FeatGained,
    HeroPointAwarded,
    HeroPointSpent,
    HourglassAdvanced,
    LocationClosed,
    LootAwarded,
    PlunderBanished,
    PlunderStashed,
    RoleChosen,
    ScenarioEnded,
    ScenarioStarted,
    ShipAnchored,
    ShipAwarded,
    ShipDamaged,
    ShipRepaired,
    ShipSeized,
    VaultProductsAdded,
    VillainEscaped,
)
from projections.game import Episodes, Game, Meta, Rejection, View
from projections.pacg import characters, decks, feats, fleet, scenario, vault, verbs, views
from projections.pacg.state import Options, Pending, State

GAME_ID = "pacg-skull-and-shackles"



def initial(options: Mapping[str, Any]) -> State:
    """The state right after campaign.started, with the Core rules options checked."""
    try:
        parsed = msgspec.convert(dict(options), Options)
    except msgspec.ValidationError as error:
        raise Rejection(f"The campaign's rule options are not valid: {error}.") from None
    if parsed.hourglass < 1:
        raise Rejection(f"The hourglass needs at least 1 blessing, not {parsed.hourglass}.")
    return State(options=parsed)


def _settle(state: State, event: Event) -> State:
    """Discards still owed for damage come first; this event must be one of them."""
    pending = state.pending
    assert pending is not None
    if isinstance(event, CardMoved) and event.from_.zone == "hand":
        owner = event.from_.character_id
        if pending.kind == "damage":
            if (
                owner == pending.character_id
                and event.verb == "discard"
                and event.to.zone == "discard"
                and event.to.character_id == owner
            ):
                state = verbs.card_moved(state, event)
                left = pending.count - 1
                return msgspec.structs.replace(state, pending=Pending("damage", left, owner) if left else None)
        elif event.verb in ("discard", "recharge") and event.to.character_id == owner:
            state = verbs.card_moved(state, event)
            left = pending.count - 1
            return msgspec.structs.replace(state, pending=Pending("prevention", left) if left else None)
    if isinstance(event, CharacterDied) and pending.kind == "damage" and event.character_id == pending.character_id:
        return characters.died(state, event)
    if pending.kind == "damage":
        name = state.characters[pending.character_id or ""].name
        raise Rejection(
            f"{name} must first discard {pending.count} more card{'s' if pending.count != 1 else ''} from "
            f"{name}'s hand for the damage just dealt."
        )
    raise Rejection(
        f"{pending.count} more card{'s' if pending.count != 1 else ''} must first be discarded from hands to "
        "prevent the Structural damage just dealt."
    )


def apply(state: State, event: Event, meta: Meta) -> State:
    """The state after one event, or Rejection with the reason."""
    if state.pending is not None:
        return _settle(state, event)
    if state.fresh_hero_point is not None and not isinstance(event, (HeroPointSpent, HeroPointAwarded)):
        state = msgspec.structs.replace(state, fresh_hero_point=None)
    match event:
        case CardMoved():
            return verbs.card_moved(state, event)
        case HourglassAdvanced():
            return scenario.hourglass_advanced(state, event)
        case DamageDealt():
            return characters.damage_dealt(state, event)
        case CharacterMoved():
            return characters.moved(state, event)
        case DiceRolled():
            if event.character_id is not None:
                characters.character(state, event.character_id)
            return state
        case ShipDamaged():
            return fleet.ship_damaged(state, event)
        case ShipRepaired():
            return fleet.ship_repaired(state, event)
        case PlunderStashed():
            return fleet.plunder_stashed(state, event)
        case PlunderBanished():
            return fleet.plunder_banished(state, event)
        case LocationClosed():
            return scenario.location_closed(state, event)
        case VillainEscaped():
            return scenario.villain_escaped(state, event)
        case ScenarioStarted():
            return scenario.scenario_started(state, event)
        case ScenarioEnded():
            return scenario.scenario_ended(state, event)
        case AdventureStarted():
            return scenario.adventure_started(state, event)
        case CharacterDied():
            return characters.died(state, event)
        case CharacterRevived():
            return characters.revived(state, event)
        case CharacterJoined():
            return characters.joined(state, event)
        case DeckBuilt():
            return decks.deck_built(state, event)
        case DeckRebuilt():
            return decks.deck_rebuilt(state, event)
        case VaultProductsAdded():
            return vault.products_added(state, event)
        case CardDefined():
            return vault.card_defined(state, event)
        case ShipSeized():
            return fleet.ship_seized(state, event)
        case ShipAnchored():
            return fleet.ship_anchored(state, event)
        case ShipAwarded():
            return fleet.ship_awarded(state, event)
        case FeatGained():
            return feats.feat_gained(state, event)
        case RoleChosen():
            return feats.role_chosen(state, event)
        case LootAwarded():
            return feats.loot_awarded(state, event)
        case HeroPointAwarded():
            return characters.hero_point_awarded(state, event)
        case HeroPointSpent():
            return characters.hero_point_spent(state, event)
    raise Rejection(f"A Skull & Shackles campaign does not know the event {type(event).__name__}.")


def character_of(event: Event) -> str | None:
    """The character an event concerns, for history filters."""
    if isinstance(event, CardMoved):
        return event.from_.character_id or event.to.character_id
    if isinstance(event, LootAwarded):
        return None if event.to == "vault" else event.to
    return getattr(event, "character_id", None)


GAME: Game[State] = Game(
    id=GAME_ID,
    title="Pathfinder Adventure Card Game: Skull & Shackles",
    state_type=State,
    event_types=PACG_EVENTS,
    initial=initial,
    apply=apply,
    views={
        "character": View("character", views.character),
        "fleet": View("fleet", views.fleet_view),
        "vault": View("vault", views.vault_view),
        "scenario": View("scenario", views.scenario_view),
    },
    character_of=character_of,
    episodes=Episodes("scenario.started", "scenario", ("scenario.ended",)),
)
