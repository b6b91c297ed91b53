"""Every other refusal of the fold, each with the sentence a player reads: given these events, when this one."""

import pytest

from tests.unit.pacg.pacg_world import HANDS, SCENARIO, SETUP, START, card, character_card, fold, move, rejection, zone

PLAYING = [*SETUP, *START]
ENDED = [*PLAYING, {"type": "scenario.ended", "data": {"result": "won"}}]
LOST = [
    *SETUP,
    *START,
    {"type": "character.died", "data": {"character_id": "merisiel"}},
    {"type": "character.died", "data": {"character_id": "valeros"}},
]


def ev(type_, **data):
    return {"type": type_, "data": data}


def join(who, name):
    return ev("character.joined", character_id=who, name=name, player="Pat", card=character_card(name))


def scenario(**changes):
    return ev("scenario.started", **dict(SCENARIO["data"], **changes))


SHARK = zone("location", location="Shark Island")

CASES = [
    # characters
    (
        "a character without a deck does not play",
        [*SETUP, join("lem", "Lem"), *START],
        ev("hourglass.advanced", character_id="lem"),
        "Lem is not playing Island Hopping.",
    ),
    (
        "a seventh character",
        [*SETUP, *[join(f"c{i}", f"C{i}") for i in range(4)]],
        join("c9", "C9"),
        "C9 cannot join: the game holds at most 6 characters at once.",
    ),
    (
        "joining mid-scenario",
        PLAYING,
        join("lem", "Lem"),
        "Lem cannot join during the scenario Island Hopping; join between scenarios.",
    ),
    (
        "moving to a location not in play",
        PLAYING,
        ev("character.moved", character_id="merisiel", to="Fog Bank"),
        "Fog Bank is not a location of Island Hopping.",
    ),
    (
        "sailing along before the first turn",
        PLAYING,
        ev("character.moved", character_id="merisiel", to="Tempest Cay", moved_with=["valeros"]),
        "Before the first turn each player places her own token; nobody sails along.",
    ),
    (
        "starting away from an anchored ship",
        [*SETUP, scenario(anchored_at="Tempest Cay")],
        ev("character.moved", character_id="merisiel", to="Shark Island"),
        "The Merchantman is anchored at Tempest Cay, so every character starts there, not at Shark Island.",
    ),
    (
        "taking others along off one's turn",
        [*PLAYING, ev("hourglass.advanced", character_id="valeros")],
        ev("character.moved", character_id="merisiel", to="Tempest Cay", moved_with=["valeros"]),
        "Only the character whose turn it is commands the ship; Merisiel cannot take others along.",
    ),
    (
        "sailing an anchored ship",
        [*PLAYING, ev("ship.anchored", location="Shark Island"), ev("hourglass.advanced", character_id="merisiel")],
        ev("character.moved", character_id="merisiel", to="Tempest Cay", moved_with=["valeros"]),
        "The Merchantman is anchored at Shark Island: nobody can sail along with Merisiel.",
    ),
    (
        "negative damage",
        PLAYING,
        ev("damage.dealt", character_id="merisiel", amount=-1),
        "Merisiel cannot be dealt -1 damage.",
    ),
    (
        "reviving the living",
        PLAYING,
        ev("character.revived", character_id="merisiel"),
        "Merisiel is alive; only the dead return from death.",
    ),
    (
        "reviving by a card after the scenario",
        [*PLAYING, ev("character.died", character_id="merisiel"), ev("scenario.ended", result="lost")],
        ev("character.revived", character_id="merisiel"),
        "Merisiel can return from death by a card's power only during the scenario she died in; after it, spend hero points (hero_point.spent for return_from_death).",
    ),
    (
        "reviving in a lost scenario",
        LOST,
        ev("character.revived", character_id="merisiel"),
        "Island Hopping was lost (every character is dead) and ended at once: nothing more is explored, moved or dealt in it; the next scenario starts anew.",
    ),
    (
        "a hero point for the dead",
        [*PLAYING, ev("character.died", character_id="merisiel")],
        ev("hero_point.awarded", character_id="merisiel"),
        "Merisiel is dead and cannot be awarded a hero point.",
    ),
    (
        "returning from death during the scenario",
        [
            *SETUP,
            ev("hero_point.awarded", character_id="merisiel"),
            *START,
            ev("character.died", character_id="merisiel"),
        ],
        ev("hero_point.spent", character_id="merisiel", **{"for": "return_from_death"}),
        "Merisiel can spend hero points to return from death only after the scenario ends.",
    ),
    (
        "returning from an old death",
        [
            *SETUP,
            ev("hero_point.awarded", character_id="merisiel"),
            *START,
            ev("character.died", character_id="merisiel"),
            ev("scenario.ended", result="lost"),
            ev(
                "deck.rebuilt",
                character_id="valeros",
                cards=[
                    "Longsword",
                    "Cutlass",
                    "Find Traps",
                    "Leather Armor",
                    "Eye Patch",
                    "Carver",
                    "Blessing of the Gods",
                    "Blessing of the Gods",
                ],
            ),
            *START[:1],
            ev("plunder.stashed", roll=1),
            ev("scenario.ended", result="lost"),
        ],
        ev("hero_point.spent", character_id="merisiel", **{"for": "return_from_death"}),
        "Merisiel's death is permanent: it was not in the scenario just played.",
    ),
    # decks
    (
        "an unknown character's deck",
        SETUP[:1],
        ev("deck.built", character_id="lem", cards=[]),
        "No character lem has joined this campaign (characters: none yet).",
    ),
    (
        "building during a scenario",
        [*SETUP, join("lem", "Lem"), *START],
        ev("deck.built", character_id="lem", cards=[]),
        "Lem's deck cannot be built during the scenario Island Hopping.",
    ),
    (
        "rebuilding the dead",
        [*PLAYING, ev("character.died", character_id="merisiel"), ev("scenario.ended", result="lost")],
        ev("deck.rebuilt", character_id="merisiel", cards=[]),
        "Merisiel is dead; a dead character's deck is not rebuilt.",
    ),
    # feats and loot
    (
        "loot for the dead",
        [*PLAYING, ev("character.died", character_id="merisiel"), ev("scenario.ended", result="won")],
        ev("loot.awarded", card="Sea Devil's Sabre", to="merisiel"),
        "Merisiel is dead and cannot take Sea Devil's Sabre.",
    ),
    # fleet
    (
        "stashing with no scenario",
        SETUP,
        ev("plunder.stashed", roll=1),
        "No scenario is in progress, so nothing can be stashed.",
    ),
    (
        "stashing after the loss",
        LOST,
        ev("plunder.stashed", roll=1),
        "Island Hopping was lost (every character is dead) and ended at once: nothing more is explored, moved or dealt in it; the next scenario starts anew.",
    ),
    (
        "plunder of a type that is not plunder",
        [*SETUP, *START[:1]],
        ev("plunder.stashed", roll=6, card_type="blessing"),
        "Plunder is a weapon, spell, armor, item or ally, never a blessing.",
    ),
    (
        "a peeked plunder of the wrong type",
        PLAYING,
        ev("plunder.banished", card_type="weapon", card="Cure"),
        "Cure is a spell, not a weapon.",
    ),
    (
        "negative Structural damage",
        PLAYING,
        ev("ship.damaged", amount=-1),
        "Structural damage and the damage prevented are never negative.",
    ),
    (
        "preventing more than was dealt",
        PLAYING,
        ev("ship.damaged", amount=1, prevented=2),
        "Only 1 Structural damage was dealt; 2 cannot be prevented.",
    ),
    (
        "seizing one's own ship",
        PLAYING,
        ev("ship.seized", ship="Merchantman"),
        "The party already sails the Merchantman.",
    ),
    (
        "anchoring off the map",
        PLAYING,
        ev("ship.anchored", location="Fog Bank"),
        "Fog Bank is not a location of Island Hopping.",
    ),
    # scenarios
    ("closing with no scenario", SETUP, ev("location.closed", location="Shark Island"), "No scenario is in progress."),
    (
        "closing after the loss",
        LOST,
        ev("location.closed", location="Shark Island"),
        "Island Hopping was lost (every character is dead) and ended at once: nothing more is explored, moved or dealt in it; the next scenario starts anew.",
    ),
    (
        "an adventure mid-scenario",
        PLAYING,
        ev("adventure.started", adventure="The Wormwood Mutiny"),
        "The Wormwood Mutiny cannot begin during the scenario Island Hopping.",
    ),
    (
        "the same adventure twice",
        [*SETUP, ev("adventure.started", adventure="Plunder and Peril", scenarios=[])],
        ev("adventure.started", adventure="Plunder and Peril"),
        "The party is already playing Plunder and Peril.",
    ),
    (
        "an adventure deck already in the vault",
        SETUP,
        ev("adventure.started", adventure="The Wormwood Mutiny", product="B", cards=[card("X", "monster", 1)]),
        "Product B is already in the vault.",
    ),
    ("a scenario with nobody", SETUP[:1], SCENARIO, "Island Hopping needs at least one living character with a deck."),
    ("a scenario without locations", SETUP, scenario(locations=[]), "Island Hopping needs at least one location."),
    (
        "a location listed twice",
        SETUP,
        scenario(locations=[{"name": "Fog Bank"}, {"name": "Fog Bank"}]),
        "Island Hopping lists a location twice: Fog Bank, Fog Bank.",
    ),
    (
        "anchoring off the scenario's map",
        SETUP,
        scenario(anchored_at="Fog Bank"),
        "The ship cannot be anchored at Fog Bank: it is not a location of Island Hopping.",
    ),
    (
        "a negative deck list",
        SETUP,
        scenario(locations=[{"name": "Fog Bank", "deck": {"monster": -1}}]),
        "Fog Bank cannot hold -1 monster cards.",
    ),
    (
        "a scenario of no adventure begun",
        SETUP,
        scenario(adventure="Plunder and Peril"),
        "Island Hopping cannot be played as part of Plunder and Peril: no adventure has begun.",
    ),
    (
        "a scenario not of the adventure",
        [*SETUP, ev("adventure.started", adventure="Plunder and Peril", scenarios=["A"])],
        scenario(adventure="Plunder and Peril"),
        "Island Hopping is not a scenario of Plunder and Peril.",
    ),
    (
        "a turn before the token is placed",
        [*SETUP, *START[:2]],
        ev("hourglass.advanced", character_id="merisiel"),
        "Place Merisiel's token at a location before Merisiel's first turn.",
    ),
    (
        "a hour that is not a blessing",
        PLAYING,
        ev("hourglass.advanced", character_id="merisiel", card="Dagger"),
        "Dagger is not a blessing; the hourglass holds only blessings.",
    ),
    (
        "closing a location not in play",
        PLAYING,
        ev("location.closed", location="Fog Bank"),
        "Fog Bank is not a location of Island Hopping.",
    ),
    (
        "closing temporarily twice",
        [
            *PLAYING,
            move("Jemma Redclaw", "reveal", zone("location", location="Tempest Cay"), zone("encounter")),
            ev("location.closed", location="Shark Island", temporary=True),
        ],
        ev("location.closed", location="Shark Island", temporary=True),
        "Shark Island is already temporarily closed for this encounter.",
    ),
    # the vault
    (
        "a negative count",
        [],
        ev("card.defined", card=card("X", "monster", -1)),
        "X cannot arrive -1 times: a count is never negative.",
    ),
    (
        "loot without its type",
        [],
        ev("card.defined", card=card("X", "loot", 1)),
        "The loot card X must say the type it counts as (loot_type).",
    ),
    (
        "a card of two types",
        SETUP[:1],
        ev("card.defined", card=card("Dagger", "spell", 1)),
        "Dagger is already a weapon in this campaign; it cannot also be a spell.",
    ),
    ("a product twice", SETUP[:1], SETUP[0], "Product B is already in the vault; its cards are there once."),
    # card moves
    (
        "a zone of nobody",
        PLAYING,
        move("Dagger", "draw", zone("deck", "lem"), zone("hand", "lem")),
        "No character lem has joined this campaign.",
    ),
    (
        "a character zone without its character",
        PLAYING,
        move("Dagger", "draw", zone("deck"), zone("hand", "merisiel")),
        "A card in a deck zone needs the character_id it belongs to.",
    ),
    (
        "a shared zone with a character",
        PLAYING,
        move("Dagger", "banish", zone("encounter", "merisiel"), zone("vault")),
        "The encounter belongs to no character; leave out character_id.",
    ),
    (
        "a location zone without its name",
        PLAYING,
        move("Dagger", "banish", zone("location"), zone("vault")),
        "A card in a location zone needs the location's name.",
    ),
    (
        "stashing a named card",
        PLAYING,
        move("Cure", "stash", zone("vault"), zone("plunder")),
        "A plunder card is stashed face down: give its type as {hidden: type}, not its name.",
    ),
    (
        "summoning face down",
        PLAYING,
        move({"hidden": "monster"}, "summon", zone("vault"), zone("encounter")),
        "Name the card you summon; a summoned card is read at once.",
    ),
    (
        "examining without a name",
        PLAYING,
        move({"hidden": "monster"}, "reveal", SHARK, SHARK),
        "Name the card revealed in the Shark Island location deck.",
    ),
    (
        "banishing a dealt card unseen",
        PLAYING,
        move({"hidden": "dealt"}, "banish", SHARK, zone("vault")),
        "A face-down dealt card cannot go back to the vault unseen: reveal it first, since nobody knows whether it is the villain.",
    ),
    (
        "taking dealt cards from the vault",
        PLAYING,
        move({"hidden": "dealt"}, "stash", zone("vault"), zone("plunder")),
        "The vault holds no dealt cards; name a card type to take face down.",
    ),
]


@pytest.mark.parametrize(("given", "when", "then"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_the_fold_refuses_with_a_sentence_naming_what_is_wrong(given, when, then):
    assert rejection(fold(*given), when) == then


# A campaign whose log holds the whole box (option box: counted) refuses copies it did not count.
COUNTED_CASES = [
    (
        "a card whose copies are all face down",
        [*SETUP, scenario(locations=[{"name": "Shark Island", "deck": {"armor": 1}}])],
        move("Leather Armor", "draw", zone("vault"), zone("hand", "merisiel")),
        "Leather Armor cannot come out of the vault: every armor left there has been dealt out face down.",
    ),
    (
        "revealing a card whose copies are all accounted for",
        [
            *SETUP,
            ev("card.defined", card=card("Buckler", "armor", 1, "Basic")),
            scenario(locations=[{"name": "Shark Island", "deck": {"armor": 1}}]),
            move("Leather Armor", "draw", zone("vault"), zone("hand", "merisiel")),
        ],
        move("Leather Armor", "reveal", SHARK, zone("encounter")),
        "The face-down armor cannot be Leather Armor: every copy of Leather Armor is accounted for (Merisiel's deck, Merisiel's hand and Valeros's deck).",
    ),
]


@pytest.mark.parametrize(
    ("given", "when", "then"), [case[1:] for case in COUNTED_CASES], ids=[c[0] for c in COUNTED_CASES]
)
def test_a_counted_box_refuses_copies_it_did_not_count(given, when, then):
    assert rejection(fold(*given, options={"box": "counted"}), when) == then


def test_an_unknown_event_type_is_refused():
    from quartermaster.events.base import Event
    from quartermaster.projections.game import Meta, Rejection
    from quartermaster.projections.pacg import apply

    class Unknown(Event, tag="unknown.thing"):
        pass

    with pytest.raises(Rejection, match="A Skull & Shackles campaign does not know the event Unknown."):
        apply(fold(*SETUP), Unknown(), Meta(9))


def test_a_scenario_lost_to_the_hourglass_ends_at_once():
    state = fold(*SETUP, *START, *HANDS, options={"hourglass": 1})
    state = fold(
        ev("hourglass.advanced", character_id="merisiel"), ev("hourglass.advanced", character_id="valeros"), state=state
    )
    assert rejection(state, ev("hourglass.advanced", character_id="merisiel")) == (
        "Island Hopping was lost (the hourglass had no card left to advance) and ended at once: nothing more is "
        "explored, moved or dealt in it; the next scenario starts anew."
    )


def test_a_counted_box_needs_as_many_blessings_as_the_hourglass_holds():
    reason = rejection(fold(*SETUP, options={"hourglass": 35, "box": "counted"}), SCENARIO)
    assert reason == "The vault has 34 blessing cards left face down to deal, not 35."
