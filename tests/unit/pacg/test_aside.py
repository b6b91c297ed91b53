"""A character set aside between scenarios (her deck written down, its cards back in the box) and brought back with
the same cards (Skull & Shackles Rulebook, Between Games)."""

from collections import Counter

from hypothesis import given, strategies as st

from quartermaster.events.pacg import CharacterBroughtBack, CharacterSetAside
from quartermaster.projections.game import Meta, overriding, step
from quartermaster.projections.pacg import GAME
from quartermaster.projections.pacg.zones import character_cards
from tests.unit.pacg.laws import PROPERTY, Checked, conserved
from tests.unit.pacg.pacg_world import (
    MERISIEL_DECK,
    SETUP,
    START,
    VALEROS_DECK,
    character_card,
    fold,
    from_payload,
    move,
    rejection,
    zone,
)

character = GAME.views["character"].read
vault = GAME.views["vault"].read


def aside(who, cards):
    return {"type": "character.set_aside", "data": {"character_id": who, "cards": cards}}


def back(who):
    return {"type": "character.brought_back", "data": {"character_id": who}}


def test_setting_a_character_aside_writes_her_deck_down_and_returns_its_cards_to_the_vault():
    before = fold(*SETUP)
    state = fold(aside("merisiel", MERISIEL_DECK), state=before)
    sheet = character(state, character_id="merisiel")
    assert sheet["aside"] == sorted(MERISIEL_DECK)
    assert sum(sheet["counts"].values()) == 0
    assert vault(state)["cards"]["Dagger"] == vault(before)["cards"]["Dagger"] + 1
    assert not state.characters["merisiel"].has_deck


def test_bringing_a_character_back_takes_the_same_cards_out_of_the_vault():
    before = fold(*SETUP)
    state = fold(aside("merisiel", MERISIEL_DECK), back("merisiel"), state=before)
    assert character_cards(state, "merisiel") == character_cards(before, "merisiel")
    assert state.zones == before.zones
    assert character(state, character_id="merisiel")["aside"] is None


def test_the_list_written_down_must_be_every_card_she_holds():
    reason = rejection(fold(*SETUP), aside("merisiel", MERISIEL_DECK[:-1] + ["Cutlass"]))
    assert reason == (
        "The list written down for Merisiel must be every card she holds (8): it leaves out Blessing of the Gods; "
        "it names Cutlass she does not hold."
    )


def test_a_character_playing_a_scenario_is_not_set_aside_until_it_ends():
    reason = rejection(fold(*SETUP, *START), aside("merisiel", MERISIEL_DECK))
    assert reason == (
        "Merisiel is playing Island Hopping; set her aside once it has ended (Skull & Shackles Rulebook, "
        "Between Games)."
    )


def test_a_set_aside_character_plays_no_scenario_and_has_no_deck_built_for_her():
    state = fold(*SETUP, aside("merisiel", MERISIEL_DECK))
    assert state.characters["merisiel"].has_deck is False
    started = fold(START[0], state=state)
    assert started.scenario is not None and started.scenario.party == ["valeros"]
    reason = rejection(state, {"type": "deck.built", "data": {"character_id": "merisiel", "cards": MERISIEL_DECK}})
    assert reason == (
        "Merisiel is set aside with her deck written down; bring her back (character.brought_back) before building "
        "or rebuilding her deck."
    )


def test_bringing_her_back_is_refused_with_the_copies_another_deck_now_holds():
    # Valeros is set aside; Lem joins and takes both Longswords out of the box, Valeros's among them.
    lem_deck = ["Longsword", "Longsword", "Cure", "Leather Armor", "Rum Bottle", "Sailor"] + [
        "Blessing of the Gods"
    ] * 2
    state = fold(
        *SETUP,
        aside("valeros", VALEROS_DECK),
        {
            "type": "character.joined",
            "data": {"character_id": "lem", "name": "Lem", "player": "Cy", "card": character_card("Lem")},
        },
        {"type": "deck.built", "data": {"character_id": "lem", "cards": lem_deck}},
    )
    reason = rejection(state, back("valeros"))
    assert reason == (
        "Valeros cannot come back with her whole deck: the Longsword is not in the vault (Lem's deck). Give the "
        "copies back to the box, or bring her back anyway and rebuild her deck."
    )
    with overriding("We play with a proxy Longsword until the rebuild"):
        returned = step(GAME, state, from_payload(back("valeros")), Meta(999))
    assert Counter(character_cards(returned, "valeros")) == Counter(VALEROS_DECK) - Counter(["Longsword"])
    assert returned.characters["valeros"].has_deck


def test_only_a_character_set_aside_is_brought_back():
    assert rejection(fold(*SETUP), back("merisiel")) == "Merisiel is not set aside; her cards are already hers."


@PROPERTY
@given(st.randoms(use_true_random=False), st.integers(1, 3))
def test_set_aside_then_back_yields_the_same_deck_with_every_card_in_exactly_one_place(rng, scenarios):
    campaign = Checked(rng, conserved)
    campaign.play(scenarios)
    living = [who for who, found in campaign.state.characters.items() if found.alive and found.has_deck]
    decks = {who: Counter(character_cards(campaign.state, who)) for who in living}
    rng.shuffle(living)
    for who in living:
        cards = [name for name, count in decks[who].items() for _ in range(count)]
        rng.shuffle(cards)
        campaign.emit(CharacterSetAside(character_id=who, cards=cards))
        assert not character_cards(campaign.state, who)
    rng.shuffle(living)
    for who in living:
        campaign.emit(CharacterBroughtBack(character_id=who))
        assert Counter(character_cards(campaign.state, who)) == decks[who]


def test_a_face_down_card_she_holds_is_named_before_her_deck_is_written_down():
    unnamed = move({"hidden": "weapon"}, "draw", zone("vault"), zone("hand", "merisiel"))
    state = fold(*SETUP, *START, unnamed, {"type": "scenario.ended", "data": {"result": "lost"}})

    reason = rejection(state, aside("merisiel", MERISIEL_DECK))

    assert reason == (
        "Merisiel holds cards nobody has named (weapon face down): name them before her deck is written down."
    )
