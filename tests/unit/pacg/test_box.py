"""The open box: a group starts with what the catalogue knows, and a card becomes known when the table names it.

Skull & Shackles Rulebook, Organizing Your Cards (the box holds every card, sorted by type); Card Setup (location
decks dealt face down by type, 30 random blessings for the blessings deck); Summoning and Adding Cards.
"""

from quartermaster.service.application.catalog import pacg as catalogue
from tests.unit.pacg.pacg_world import SETUP, START, card, fold, move, rejection, zone

SHARK = zone("location", location="Shark Island")
CATALOG = catalogue.load()


def ev(type_, **data):
    return {"type": type_, "data": catalogue.expand(CATALOG, type_, data)}


def explore(name, who="merisiel", **extra):
    found = move(name, "reveal", SHARK, zone("encounter"))
    found["data"].update(explorer=who, **extra)
    return found


def playing(options=None):
    return fold(*SETUP, *START, {"type": "hourglass.advanced", "data": {"character_id": "merisiel"}}, options=options)


def test_a_group_starts_island_hopping_with_the_catalogue_alone():
    # Given the base set as the catalogue knows it (no monster, barrier or location deck list, 5 blessings)
    # and four characters from the catalogue, with the hand sizes the catalogue lacks given once at join
    events = [ev("vault.products_added", product="B")]
    for who, hand in (("lirianne", None), ("seltyiel", None), ("alahazra", None), ("jirelle", 5)):
        joined = {"character_id": who, "player": who.title()}
        if hand is not None:
            joined["card"] = {"hand_size": hand}
        events.append(ev("character.joined", **joined))
    for who in ("lirianne", "seltyiel", "alahazra", "jirelle"):
        entry = CATALOG["by"]["character"][who]
        cards = [name for names in entry["suggested_deck"].values() for name in names]
        events.append(ev("deck.built", character_id=who, cards=cards))
    # When Island Hopping starts on its own, its location decks given by type as printed on the location cards
    island = ev(
        "scenario.started",
        scenario="Island Hopping",
        locations=[
            {"name": name, "deck": {"monster": 3, "barrier": 2, "weapon": 1, "item": 1, "ally": 1, "blessing": 1}}
            for name in ("Floating Shipyard", "Shark Island", "Lonely Island", "Tempest Cay")
        ],
    )
    state = fold(*events, island)
    # Then the hourglass holds the 30 blessings the rules give, each location its 9 face-down cards, and the
    # villain is dealt face down (the catalogue knows no henchman of Island Hopping)
    assert state.scenario.adventure is None
    assert state.zones["hourglass"].hidden == {"blessing": 30}
    assert state.zones["location:Shark Island"].hidden == {
        "monster": 3,
        "barrier": 2,
        "weapon": 1,
        "item": 1,
        "ally": 1,
        "blessing": 1,
    }
    assert state.zones["dealt"].known == {"Adaro Barbarian": 1}
    # And the cards that come up are named as they come up
    state = fold(
        {"type": "plunder.stashed", "data": {"roll": 2}},
        *[
            {"type": "character.moved", "data": {"character_id": who, "to": "Shark Island"}}
            for who in ("lirianne", "seltyiel", "alahazra", "jirelle")
        ],
        {"type": "hourglass.advanced", "data": {"character_id": "lirianne", "card": "Blessing of Abadar"}},
        ev("card.moved", **explore("Dire Rat", who="lirianne")["data"]),
        state=state,
    )
    assert state.cards["Dire Rat"].type == "monster"
    assert state.zones["encounter"].known == {"Dire Rat": 1}
    assert state.cards["Blessing of Abadar"].type == "blessing"


def test_a_card_the_table_names_for_the_first_time_becomes_known_with_its_type():
    # Given Merisiel exploring Shark Island, whose face-down monsters the log cannot name
    # When she reveals a Sea Devil, a card no product brought, saying it is a monster
    state = fold(explore("Sea Devil", card_type="monster"), state=playing())
    # Then the Sea Devil is a monster of this campaign, one copy, in the encounter, and one face-down monster fewer
    assert state.cards["Sea Devil"].type == "monster"
    assert state.copies["Sea Devil"] == 1
    assert state.zones["encounter"].known == {"Sea Devil": 1}
    assert state.zones["location:Shark Island"].hidden["monster"] == 1


def test_naming_an_unknown_card_without_its_type_is_refused():
    assert rejection(playing(), explore("Sea Devil")) == (
        "Quartermaster knows no card named Sea Devil: say its type (card_type) the first time the table names it."
    )


def test_a_card_keeps_the_type_it_became_known_with():
    state = fold(
        explore("Sea Devil", card_type="monster"),
        move("Sea Devil", "banish", zone("encounter"), zone("vault")),
        state=playing(),
    )
    assert rejection(state, explore("Sea Devil", card_type="barrier", explore_again=True)) == (
        "Sea Devil is a monster in this campaign, not a barrier."
    )


def test_the_open_box_gives_up_more_copies_than_the_products_listed():
    # Given a vault whose known Dire Rats are all dealt or elsewhere: the base set holds 8 in this box
    state = playing()
    for _ in range(8):
        state = fold(
            move("Dire Rat", "summon", zone("vault"), zone("encounter")),
            move("Dire Rat", "display", zone("encounter"), zone("displayed", "merisiel")),
            state=state,
        )
    # When a face-down monster of Shark Island turns out to be a ninth Dire Rat
    state = fold(explore("Dire Rat"), state=state)
    # Then the log learns a ninth copy, and every copy it knows is in one zone
    assert state.copies["Dire Rat"] == 9
    assert state.zones["encounter"].known == {"Dire Rat": 1}
    assert state.zones["merisiel:displayed"].known["Dire Rat"] == 8


def test_an_unknown_villain_and_henchman_become_known_as_the_scenario_card_calls_them():
    state = fold(
        *SETUP,
        {
            "type": "scenario.started",
            "data": {
                "scenario": "Island Hopping",
                "villains": ["Adaro Barbarian"],
                "henchmen": ["Hammerhead Sharks"],
                "locations": [
                    {"name": "Shark Island", "deck": {"monster": 1}},
                    {"name": "Tempest Cay", "deck": {"monster": 1}},
                ],
            },
        },
    )
    assert state.cards["Adaro Barbarian"].type == "villain"
    assert state.cards["Hammerhead Sharks"].type == "henchman"
    assert state.zones["dealt"].known == {"Adaro Barbarian": 1, "Hammerhead Sharks": 1}


def test_a_counted_box_refuses_a_card_it_does_not_know():
    reason = rejection(playing({"box": "counted"}), explore("Sea Devil", card_type="monster"))
    assert reason == (
        "Quartermaster knows no card named Sea Devil, and this campaign counts every card of its vault: add it with "
        "card.defined first."
    )


def test_blessings_deck_and_location_decks_need_no_known_copies_in_an_open_box():
    # Given a box that knows only the characters' cards: no monster and 2 blessings beyond the decks
    box = [entry for entry in SETUP[0]["data"]["cards"] if entry["type"] not in ("monster", "barrier", "blessing")]
    box.append(card("Blessing of the Gods", "blessing", 6, "Basic"))
    setup = [{"type": "vault.products_added", "data": {"product": "B", "cards": box}}, *SETUP[1:]]
    # When the scenario deals 30 blessings and face-down monsters
    state = fold(*setup, START[0])
    # Then the face-down cards are out of the box, counted by type
    assert state.face_down_out["blessing"] == 30 + 2
    assert state.zones["location:Tempest Cay"].hidden["monster"] == 2
