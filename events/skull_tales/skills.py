"""Skills and Feats, learned and bought in Port."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.skull_tales.pirates import CostInCoins, PirateId


class SkillPrerequisites(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a Pirate needs before learning a skill."""

    attributes: Annotated[dict[str, int], Meta(description="Minimum attributes, by attribute.")] = {}
    skills: Annotated[list[str], Meta(description="Skills the Pirate must already know.")] = []
    special_skill_capacity: Annotated[int, Meta(description="Special Skill capacity needed.")] = 0
    not_captain: Annotated[bool, Meta(description="Not for the Captain.")] = False
    starting_only: Annotated[bool, Meta(description="Only as a starting skill.")] = False


class SkillLearned(Event, kw_only=True, tag="skill.learned"):
    """A Pirate learned a skill from its master in Port, for 7 Time Units and the Coins and Fame the fold computes.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills, Coins; Skill Cost.
    Send `pirate_id`, `skill` and, when a crew member already knows it, `master_id`: the rest comes from the
    catalogue.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate who learns, by id.")]
    skill: Annotated[str, Meta(description="The skill.")]
    skill_class: Annotated[str, Meta(description="The skill's class.")]
    teacher: Annotated[str, Meta(description="The master who teaches it.")]
    coins: Annotated[int, Meta(description="X: the single-class Coins of the skill's tier.")]
    fame: Annotated[int, Meta(description="X: the single-class Fame of the skill's tier.")]
    special: Annotated[bool, Meta(description="A Special Skill, which uses Special Skill capacity.")] = False
    voyage: Annotated[bool, Meta(description="A skill used in the Voyage Phase.")] = False
    unique: Annotated[bool, Meta(description="Only one Character may have it (Bosun, Constable).")] = False
    prerequisites: Annotated[SkillPrerequisites, Meta(description="What the Pirate needs first.")] = (
        SkillPrerequisites()
    )
    synergy: Annotated[list[str], Meta(description="Skills that take 10 Coins off the price.")] = []
    effects: Annotated[
        dict[str, int], Meta(description="Permanent changes: `charisma`, `action_points`, `destiny_points`, `salary`.")
    ] = {}
    master_id: Annotated[
        str | None, Meta(description="The crew member who already knew it (-15 Coins, -10 Fame; +5 Fame to them).")
    ] = None
    free: Annotated[
        bool, Meta(description="Learned through a game effect (Legendary Pirate's free skill): no Coins, Fame or Time.")
    ] = False

    EXAMPLES = ({"pirate_id": "mary", "skill": "Fencing", "master_id": "anne"},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class FeatGained(Event, kw_only=True, tag="feat.gained"):
    """A Pirate bought a Feat in Port, anywhere and for no Time Units.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills, Feats.
    Send `pirate_id` and `feat`: the cost and prerequisites come from the catalogue.
    """

    pirate_id: PirateId
    feat: Annotated[str, Meta(description="The Feat.")]
    coins: CostInCoins
    fame: Annotated[int, Meta(description="Its cost in Fame.")]
    requires: Annotated[
        dict[str, int],
        Meta(description="Counters and their minimum (`adventures_total_success`, `campaigns_completed`...)."),
    ] = {}

    EXAMPLES = ({"pirate_id": "anne", "feat": "Bravery"},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


__all__ = ["FeatGained", "SkillLearned", "SkillPrerequisites"]
