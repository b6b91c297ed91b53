"""What the table shows: a character, the fleet, the vault, the scenario."""

from __future__ import annotations

from typing import Any

from quartermaster.events.pacg import CHARACTER_ZONES
from quartermaster.projections.pacg import fleet, scenario, vault
from quartermaster.projections.pacg.decks import cards_list
from quartermaster.projections.pacg.ending import ADVENTURE_PATH
from quartermaster.projections.pacg.feats import groups
from quartermaster.projections.pacg.hands import hand_size
from quartermaster.projections.pacg.state import Character, State
from quartermaster.projections.pacg.zones import PLUNDER, character_key


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
        "skill_dice": skill_dice(found),
        "role": found.role,
        # Her powers' feat boxes by power (the role's once she has one), and the sides of her role card as the
        # recorded card knows them, each with its powers: what a role chosen on the page is picked from.
        "powers": groups(found, "power"),
        "role_sides": {side: sorted(r.powers) for side, r in found.card.roles.items()},
        "hero_points": found.hero_points,
        # Set aside: her deck as written down (its cards are in the vault), else None.
        "aside": list(found.aside) if found.aside is not None else None,
    }


def _skill_bonus(found: Character, skill: str) -> int:
    """The number beside the rightmost checked box of a skill: boxes are not cumulative ("+2" replaces "+1")."""
    line = found.card.skills.get(skill)
    checked = found.feats.get(f"skill|{skill}", 0)
    if line is None or not checked or checked > len(line.feats):
        return 0
    try:
        return int(line.feats[checked - 1])
    except ValueError:
        return 0


def skill_dice(found: Character) -> dict[str, str]:
    """Each skill's dice as a check rolls them, her skill feats counted: "Strength d10" with "+1" checked is 1d10+1,
    and "Melee: Strength +3" then 1d10+4 (Skull & Shackles Rulebook, Your Character: Skills; Feats)."""
    skills = found.card.skills
    dice = {}
    for name, line in skills.items():
        if line.die:
            die, modifier = line.die, line.modifier + _skill_bonus(found, name)
        elif line.base and line.base in skills and skills[line.base].die:
            base = skills[line.base]
            die = base.die or ""
            modifier = base.modifier + _skill_bonus(found, line.base) + line.modifier + _skill_bonus(found, name)
        else:
            continue
        dice[name] = f"1{die}{modifier:+d}" if modifier else f"1{die}"
    return dice


def fleet_view(state: State) -> dict[str, Any]:
    return fleet.view(state)


def vault_view(state: State) -> dict[str, Any]:
    return vault.view(state)


def scenario_view(state: State) -> dict[str, Any]:
    """The scenario in progress; between scenarios, what it left: the rewards due and the campaign's progress."""
    view = scenario.view(state)
    if view["in_progress"]:
        return view
    return {
        **view,
        "rewards": rewards(state),
        "progress": progress(state),
        "plunder": plunder(state),
        "fleet_checked": list(state.fleet.checked),
        "roles_due": roles_due(state),
    }


def roles_due(state: State) -> list[dict[str, Any]]:
    """The living characters who may take a role card now and have none: role cards are the reward for completing
    the third adventure of the Adventure Path, or as many as the campaign's options say (Skull & Shackles Rulebook,
    Your Character: Role Cards). `sides` are the role card's sides as her card records them (none: the table names
    the side chosen and its power feat boxes, once)."""
    if len(state.path_completed) < state.options.roles_after_adventures:
        return []
    return [
        {"character_id": character_id, "name": found.name, "sides": list(found.card.roles)}
        for character_id, found in state.characters.items()
        if found.alive and found.role is None and found.has_deck
    ]


def plunder(state: State) -> dict[str, Any]:
    """The plunder left under the ship: after a win it is the party's, each card handed out as loot once the table
    turns it over (Skull & Shackles Rulebook, Plunder Cards; After the Scenario)."""
    pile = state.zones.get(PLUNDER)
    return {"face_down": dict(pile.hidden) if pile else {}, "known": dict(pile.known) if pile else {}}


FEAT_KINDS = ("skill", "power", "card")


def open_boxes(found: Character, kind: str) -> list[str]:
    """The feat boxes of a kind she may check now, as feat.gained names them: the leftmost unchecked box of each
    skill, power or card type (Skull & Shackles Rulebook, Your Character: Feats)."""
    prefix = "role|" if kind == "power" and found.role is not None else f"{kind}|"
    boxes = []
    for group, labels in groups(found, kind).items():
        checked = found.feats.get(prefix + group, 0)
        if checked < len(labels):
            label = labels[checked]
            # A box named as its power ("Light Armors") is named once.
            boxes.append(group if label == group else f"{group} {label}")
    return boxes


def rewards(state: State) -> list[dict[str, Any]]:
    """The rewards the scenario just won opened, each with the characters who earn them and, for a feat, the boxes
    each may check: `recorded` false where her card as recorded has no boxes of that kind yet (the table gives
    them once), `open` the boxes she can still check (Skull & Shackles Rulebook, Ending a Scenario, Adventure, or
    Adventure Path: "If you're rewarded with a feat of a specific type and your character has no unchecked feats
    of that type, you do not gain a feat")."""
    adventure = state.adventure.name if state.adventure else None
    due = []
    for reward_of in state.rewardable:
        kind = (
            "adventure path" if reward_of == ADVENTURE_PATH else "adventure" if reward_of == adventure else "scenario"
        )
        gained = state.reward_feats.get(reward_of, [])
        characters = []
        for character_id in state.rewarded_party:
            found = state.characters.get(character_id)
            if found is None or not found.alive:
                continue
            feats = {
                feat: {"recorded": any(groups(found, feat).values()), "open": open_boxes(found, feat)}
                for feat in FEAT_KINDS
            }
            characters.append(
                {
                    "character_id": character_id,
                    "name": found.name,
                    "feat_gained": character_id in gained,
                    "feats": feats,
                    # What her card shows, for the boxes the table gives once: the skills with a die (a derived
                    # skill, Ranged: Dexterity +3, has none of its own) and the Cards List's types.
                    "skills": [name for name, line in found.card.skills.items() if line.die],
                    "cards_list": {t: line.count for t, line in found.card.cards_list.items()},
                    "hand_size": found.card.hand_size,
                }
            )
        due.append({"reward_of": reward_of, "kind": kind, "characters": characters})
    return due


def progress(state: State) -> dict[str, Any]:
    """The campaign's progress between scenarios: the adventure, how many of its scenarios are won, and the next."""
    adventure = state.adventure
    if adventure is None:
        return {"adventure": None, "completed": list(state.completed), "path_completed": list(state.path_completed)}
    won = [name for name in adventure.scenarios if name in state.completed]
    ahead = [name for name in adventure.scenarios if name not in state.completed]
    return {
        "adventure": {
            "name": adventure.name,
            "number": adventure.number,
            "scenarios": list(adventure.scenarios),
            "scenario_count": adventure.size,
            "won": len(won),
            "complete": adventure.name in state.completed,
            # The next scenario to play: the first not won of those named, or None when the card's next one is not
            # named yet (or the adventure is complete).
            "next": ahead[0] if ahead else None,
        },
        "completed": list(state.completed),
        "path_completed": list(state.path_completed),
    }
