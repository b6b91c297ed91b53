"""The reset (hand.reset): discard any number, then down to the hand size, then draw up to it; a short deck kills."""

import pytest
from hypothesis import given, strategies as st

from quartermaster.projections.pacg import GAME
from quartermaster.projections.pacg.hands import hand_size
from tests.unit.pacg.campaigns import _ev, _moved, _zone
from tests.unit.pacg.laws import PROPERTY, Checked, conserved
from tests.unit.pacg.pacg_world import SETUP, START, census, character_card, draw, fold, move, rejection, zone

character = GAME.views["character"].read

MERISIEL_DECK = ["Dagger", "Pistol", "Cure", "Leather Armor", "Rum Bottle", "Sailor", "Blessing of the Gods"]


def ev(type_, **data):
    return {"type": type_, "data": data}


def reset(who="merisiel", **data):
    return ev("hand.reset", character_id=who, **data)


def advance(who):
    return ev("hourglass.advanced", character_id=who)


def discard(who, name):
    return move(name, "discard", zone("hand", who), zone("discard", who))


def hand(state, who="merisiel"):
    return character(state, character_id=who)["zones"]["hand"]


def merisiels_turn(*drawn, options=None):
    """Merisiel's turn in Island Hopping (hand size 3), with these cards drawn into her hand."""
    return fold(*SETUP, *START, advance("merisiel"), *[draw("merisiel", name) for name in drawn], options=options)


# ----------------------------------------------------------------------------------------------- drawing up


def test_the_reset_draws_up_to_the_hand_size_and_the_draw_that_fills_the_hand_ends_it():
    state = merisiels_turn("Dagger")
    before = census(state)
    state = fold(reset(), draw("merisiel", "Pistol"), state=state)
    assert state.owed is not None
    state = fold(draw("merisiel", "Cure"), state=state)
    assert state.owed is None
    assert hand(state) == {"Cure": 1, "Dagger": 1, "Pistol": 1}
    assert census(state) == before


def test_a_draw_past_the_hand_size_is_refused_while_resetting():
    state = fold(reset(), draw("merisiel", "Cure"), state=merisiels_turn("Dagger", "Pistol"))
    reason = rejection(fold(reset(), state=merisiels_turn("Dagger", "Pistol", "Cure")), draw("merisiel", "Sailor"))
    assert reason == "Merisiel already holds 3 cards, Merisiel's hand size: the reset draws no more."
    # The reset ended with the draw that filled the hand; a later draw is no part of it.
    assert state.owed is None


def test_the_reset_cannot_end_short_while_the_deck_has_cards():
    state = fold(reset(), draw("merisiel", "Pistol"), state=merisiels_turn("Dagger"))
    reason = rejection(state, advance("valeros"))
    assert reason == (
        "Merisiel holds 2 cards and must draw 1 more from Merisiel's deck to reach Merisiel's hand size of 3 before "
        "the reset ends."
    )


def test_a_character_who_can_still_draw_up_does_not_die_resetting():
    reason = rejection(fold(reset(), state=merisiels_turn()), ev("character.died", character_id="merisiel"))
    assert reason == (
        "Merisiel holds 0 cards and must draw 3 more from Merisiel's deck to reach Merisiel's hand size of 3 before "
        "the reset ends."
    )


def test_a_full_hand_draws_nothing_and_the_next_turn_ends_the_reset():
    state = fold(reset(), advance("valeros"), state=merisiels_turn("Dagger", "Pistol", "Cure"))
    assert state.owed is None
    assert state.scenario.turn == "valeros"
    assert hand(state) == {"Cure": 1, "Dagger": 1, "Pistol": 1}


# ----------------------------------------------------------------------------------------------- discarding


def test_a_hand_over_the_hand_size_must_be_discarded_down_before_the_reset_ends():
    state = fold(reset(), state=merisiels_turn("Dagger", "Pistol", "Cure", "Sailor", "Rum Bottle"))
    assert rejection(state, advance("valeros")) == (
        "Merisiel holds 5 cards, more than Merisiel's hand size of 3: Merisiel must discard 2 cards before the reset "
        "ends."
    )
    assert rejection(state, draw("merisiel", "Leather Armor")) == (
        "Merisiel holds 5 cards, more than Merisiel's hand size of 3: the reset discards down to 3 and draws nothing."
    )
    state = fold(discard("merisiel", "Sailor"), discard("merisiel", "Rum Bottle"), advance("valeros"), state=state)
    assert hand(state) == {"Cure": 1, "Dagger": 1, "Pistol": 1}
    assert character(state, character_id="merisiel")["zones"]["discard"] == {"Rum Bottle": 1, "Sailor": 1}


def test_the_player_may_discard_any_number_of_cards_first_and_then_draws_back_up():
    state = fold(
        reset(),
        discard("merisiel", "Dagger"),
        discard("merisiel", "Pistol"),
        draw("merisiel", "Sailor"),
        draw("merisiel", "Rum Bottle"),
        state=merisiels_turn("Dagger", "Pistol", "Cure"),
    )
    assert state.owed is None
    assert hand(state) == {"Cure": 1, "Rum Bottle": 1, "Sailor": 1}


def test_a_discard_after_the_reset_has_begun_drawing_is_refused():
    state = fold(
        reset(),
        discard("merisiel", "Dagger"),
        discard("merisiel", "Pistol"),
        draw("merisiel", "Sailor"),
        state=merisiels_turn("Dagger", "Pistol", "Cure"),
    )
    assert rejection(state, discard("merisiel", "Cure")) == (
        "Merisiel has begun drawing up to Merisiel's hand size of 3: the reset's discards come before its draws."
    )


# ----------------------------------------------------------------------------------------------- dying


def test_a_deck_too_short_to_draw_up_kills_the_character():
    everything = MERISIEL_DECK
    state = merisiels_turn(*everything)
    state = fold(*[discard("merisiel", name) for name in everything], reset(), state=state)
    before = census(state)
    assert rejection(state, advance("valeros")) == (
        "Merisiel must draw 3 cards to reach Merisiel's hand size of 3, but Merisiel's deck holds 1: Merisiel dies "
        "(character.died)."
    )
    state = fold(draw("merisiel", "Blessing of the Gods"), state=state)
    assert rejection(state, advance("valeros")) == (
        "Merisiel must draw 2 cards to reach Merisiel's hand size of 3, but Merisiel's deck holds 0: Merisiel dies "
        "(character.died)."
    )
    assert rejection(state, draw("merisiel", "Dagger")) == (
        "Merisiel's deck is empty: Merisiel cannot draw from it. A character who must draw from an empty deck dies "
        "(character.died)."
    )
    state = fold(ev("character.died", character_id="merisiel"), advance("valeros"), state=state)
    view = character(state, character_id="merisiel")
    assert view["alive"] is False
    assert view["counts"]["buried"] == 8
    assert state.owed is None
    assert census(state) == before


# ----------------------------------------------------------------------------------------------- the hand size


def joined_without_hand_size():
    card = character_card("Merisiel")
    del card["hand_size"]
    setup = [dict(SETUP[1], data=dict(SETUP[1]["data"], card=card)) if i == 1 else e for i, e in enumerate(SETUP)]
    return fold(*setup, *START, advance("merisiel"))


def test_a_character_card_without_a_hand_size_needs_it_given_with_the_reset():
    state = joined_without_hand_size()
    assert rejection(state, reset()) == (
        "Merisiel's character card records no hand size: give Merisiel's hand size with the reset."
    )
    state = fold(
        reset(hand_size=4), *[draw("merisiel", n) for n in ("Dagger", "Pistol", "Cure", "Sailor")], state=state
    )
    assert state.owed is None


def test_a_hand_size_given_with_the_reset_must_match_the_character_card():
    assert rejection(merisiels_turn(), reset(hand_size=5)) == (
        "Merisiel's hand size is 3 (character card and Hand Size feats), not 5."
    )


def feat(label):
    return ev("feat.gained", character_id="merisiel", kind="power", feat=f"Hand Size {label}")


def test_hand_size_feats_raise_the_hand_size_the_reset_draws_up_to():
    state = fold(
        *SETUP,
        feat("4"),
        *START,
        advance("merisiel"),
        reset(),
        *[draw("merisiel", n) for n in ("Dagger", "Pistol", "Cure")],
    )
    assert rejection(state, advance("valeros")).endswith("to reach Merisiel's hand size of 4 before the reset ends.")
    state = fold(draw("merisiel", "Sailor"), state=state)
    assert state.owed is None
    assert character(state, character_id="merisiel")["hand_size"] == 4


def test_the_role_cards_hand_size_boxes_count_once_a_role_is_chosen():
    state = fold(*SETUP, feat("4"), options={"roles_after_adventures": 0})
    assert hand_size(state.characters["merisiel"]) == 4
    state = fold(ev("role.chosen", character_id="merisiel", role="Infiltrator"), feat("5"), feat("6"), state=state)
    assert hand_size(state.characters["merisiel"]) == 6


@pytest.mark.parametrize(
    ("given", "when", "then"),
    [
        (
            [*SETUP, *START, ev("character.died", character_id="merisiel")],
            reset(),
            "Merisiel is dead and can do nothing for the rest of Island Hopping.",
        ),
        (SETUP, reset(), "No scenario is in progress, so Merisiel cannot do that now."),
        (
            [*SETUP, *START, draw("merisiel", "Dagger"), ev("damage.dealt", character_id="merisiel", amount=1)],
            reset(),
            "Merisiel must first discard 1 more card from Merisiel's hand for the damage just dealt.",
        ),
        (
            [*SETUP, *START],
            reset(hand_size=0),
            "Merisiel's hand size is 3 (character card and Hand Size feats), not 0.",
        ),
    ],
    ids=["dead", "no scenario", "damage owed first", "a hand size not the card's"],
)
def test_a_reset_is_refused_with_the_real_situation(given, when, then):
    assert rejection(fold(*given), when) == then


# ----------------------------------------------------------------------------------------------- the law


class Resetting(Checked):
    """A random campaign whose turns end with the reset, as the rulebook plays it."""

    def turn(self):
        super().turn()
        scenario = self.state.scenario
        if scenario is None or self.state.owed is not None:
            return
        who = scenario.turn
        if who is None or not self.state.characters[who].alive or scenario.step == "end":
            # The campaign's own turn ended with its reset: a hand is reset once a turn.
            return
        size = hand_size(self.state.characters[who])
        self.emit(_ev("hand.reset", character_id=who))
        hand_cards = (
            sorted(n for n, c in self.state.zones.get(f"{who}:hand").known.items() for _ in range(c))
            if self.state.zones.get(f"{who}:hand")
            else []
        )
        # Any number of discards first, then down to the hand size.
        keep = self.rng.randint(0, min(size, len(hand_cards)))
        for name in self.rng.sample(hand_cards, len(hand_cards) - keep):
            self.emit(_moved(name, "discard", _zone("hand", who), _zone("discard", who)))
        while True:
            held = sum(self.state.zones.get(f"{who}:hand").known.values()) if self.state.zones.get(f"{who}:hand") else 0
            deck = self.state.zones.get(f"{who}:deck")
            if held >= size or self.state.owed is None:
                break
            if deck is None or not deck.known:
                self.emit(_ev("character.died", character_id=who))
                break
            self.emit(_moved(self.next_draw(who), "draw", _zone("deck", who), _zone("hand", who)))


@PROPERTY
@given(st.randoms(use_true_random=False), st.integers(1, 3))
def test_every_physical_copy_stays_in_one_zone_through_resets(rng, scenarios):
    Resetting(rng, conserved).play(scenarios)
