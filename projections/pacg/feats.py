"""Rewards: feats on the character card's boxes (leftmost first), the role card, loot, earned once."""

from __future__ import annotations

import msgspec

from quartermaster.events.pacg import FeatGained, LootAwarded, RoleChosen
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg.characters import character
from quartermaster.projections.pacg.state import Character, State
from quartermaster.projections.pacg.zones import PLUNDER, VAULT, Work, a, character_key


def groups(found: Character, kind: str) -> dict[str, list[str]]:
    """The feat boxes of one kind, by skill, power or card type, left to right."""
    if kind == "skill":
        return {name: list(line.feats) for name, line in found.card.skills.items() if line.feats}
    if kind == "card":
        return {card_type: [str(n) for n in line.feats] for card_type, line in found.card.cards_list.items()}
    if found.role is not None:
        return found.role_powers
    return dict(found.card.powers)


def _feat_key(found: Character, kind: str, group: str) -> str:
    if kind == "power" and found.role is not None:
        return f"role|{group}"
    return f"{kind}|{group}"


def _parse(found: Character, kind: str, feat: str) -> tuple[str, int]:
    """The group and box index a feat names: "Dexterity +1", "weapon 3", or a box label unique to its kind."""
    boxes = groups(found, kind)
    for group in sorted(boxes, key=len, reverse=True):
        labels = boxes[group]
        if feat.startswith(group + " ") and feat[len(group) + 1 :] in labels:
            return group, labels.index(feat[len(group) + 1 :])
        if feat == group and len(labels) == 1:
            return group, 0
    matches = [(group, labels.index(feat)) for group, labels in boxes.items() if feat in labels]
    if len(matches) == 1:
        return matches[0]
    where = "role card" if kind == "power" and found.role else "character card"
    raise Rejection(f"{found.name}'s {where} has no {kind} feat box {feat!r}.")


def _ordinal(number: int) -> str:
    words = {1: "the first", 2: "the second", 3: "the third", 4: "the fourth", 5: "the fifth", 6: "the sixth"}
    return words.get(number, f"adventure number {number} of the")


def check_reward(state: State, reward_of: str | None, character_id: str | None = None) -> None:
    """A reward names the scenario, adventure or Adventure Path it comes from; each is earned once, and only by the
    characters who played the scenario that completed it."""
    if reward_of is None:
        return
    if reward_of in state.rewardable:
        if character_id is not None and state.rewarded_party and character_id not in state.rewarded_party:
            name = state.characters[character_id].name if character_id in state.characters else character_id
            broken(
                f"{name} did not play the scenario that completed {reward_of}: its reward goes to the characters "
                "who played it (Skull & Shackles Rulebook, After the Scenario)."
            )
        return
    if reward_of in state.completed:
        broken(f"The reward of {reward_of} was earned when the party first completed it; it is earned once.")
    broken(f"{reward_of} has not just been completed, so its reward cannot be earned now.")


# How the table records feat boxes its character card does not carry yet, by kind of feat.
_HOW_TO_RECORD = {
    "skill": '"skills": {"Dexterity": {"die": "d8", "feats": ["+1", "+2", "+3"]}}',
    "power": '"powers": {"Hand Size": ["5"]}',
    "card": '"card_feats": {"weapon": [5, 6]}',
}


def feat_gained(state: State, event: FeatGained) -> State:
    check_reward(state, event.reward_of, event.character_id)
    found = character(state, event.character_id)
    if not found.alive:
        broken(f"{found.name} is dead; a dead character gains no feat.")
    from_hero_point = state.hero_feat == event.character_id
    if event.reward_of is None and not from_hero_point and state.scenario is not None:
        # Between scenarios a feat without reward_of is one the table catches up on (boxes checked before the log
        # began); during a scenario nothing but a hero point gives one.
        broken(
            f"{found.name} gains a feat during {state.scenario.name} only from a hero point spent on it as it is "
            "awarded (hero_point.spent for feat just before); a reward's feats come after the scenario and name "
            "their reward_of (Skull & Shackles Rulebook, Ending a Scenario, Adventure, or Adventure Path; Core "
            "Rules FAQ, Hero Points)."
        )
    if event.reward_of is not None and event.character_id in state.reward_feats.get(event.reward_of, []):
        broken(
            f"{found.name} has already gained a feat from the reward of {event.reward_of}: a reward gives each "
            "character one feat (Skull & Shackles Rulebook, Ending a Scenario, Adventure, or Adventure Path)."
        )
    boxes = groups(found, event.kind)
    key_prefix = _feat_key(found, event.kind, "")
    if not any(boxes.values()):
        where = "role card" if event.kind == "power" and found.role else "character card"
        raise Rejection(
            f"{found.name}'s {where} as recorded has no {event.kind} feat boxes: record them from the card in hand "
            f"first, with character.card_completed ({{{_HOW_TO_RECORD[event.kind]}}}), then check one."
        )
    if all(found.feats.get(key_prefix + group, 0) >= len(labels) for group, labels in boxes.items()):
        raise Rejection(f"{found.name} has no unchecked {event.kind} feat box left, so gains no {event.kind} feat.")
    group, index = _parse(found, event.kind, event.feat)
    key = _feat_key(found, event.kind, group)
    checked = found.feats.get(key, 0)
    labels = boxes[group]
    if index < checked:
        raise Rejection(f"{found.name}'s {group} {labels[index]} box is already checked.")
    if index > checked:
        broken(
            f"{found.name} must check {group} {labels[checked]} before {group} {labels[index]}: the unchecked box "
            "farthest to the left comes first."
        )
    feats = dict(found.feats)
    feats[key] = checked + 1
    characters = state.characters.copy()
    characters[event.character_id] = msgspec.structs.replace(found, feats=feats)
    changes: dict[str, object] = {"characters": characters}
    if from_hero_point:
        changes["hero_feat"] = None
    elif event.reward_of is not None:
        gained = dict(state.reward_feats)
        gained[event.reward_of] = [*gained.get(event.reward_of, []), event.character_id]
        changes["reward_feats"] = gained
    return msgspec.structs.replace(state, **changes)


def role_chosen(state: State, event: RoleChosen) -> State:
    found = character(state, event.character_id)
    if found.role is not None:
        broken(f"{found.name} chose the role {found.role} for good; a role card is never turned over.")
    wanted = state.options.roles_after_adventures
    done = len(state.path_completed)
    if done < wanted:
        broken(
            f"{found.name} cannot take the role {event.role} yet: role cards are the reward for completing "
            f"{_ordinal(wanted)} adventure of the Adventure Path, and the party has completed {done} of its "
            f"adventure{'' if done == 1 else 's'}."
        )
    side = found.card.roles.get(event.role)
    powers = dict(side.powers) if side is not None else event.powers
    if powers is None:
        sides = ", ".join(found.card.roles) or "none on the character card"
        raise Rejection(f"{found.name}'s role card has no side {event.role} (sides: {sides}); give its powers.")
    feats = dict(found.feats)
    # Check the role's boxes that match boxes already checked on the character card, leftmost first.
    for group, labels in powers.items():
        checked_labels = list(found.card.powers.get(group, []))[: found.feats.get(f"power|{group}", 0)]
        carried = 0
        for label in labels:
            if label in checked_labels:
                carried += 1
            else:
                break
        if carried:
            feats[f"role|{group}"] = carried
    characters = state.characters.copy()
    characters[event.character_id] = msgspec.structs.replace(
        found, role=event.role, role_powers={g: list(v) for g, v in powers.items()}, feats=feats
    )
    return msgspec.structs.replace(state, characters=characters)


def loot_awarded(state: State, event: LootAwarded) -> State:
    """Loot (or plunder after a win) goes to any character, into the cards she rebuilds from, or to the vault."""
    check_reward(state, event.reward_of, None if event.to == "vault" else event.to)
    if state.scenario is not None:
        broken(f"Loot is handed out after the scenario, not during {state.scenario.name}.")
    work = Work(state)
    info = work.info(event.card)
    if event.to == "vault":
        target = VAULT
    else:
        found = character(state, event.to)
        if not found.alive:
            broken(f"{found.name} is dead and cannot take {event.card}.")
        target = character_key(event.to, "deck")
    if event.source == "plunder":
        pile = state.zones.get(PLUNDER)
        if pile is None or not (pile.hidden.get(info.type) or pile.known.get(event.card)):
            raise Rejection(f"No {info.type} plunder card is under the ship to turn out to be {event.card}.")
        work.move(PLUNDER, target, event.card)
    else:
        if info.type != "loot":
            broken(f"{event.card} is {a(info.type)}, not a loot card.")
        work.move(VAULT, target, event.card)
    return work.commit()
