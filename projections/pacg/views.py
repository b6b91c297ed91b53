"""What the table shows: a character, the fleet, the vault, the scenario."""

from __future__ import annotations

from typing import Any

from quartermaster.events.pacg import CHARACTER_ZONES
from quartermaster.projections.pacg import fleet, scenario, vault
from quartermaster.projections.pacg.decks import cards_list
from quartermaster.projections.pacg.feats import groups
from quartermaster.projections.pacg.hands import hand_size
from quartermaster.projections.pacg.state import State
from quartermaster.projections.pacg.zones import character_key


def character(state: State, character_id: str) -> dict[str, Any]:
    """A character's cards by zone, cards list, feats, role and hero points."""
    found = state.characters.get(character_id)
    if found is None:
        known = ", ".join(sorted(state.characters)) or "none yet"
        raise KeyError(f"No character {character_id} has joined this campaign (characters: {known}).")
    zones = {}
    for zone in sorted(CHARACTER_ZONES):
        pile = state.zones.get(character_key(character_id, zone))
        zones[zone] = dict(sorted(pile.known.items())) if pile else {}
    feats: dict[str, dict[str, list[str]]] = {}
    for kind in ("skill", "power", "card"):
        prefix = "role|" if kind == "power" and found.role is not None else f"{kind}|"
        checked = {
            group: labels[: found.feats.get(prefix + group, 0)]
            for group, labels in groups(found, kind).items()
            if found.feats.get(prefix + group, 0)
        }
        feats[kind] = checked
    return {
        "character_id": character_id,
        "name": found.name,
        "player": found.player,
        "alive": found.alive,
        "location": found.location,
        "zones": zones,
        "counts": {zone: sum(cards.values()) for zone, cards in zones.items()},
        "cards_list": cards_list(found),
        # What the reset draws up to: the card's hand size with its checked Hand Size feats.
        "hand_size": hand_size(found),
        "feats": feats,
        "role": found.role,
        "hero_points": found.hero_points,
    }


def fleet_view(state: State) -> dict[str, Any]:
    return fleet.view(state)


def vault_view(state: State) -> dict[str, Any]:
    return vault.view(state)


def scenario_view(state: State) -> dict[str, Any]:
    return scenario.view(state)
