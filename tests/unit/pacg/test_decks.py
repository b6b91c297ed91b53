"""Decks are built and rebuilt to the cards list, from cards really in the vault, under the deck rules in force."""

from quartermaster.projections.game import Meta, step
from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import (
    MERISIEL_DECK,
    SETUP,
    START,
    VALEROS_DECK,
    card,
    character_card,
    event,
    fold,
    move,
    rejection,
    zone,
)

character = GAME.views["character"].read
BEFORE_DECKS = SETUP[:3]


def built():
    return fold(*SETUP)


def test_building_a_deck_takes_its_cards_out_of_the_vault():
    state = built()
    assert character(state, character_id="merisiel")["zones"]["deck"]["Dagger"] == 1
    assert GAME.views["vault"].read(state)["cards"]["Dagger"] == 2


def test_a_deck_that_does_not_match_the_cards_list_is_rejected_with_the_counts():
    deck = MERISIEL_DECK[:-1] + ["Cutlass"]
    reason = rejection(fold(*BEFORE_DECKS), {"type": "deck.built", "data": {"character_id": "merisiel", "cards": deck}})
    assert reason == (
        "Merisiel's deck does not match the cards list: it has 1 blessing where the cards list asks for 2; "
        "3 weapons where the cards list asks for 2."
    )


def test_a_card_without_the_basic_trait_cannot_come_from_the_vault():
    deck = ["Cutlass +1" if name == "Dagger" else name for name in MERISIEL_DECK]
    reason = rejection(fold(*BEFORE_DECKS), {"type": "deck.built", "data": {"character_id": "merisiel", "cards": deck}})
    assert reason == "Cutlass +1 does not have the Basic trait; a deck takes only Basic cards from the vault."


def test_a_deck_cannot_take_more_copies_than_a_counted_vault_holds():
    deck = ["Longsword", "Longsword"] + MERISIEL_DECK[2:]
    state = fold(
        *SETUP[:4],
        {"type": "deck.built", "data": {"character_id": "valeros", "cards": deck}},
        options={"box": "counted"},
    )
    reason = rejection(
        state,
        {
            "type": "character.joined",
            "data": {"character_id": "lem", "name": "Lem", "player": "Cy", "card": character_card("Lem")},
        },
        {"type": "deck.built", "data": {"character_id": "lem", "cards": deck}},
    )
    assert reason == "Longsword is not in the vault: it is in Valeros's deck."


def test_building_a_second_deck_for_a_character_is_rejected():
    reason = rejection(built(), {"type": "deck.built", "data": {"character_id": "merisiel", "cards": MERISIEL_DECK}})
    assert reason == "Merisiel already has a deck; rebuild it with deck.rebuilt between scenarios."


def test_the_core_level_rule_allows_level_zero_cards_without_the_basic_trait():
    options = {"deck_rule": "level"}
    state = fold(
        *BEFORE_DECKS,
        {"type": "card.defined", "data": {"card": card("Spyglass", "item", 1, product="B")}},
        options=options,
    )
    deck = ["Spyglass" if name == "Rum Bottle" else name for name in MERISIEL_DECK]
    state = fold({"type": "deck.built", "data": {"character_id": "merisiel", "cards": deck}}, state=state)
    assert character(state, character_id="merisiel")["zones"]["deck"]["Spyglass"] == 1
    deck = ["Cutlass +1" if name == "Cutlass" else name for name in VALEROS_DECK]
    reason = rejection(state, {"type": "deck.built", "data": {"character_id": "valeros", "cards": deck}})
    assert reason == (
        "Cutlass +1 is level 1; cards taken from the vault may be at most level 0 (the latest scenario's # minus 2, "
        "minimum 0)."
    )


def end_scenario(result="won"):
    return fold(*SETUP, *START, {"type": "scenario.ended", "data": {"result": result}})


def test_rebuilding_keeps_own_cards_and_returns_the_left_overs_to_the_vault_at_the_next_setup():
    state = end_scenario()
    deck = ["Cutlass" if name == "Dagger" else name for name in MERISIEL_DECK]
    # A Cutlass from the box while her own Dagger is left over breaks the shortfall rule (Between Games): the table
    # logs it anyway, and the Dagger is a left-over.
    rebuilt = event("deck.rebuilt", character_id="merisiel", cards=deck)
    state = step(GAME, state, rebuilt, Meta(90, override="We swap the Dagger for a Cutlass."))
    view = character(state, character_id="merisiel")
    assert view["zones"]["deck"]["Cutlass"] == 1 and "Dagger" not in view["zones"]["deck"]
    assert state.zones["set_aside"].known == {"Dagger": 1}
    state = fold(*START[:1], state=state)
    assert GAME.views["vault"].read(state)["cards"]["Dagger"] == 3


def test_a_rebuilt_deck_counts_loot_as_its_type():
    state = fold(
        {"type": "loot.awarded", "data": {"card": "Sea Devil's Sabre", "to": "merisiel"}}, state=end_scenario()
    )
    deck = ["Sea Devil's Sabre" if name == "Dagger" else name for name in MERISIEL_DECK]
    state = fold({"type": "deck.rebuilt", "data": {"character_id": "merisiel", "cards": deck}}, state=state)
    assert character(state, character_id="merisiel")["zones"]["deck"]["Sea Devil's Sabre"] == 1


def test_rebuilding_with_a_non_basic_card_from_the_vault_is_rejected():
    deck = ["Cutlass +1" if name == "Dagger" else name for name in MERISIEL_DECK]
    reason = rejection(end_scenario(), {"type": "deck.rebuilt", "data": {"character_id": "merisiel", "cards": deck}})
    assert reason == (
        "Cutlass +1 is neither among Merisiel's cards nor the party's spare cards, and cutlass +1 does not have the "
        "Basic trait; a deck takes only Basic cards from the vault."
    )


def test_after_tempest_rising_begins_adventure_decks_two_lower_are_allowed():
    # Tempest Rising is the Path's third adventure; the first two are not played here (logged anyway).
    begun = event("adventure.started", adventure="Tempest Rising", number=3, scenarios=["A"])
    state = step(GAME, end_scenario(), begun, Meta(90, override="The first two adventures were played before."))
    # A card feat asks for a third weapon, which the party's own cards cannot give: it comes from the box.
    state = fold(
        {"type": "feat.gained", "data": {"character_id": "merisiel", "kind": "card", "feat": "weapon 3"}}, state=state
    )
    deck = [*MERISIEL_DECK, "Cutlass +1"]
    state = fold({"type": "deck.rebuilt", "data": {"character_id": "merisiel", "cards": deck}}, state=state)
    assert character(state, character_id="merisiel")["zones"]["deck"]["Cutlass +1"] == 1


def test_a_scenario_cannot_start_with_a_deck_that_does_not_match():
    state = fold(move("Dagger", "give", zone("deck", "merisiel"), zone("deck", "valeros")), state=built())
    reason = rejection(state, *START[:1])
    assert reason == (
        "Merisiel's deck does not match the cards list: it has 1 weapon where the cards list asks for 2. "
        "Rebuild it with deck.rebuilt first."
    )


def test_rebuilding_during_a_scenario_is_rejected():
    reason = rejection(
        fold(*SETUP, *START), {"type": "deck.rebuilt", "data": {"character_id": "merisiel", "cards": MERISIEL_DECK}}
    )
    assert reason == "Merisiel's deck cannot be rebuilt during the scenario Island Hopping."


def test_a_card_feat_raises_the_count_the_deck_is_rebuilt_to():
    state = fold(
        {"type": "feat.gained", "data": {"character_id": "merisiel", "kind": "card", "feat": "weapon 3"}},
        state=end_scenario(),
    )
    assert character(state, character_id="merisiel")["cards_list"]["weapon"] == 3
    deck = MERISIEL_DECK + ["Cutlass"]
    state = fold({"type": "deck.rebuilt", "data": {"character_id": "merisiel", "cards": deck}}, state=state)
    assert character(state, character_id="merisiel")["counts"]["deck"] == 9
