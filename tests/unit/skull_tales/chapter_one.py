"""A Skull Tales campaign's opening as the table logs it: plain `{type, data}` payloads, as a client posts them.

Chapter 1 ("The Secret of Captain Jones") is an Adventure only (Book I: Game Modes, Chapters); it makes Anne Captain. Chapter 2 is the whole
chapter: a Port phase (salaries, a skill learned with a master's discount, a ship upgrade, a trade), a Voyage (Trust
Points to Fame, a Mutiny) and an Adventure (a pirate falling Unconscious, an injury, a retirement). Chapter 3's Port
setup then pays the compensations. Names are catalogue keys: the service expands them before recording.

The card values below (attributes, Health, Salary, classes) are what the players read off their Character Cards;
the rulebook does not print them.
"""

from __future__ import annotations

from typing import Any


def event(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "data": data}


# The crew plays one Admiral setting: +2 Fame to each Pirate at the end of every Adventure (Appendix II: Admiral Mode and Cabin Boy Mode, Admiral Mode, Adventure Phase). Written out
# whole, as the recorded campaign.started carries it (campaign creation does not pass through the catalogue).
OPTIONS: dict[str, Any] = {
    "settings": [
        {
            "key": "admiral.adventure.critical_fail",
            "mode": "admiral",
            "phase": "adventure",
            "fame": 2,
            "text": "Critical Fail: any failed roll with at least two results of 1, roll on the Critical Fails Chart",
        }
    ]
}

CREW = [
    event(
        "pirate.recruited",
        pirate_id="anne",
        name="Anne",
        archetype="Captain's Daughter",
        player="ana",
        classes=["Duelist"],
        dominant_hand="right",
        attributes={
            "melee": 3,
            "ranged": 2,
            "strength": 3,
            "agility": 4,
            "intelligence": 3,
            "perception": 3,
            "charisma": 4,
        },
        action_points=4,
        health=5,
        destiny_points=3,
        salary=20,
        skills=["Fencing", "Deck Officer"],
        starting_gear=["Rapier"],
    ),
    event(
        "pirate.recruited",
        pirate_id="jack",
        name="Jack",
        archetype="Sea Dog",
        player="joe",
        classes=["Rowdy"],
        dominant_hand="right",
        attributes={
            "melee": 4,
            "ranged": 2,
            "strength": 4,
            "agility": 3,
            "intelligence": 2,
            "perception": 3,
            "charisma": 3,
        },
        action_points=4,
        health=6,
        destiny_points=2,
        salary=15,
        skills=["Fighter", "Gun Port Boarding"],
        starting_gear=["Axe"],
    ),
    event(
        "pirate.recruited",
        pirate_id="mary",
        name="Mary",
        archetype="Cutthroat",
        player="meg",
        classes=["Rogue", "Duelist"],
        dominant_hand="left",
        attributes={
            "melee": 3,
            "ranged": 3,
            "strength": 3,
            "agility": 4,
            "intelligence": 3,
            "perception": 3,
            "charisma": 3,
        },
        action_points=4,
        health=5,
        destiny_points=3,
        salary=15,
        skills=["Elusive", "Supplier"],
        starting_gear=["Dagger"],
    ),
]

CHAPTER_ONE = [
    event("chapter.started", number=1, title="The Secret of Captain Jones"),
    event("phase.started", phase="adventure"),
    event("fame.changed", pirate_id="anne", amount=80, source="goal"),
    event("coins.changed", pirate_id="anne", amount=60, source="goal"),
    event("fame.changed", pirate_id="jack", amount=45, source="enemy"),
    event("coins.changed", pirate_id="jack", amount=70, source="search_card"),
    event("fame.changed", pirate_id="mary", amount=70, source="goal"),
    event("coins.changed", pirate_id="mary", amount=120, source="goal"),
    event(
        "phase.ended",
        phase="adventure",
        outcome="success",
        degrees={"anne": "total_success", "jack": "total_success", "mary": "total_success"},
    ),
    event("captain.elected", pirate_id="anne", method="most_fame"),
    event("chapter.ended", number=1),
]

PORT = [
    event("chapter.started", number=2, title="Chapter 2"),
    event("phase.started", phase="port"),
    event("salary.collected", pirate_id="anne"),
    event("salary.collected", pirate_id="jack"),
    event("salary.collected", pirate_id="mary"),
    event("skill.learned", pirate_id="mary", skill="Fencing", master_id="anne"),
    event("ship.upgraded", pirate_id="anne", upgrade="Cannon"),
    event("goods.traded", pirate_id="anne", goods="Rum", quantity=2, direction="sell"),
    event("phase.ended", phase="port"),
]

VOYAGE = [
    event("phase.started", phase="voyage"),
    event("trust.changed", character_id="anne", amount=2, reason="resolved a Voyage Event"),
    event("trust.changed", character_id="jack", amount=6, reason="Fight Enemies"),
    event("trust.changed", character_id="mary", amount=4, reason="Helm"),
    event("mutiny.resolved", instigator="jack", bids={"jack": 3, "anne": 2}),
    event("trust.changed", character_id="mary", amount=3, reason="Cartography"),
    event("phase.ended", phase="voyage", outcome="success"),
]

# Jack's successor when the Adventure retires him (Book I: Permanent Injuries and Retirement, Character Retirement).
NED = event(
    "pirate.recruited",
    pirate_id="ned",
    name="Ned",
    archetype="Gunner",
    player="joe",
    classes=["Shooter"],
    attributes={
        "melee": 2,
        "ranged": 4,
        "strength": 3,
        "agility": 3,
        "intelligence": 3,
        "perception": 4,
        "charisma": 2,
    },
    action_points=4,
    health=5,
    destiny_points=2,
    salary=15,
    skills=["Fast Reload", "Artillery"],
    starting_gear=["Musket"],
    replaces="jack",
)

ADVENTURE = [
    event("phase.started", phase="adventure"),
    event("fame.changed", pirate_id="anne", amount=6, source="enemy"),
    event("coins.changed", pirate_id="anne", amount=10, source="search_card"),
    event("fame.changed", pirate_id="jack", amount=4, source="enemy"),
    event("coins.changed", pirate_id="jack", amount=8, source="fallen_enemy"),
    event("fame.changed", pirate_id="mary", amount=2, source="enemy"),
    event("pirate.unconscious", pirate_id="mary"),
    event(
        "dice.rolled",
        dice=[{"sides": 6, "face": 2}, {"sides": 6, "face": 3}, {"sides": 6, "face": 1}],
        total=6,
        target=3,
        successes=0,
        required=1,
        success=False,
        character_id="anne",
        purpose="revive",
    ),
    event("injury.suffered", pirate_id="mary", roll=4),
    event("pirate.unconscious", pirate_id="jack"),
    event(
        "dice.rolled",
        dice=[{"sides": 6, "face": 1}, {"sides": 6, "face": 2}, {"sides": 6, "face": 2}],
        total=5,
        target=3,
        successes=0,
        required=1,
        success=False,
        character_id="anne",
        purpose="revive",
    ),
    event("injury.suffered", pirate_id="jack", roll=1),
    event("pirate.unconscious", pirate_id="jack"),
    event(
        "dice.rolled",
        dice=[{"sides": 6, "face": 3}, {"sides": 6, "face": 1}, {"sides": 6, "face": 2}],
        total=6,
        target=3,
        successes=0,
        required=1,
        success=False,
        character_id="mary",
        purpose="revive",
    ),
    event("injury.suffered", pirate_id="jack", roll=6),
    event("pirate.retired", pirate_id="jack", reason="injury"),
    NED,
    event(
        "phase.ended",
        phase="adventure",
        outcome="success",
        degrees={"anne": "total_success", "mary": "partial_success", "ned": "partial_success"},
    ),
    event("captain.elected", pirate_id="anne", method="most_fame"),
    event("matelotage.done", retired_id="jack", new_id="ned", coins=28),
    event("chapter.ended", number=2),
]

NEXT_PORT = [event("chapter.started", number=3, title="Chapter 3"), event("phase.started", phase="port")]

CAMPAIGN = [*CREW, *CHAPTER_ONE, *PORT, *VOYAGE, *ADVENTURE, *NEXT_PORT]

# A third pirate for the Purge and penance tests: a Witch who knows Purge.
# Charisma 4: a Charisma 5 roll passes on a die of 2 or more (a total above 5, Book I: Dice Rolls, Charisma rolls).
WITCH = event(
    "pirate.recruited",
    pirate_id="tia",
    name="Tia",
    archetype="Witch",
    classes=["Mystic"],
    attributes={
        "melee": 2,
        "ranged": 2,
        "strength": 2,
        "agility": 3,
        "intelligence": 4,
        "perception": 3,
        "charisma": 4,
    },
    action_points=4,
    health=4,
    destiny_points=3,
    salary=10,
    skills=["Totem Magic", "Purge"],
    starting_gear=["Staff"],
)


# Solo Mode's start: the Lone Pirate (Anne, Captain by herself) draws 3 random Allies (Book I: Game Modes, Lone
# Pirates), logged before the campaign's first phase.
SOLO_ALLIES = [
    event(
        "ally.drawn",
        pirate_id="anne",
        ally_id=a.lower().replace(" ", "_"),
        archetype=a,
        charisma=2,
        salary=5,
        fame_cost=0,
    )
    for a in ("Cabin Boy", "Avenger", "Freedman")
]

# From a Port to the next chapter's Port: the Voyage and the Adventure sailed, every Pirate back with a total success.
ROUND_TRIP = [
    event("phase.ended", phase="port"),
    event("phase.started", phase="voyage"),
    event("phase.ended", phase="voyage"),
    event("phase.started", phase="adventure"),
    event(
        "phase.ended",
        phase="adventure",
        degrees={"anne": "total_success", "jack": "total_success", "mary": "total_success"},
    ),
    event("chapter.ended", number=2),
    event("chapter.started", number=3),
    event("phase.started", phase="port"),
]
