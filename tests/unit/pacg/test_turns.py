"""A turn's steps in their order: give a card before moving, one free exploration, the required reset, and the
deck order that recharging and reloading make known.

Skull & Shackles Rulebook, Your Turn (Give a Card; Move; Explore; Reset Your Hand); Playing Cards (Recharge);
Core Rules FAQ (reloading).
"""

from tests.unit.pacg.pacg_world import HANDS, MERISIEL_DECK, SETUP, START, draw, fold, move, rejection, zone


def ev(type_, **data):
    return {"type": type_, "data": data}


def advance(who):
    return ev("hourglass.advanced", character_id=who)


def hand(who):
    return zone("hand", who)


def deck(who):
    return zone("deck", who)


def turn_of(who, options=None):
    return fold(*SETUP, *START, *HANDS, advance(who), options=options)


SHARK = zone("location", location="Shark Island")

# ------------------------------------------------------------------------------------------------- the reset


def test_the_next_turn_waits_for_the_reset_of_a_hand_over_its_size():
    # Given Merisiel, hand size 3, ending her turn with 5 cards in hand
    state = fold(draw("merisiel", "Leather Armor"), draw("merisiel", "Rum Bottle"), state=turn_of("merisiel"))
    # When Valeros's turn starts, then the required reset has not happened
    assert rejection(state, advance("valeros")) == (
        "Merisiel holds 5 cards, not Merisiel's hand size of 3: Merisiel's turn ends with the reset, a required "
        "step, before Valeros's turn starts (hand.reset, then the discards or draws)."
    )
    # When she resets, discarding down to 3, then Valeros's turn starts
    state = fold(
        ev("hand.reset", character_id="merisiel"),
        move("Leather Armor", "discard", hand("merisiel"), zone("discard", "merisiel")),
        move("Rum Bottle", "discard", hand("merisiel"), zone("discard", "merisiel")),
        advance("valeros"),
        state=state,
    )
    assert state.scenario.turn == "valeros"


def test_the_next_turn_waits_for_a_hand_under_its_size_to_draw_up():
    state = fold(move("Dagger", "discard", hand("merisiel"), zone("discard", "merisiel")), state=turn_of("merisiel"))
    assert rejection(state, advance("valeros")).startswith("Merisiel holds 2 cards, not Merisiel's hand size of 3")


def test_a_power_that_keeps_the_hand_lets_the_turn_end_without_a_reset():
    state = fold(
        draw("merisiel", "Leather Armor"),
        ev("hand.reset", character_id="merisiel", kept=True),
        advance("valeros"),
        state=turn_of("merisiel"),
    )
    assert state.scenario.turn == "valeros"
    assert sum(state.zones["merisiel:hand"].known.values()) == 4


def test_a_character_who_died_on_her_turn_resets_nothing():
    state = fold(ev("character.died", character_id="merisiel"), advance("valeros"), state=turn_of("merisiel"))
    assert state.scenario.turn == "valeros"


def test_a_group_that_plays_otherwise_records_resets_as_it_likes():
    state = fold(
        draw("merisiel", "Leather Armor"), advance("valeros"), state=turn_of("merisiel", {"reset": "recorded"})
    )
    assert state.scenario.turn == "valeros"


def test_a_card_without_a_hand_size_asks_for_the_reset_that_gives_it():
    state = fold(
        *SETUP[:1],
        {
            "type": "character.joined",
            "data": {
                "character_id": "merisiel",
                "name": "Merisiel",
                "player": "Ann",
                "card": {**SETUP[1]["data"]["card"], "hand_size": None},
            },
        },
        *SETUP[2:],
        *START,
        *HANDS,
        advance("merisiel"),
    )
    assert rejection(state, advance("valeros")) == (
        "Merisiel's turn ends with the reset, a required step, before Valeros's turn starts: Merisiel's character "
        "card records no hand size, so record hand.reset with Merisiel's hand size."
    )


# ------------------------------------------------------------------------------------------------- give a card


GIVE = move("Dagger", "give", hand("merisiel"), hand("valeros"))


def test_a_card_is_given_once_a_turn():
    state = fold(GIVE, state=turn_of("merisiel"))
    assert state.zones["valeros:hand"].known["Dagger"] == 1
    assert rejection(state, move("Pistol", "give", hand("merisiel"), hand("valeros"))) == (
        "Merisiel has already given a card this turn: the Give a Card step gives 1 card from the hand to another "
        "character at the same location, once a turn."
    )


def test_a_card_is_given_before_moving():
    state = fold(
        ev("character.moved", character_id="merisiel", to="Tempest Cay"),
        ev("character.moved", character_id="merisiel", to="Shark Island", by_power=True),
        state=turn_of("merisiel"),
    )
    assert rejection(state, GIVE).startswith(
        "Merisiel giving a card to Valeros belongs to the Give a Card step, which comes before Move, where "
        "Merisiel's turn is now"
    )


def test_the_next_turn_may_give_again():
    state = fold(
        GIVE,
        move("Pistol", "discard", hand("merisiel"), zone("discard", "merisiel")),
        ev("hand.reset", character_id="merisiel"),
        draw("merisiel", "Leather Armor"),
        draw("merisiel", "Rum Bottle"),
        move("Dagger", "discard", hand("valeros"), zone("discard", "valeros")),
        advance("valeros"),
        move("Longsword", "give", hand("valeros"), hand("merisiel")),
        state=turn_of("merisiel", {"reset": "recorded"}),
    )
    assert state.zones["merisiel:hand"].known["Longsword"] == 1


# ------------------------------------------------------------------------------------------------- explore


def test_the_free_exploration_is_once_a_turn_by_default():
    explore = move("Dire Rat", "reveal", SHARK, zone("encounter"))
    explore["data"]["explorer"] = "merisiel"
    state = fold(explore, move("Dire Rat", "banish", zone("encounter"), zone("vault")), state=turn_of("merisiel"))
    assert rejection(state, explore).startswith("Merisiel has already explored this turn")


# ------------------------------------------------------------------------------------------------- deck order


def test_a_recharged_card_lies_at_the_bottom_of_the_deck():
    # Given Merisiel recharging the Dagger: it goes face down to the bottom, under 5 cards
    state = fold(move("Dagger", "recharge", hand("merisiel"), deck("merisiel")), state=turn_of("merisiel"))
    assert state.deck_order["merisiel"].bottom == ("Dagger",)
    # When she draws the Dagger, then the draw is refused: a draw takes the top card
    assert rejection(state, draw("merisiel", "Dagger")) == (
        "The Dagger in Merisiel's deck was recharged to the bottom since the deck was last shuffled, under 5 "
        "other cards: a draw takes the top card."
    )


def test_when_only_recharged_cards_are_left_they_are_drawn_in_their_order():
    state = turn_of("merisiel", {"reset": "recorded"})
    for name in MERISIEL_DECK[3:]:
        state = fold(draw("merisiel", name), state=state)
    state = fold(
        move("Dagger", "recharge", hand("merisiel"), deck("merisiel")),
        move("Pistol", "recharge", hand("merisiel"), deck("merisiel")),
        state=state,
    )
    assert rejection(state, draw("merisiel", "Pistol")) == (
        "Every card left in Merisiel's deck was recharged to the bottom since it was last shuffled, the Dagger "
        "first: Merisiel draws the Dagger, not the Pistol."
    )
    state = fold(draw("merisiel", "Dagger"), draw("merisiel", "Pistol"), state=state)
    assert "merisiel" not in state.deck_order


def test_a_reloaded_card_is_the_next_draw():
    state = fold(move("Pistol", "reload", hand("merisiel"), deck("merisiel")), state=turn_of("merisiel"))
    assert rejection(state, draw("merisiel", "Rum Bottle")) == (
        "The top card of Merisiel's deck is the Pistol, reloaded there since the deck was last shuffled: Merisiel "
        "draws the Pistol, not the Rum Bottle."
    )
    state = fold(draw("merisiel", "Pistol"), draw("merisiel", "Rum Bottle"), state=state)
    assert "merisiel" not in state.deck_order


def test_a_card_shuffled_into_the_deck_forgets_the_order():
    state = fold(
        move("Dagger", "recharge", hand("merisiel"), deck("merisiel")),
        move("Pistol", "shuffle", hand("merisiel"), deck("merisiel")),
        draw("merisiel", "Dagger"),
        state=turn_of("merisiel"),
    )
    assert state.zones["merisiel:hand"].known["Dagger"] == 1
