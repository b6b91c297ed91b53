"""The villain's end-game and closing locations: who closes, how, and when the closures end.

Skull & Shackles Rulebook, Encountering a Villain; Closing a Location (New: Henchmen and Closing Locations);
Summoning and Adding Cards; Encountering a Card (Apply Any Evasion Effects).
"""

from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import SETUP, START, fold, move, rejection, zone

scenario_view = GAME.views["scenario"].read

SHARK = zone("location", location="Shark Island")
ENCOUNTER = zone("encounter")
VAULT = zone("vault")
ISLANDS = [
    {"name": "Shark Island", "deck": {"monster": 1, "blessing": 1}},
    {"name": "Tempest Cay", "deck": {"monster": 1}},
    {"name": "Fog Bank", "deck": {"monster": 1}},
    {"name": "Lonely Island", "deck": {"monster": 1}},
]


def ev(type_, **data):
    return {"type": type_, "data": data}


def four_islands():
    """Merisiel at Shark Island, Valeros at Tempest Cay; Jemma Redclaw and three Buccaneers dealt among four."""
    return fold(
        *SETUP,
        ev(
            "scenario.started",
            scenario="Island Hopping",
            locations=ISLANDS,
            villains=["Jemma Redclaw"],
            henchmen=["Buccaneer"],
        ),
        *START[1:3],
        ev("character.moved", character_id="valeros", to="Tempest Cay"),
        ev("hourglass.advanced", character_id="merisiel"),
    )


def meets_jemma():
    explore = move("Jemma Redclaw", "reveal", SHARK, ENCOUNTER)
    explore["data"]["explorer"] = "merisiel"
    return fold(explore, state=four_islands())


def statuses(state):
    return {loc["name"]: loc["status"] for loc in scenario_view(state)["locations"]}


# ------------------------------------------------------------------------------------------- temporary closures


def test_a_character_at_another_location_temporarily_closes_it_while_the_villain_is_encountered():
    state = fold(ev("location.closed", location="Tempest Cay", temporary=True, by="valeros"), state=meets_jemma())
    assert statuses(state)["Tempest Cay"] == "temporarily closed"
    assert state.scenario.villain_at == "Shark Island"


def test_no_temporary_closure_without_a_villain_encounter():
    assert rejection(four_islands(), ev("location.closed", location="Tempest Cay", temporary=True)) == (
        "Tempest Cay can be closed temporarily only while a character encounters the villain, so that the villain "
        "cannot escape there."
    )


def test_a_temporary_closure_needs_a_character_at_that_location():
    assert rejection(meets_jemma(), ev("location.closed", location="Fog Bank", temporary=True)) == (
        "Nobody is at Fog Bank: each character at another location may temporarily close her own location."
    )
    assert rejection(meets_jemma(), ev("location.closed", location="Fog Bank", temporary=True, by="valeros")) == (
        "Valeros is at Tempest Cay, not at Fog Bank: each character at another location may temporarily close her "
        "own location."
    )


def test_the_villains_own_location_is_not_closed_temporarily():
    assert rejection(meets_jemma(), ev("location.closed", location="Shark Island", temporary=True)) == (
        "The villain is encountered at Shark Island: characters at the other locations temporarily close theirs; "
        "the villain's own location closes only if the villain is defeated."
    )


def test_evading_the_villain_ends_the_encounter_and_its_temporary_closures():
    # Given Valeros's temporary closure while Merisiel encounters Jemma
    state = fold(ev("location.closed", location="Tempest Cay", temporary=True, by="valeros"), state=meets_jemma())
    # When Merisiel evades Jemma, then the encounter is over and Tempest Cay is open again
    state = fold(ev("encounter.ended", card="Jemma Redclaw", outcome="evaded"), state=state)
    assert statuses(state)["Tempest Cay"] == "open"
    # And Jemma is shuffled back into Shark Island
    state = fold(move("Jemma Redclaw", "shuffle", ENCOUNTER, SHARK), state=state)
    assert state.scenario.villain_at is None


# ------------------------------------------------------------------------------------------- defeat and escape


def test_a_defeated_villains_location_closes_first_and_she_escapes_to_the_open_locations():
    # Given Valeros temporarily closes Tempest Cay and Merisiel defeats Jemma at Shark Island
    state = fold(
        ev("location.closed", location="Tempest Cay", temporary=True, by="valeros"),
        ev("encounter.ended", card="Jemma Redclaw", outcome="defeated"),
        state=meets_jemma(),
    )
    escape = ev("villain.escaped", villain="Jemma Redclaw", to=["Fog Bank", "Lonely Island"])
    # When she escapes before Shark Island closes, then it is refused
    assert rejection(state, escape) == (
        "Jemma Redclaw was defeated at Shark Island: the villain's location closes first (location.closed), then "
        "the villain escapes into the other open locations (Encountering a Villain)."
    )
    # When Shark Island closes, then she escapes to Fog Bank and Lonely Island with 1 blessing from the vault
    state = fold(ev("location.closed", location="Shark Island", by="merisiel", how="villain"), escape, state=state)
    assert statuses(state) == {
        "Shark Island": "closed",
        "Tempest Cay": "open",
        "Fog Bank": "open",
        "Lonely Island": "open",
    }
    assert state.zones["dealt"].hidden == {"blessing": 1}
    assert state.scenario.villain_at is None


def test_a_defeated_villain_is_never_shuffled_back():
    state = fold(ev("encounter.ended", card="Jemma Redclaw", outcome="defeated"), state=meets_jemma())
    assert rejection(state, move("Jemma Redclaw", "shuffle", ENCOUNTER, SHARK)) == (
        "Jemma Redclaw was defeated: a defeated villain is never shuffled back into a location deck. Its location "
        "closes, then it escapes into the open locations (villain.escaped), or the party wins."
    )


def test_an_undefeated_villain_escapes_into_the_open_locations_her_own_included():
    state = fold(ev("encounter.ended", card="Jemma Redclaw", outcome="undefeated"), state=meets_jemma())
    assert rejection(state, move("Jemma Redclaw", "shuffle", ENCOUNTER, SHARK)) == (
        "Jemma Redclaw is undefeated: an undefeated villain escapes into the open locations, shuffled with "
        "blessings from the hourglass (villain.escaped with defeated false)."
    )
    every = ["Shark Island", "Tempest Cay", "Fog Bank", "Lonely Island"]
    assert rejection(state, ev("villain.escaped", villain="Jemma Redclaw", to=every)) == (
        "Jemma Redclaw's encounter ended undefeated, not defeated: record villain.escaped as it ended."
    )
    state = fold(ev("villain.escaped", villain="Jemma Redclaw", to=every, defeated=False), state=state)
    assert state.zones["hourglass"].hidden == {"blessing": 29 - 3}


def test_an_escaping_villain_is_dealt_to_every_open_location():
    state = fold(
        ev("location.closed", location="Tempest Cay", temporary=True, by="valeros"),
        ev("encounter.ended", card="Jemma Redclaw", outcome="defeated"),
        ev("location.closed", location="Shark Island", how="villain"),
        state=meets_jemma(),
    )
    assert rejection(state, ev("villain.escaped", villain="Jemma Redclaw", to=[])) == (
        "Jemma Redclaw escapes to every open location, that is Fog Bank and Lonely Island."
    )


# ------------------------------------------------------------------------------------------- who closes, and how


def test_a_henchman_from_the_location_deck_lets_the_location_close():
    state = fold(
        move("Buccaneer", "reveal", SHARK, ENCOUNTER),
        move("Buccaneer", "banish", ENCOUNTER, VAULT),
        ev("location.closed", location="Shark Island", by="merisiel", how="henchman"),
        state=four_islands(),
    )
    assert statuses(state)["Shark Island"] == "closed"


def test_a_summoned_henchman_never_lets_a_location_close():
    state = fold(
        move("Buccaneer", "summon", VAULT, ENCOUNTER),
        move("Buccaneer", "banish", ENCOUNTER, VAULT),
        state=four_islands(),
    )
    assert rejection(state, ev("location.closed", location="Shark Island", by="merisiel", how="henchman")) == (
        "Shark Island cannot close for a henchman: no henchman from its deck has been defeated there this turn. A "
        "summoned henchman is part of no location deck and never lets a location close (Summoning and Adding "
        "Cards)."
    )


def test_an_empty_location_deck_lets_a_character_there_close_it():
    # Given Tempest Cay's monster banished, and its face-down dealt card still there
    cay = zone("location", location="Tempest Cay")
    state = fold(
        move("Dire Rat", "reveal", cay, ENCOUNTER), move("Dire Rat", "banish", ENCOUNTER, VAULT), state=four_islands()
    )
    assert rejection(state, ev("location.closed", location="Tempest Cay", by="merisiel", how="empty")) == (
        "Tempest Cay still holds 1 card: a location closes for an empty deck only once its deck has run out (Your "
        "Turn: Close a Location)."
    )
    # When its last card, a Buccaneer, is defeated, then only a character there may close it
    state = fold(
        move("Buccaneer", "reveal", cay, ENCOUNTER), move("Buccaneer", "banish", ENCOUNTER, VAULT), state=state
    )
    assert rejection(state, ev("location.closed", location="Tempest Cay", by="merisiel", how="empty")) == (
        "Merisiel is at Shark Island, not at Tempest Cay: a character at a location with no cards left may attempt "
        "to close it (Your Turn: Close a Location)."
    )
    # In the Close a Location step of her own turn: Valeros, there on Merisiel's turn, does not close it
    assert rejection(state, ev("location.closed", location="Tempest Cay", by="valeros", how="empty")).startswith(
        "Tempest Cay closes for its empty deck in the Close a Location step of the turn, by the character whose turn "
        "it is (Merisiel), not Valeros"
    )
    state = fold(
        ev("character.moved", character_id="merisiel", to="Tempest Cay"),
        ev("location.closed", location="Tempest Cay", by="merisiel", how="empty"),
        state=state,
    )
    assert statuses(state)["Tempest Cay"] == "closed"


def test_a_location_without_an_opportunity_does_not_close():
    assert rejection(four_islands(), ev("location.closed", location="Fog Bank")) == (
        "Fog Bank cannot be closed now: a location closes after a henchman from its deck is defeated, once its deck "
        "runs out, or when the villain is defeated there (Closing a Location); for a card or scenario that closes "
        "it, say how: power."
    )
