"""Laws over random valid campaigns: cards are conserved, feats stay in their boxes, rebuilt decks match."""

from collections import Counter

import msgspec
from hypothesis import HealthCheck, given, settings, strategies as st

from events.pacg import DeckRebuilt, VaultProductsAdded
from projections.pacg.decks import mismatch
from projections.pacg.feats import groups
from projections.pacg.state import State
from tests.unit.pacg.campaigns import Campaign
from tests.unit.pacg.pacg_world import census

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Checked(Campaign):
    """A random campaign that checks a law after every event it folds."""

    def __init__(self, rng, law):
        super().__init__(rng)
        self.law = law

    def emit(self, event):
        before = self.state
        super().emit(event)
        self.law(self.state, event, before)


def conserved(state, event, before):
    """Every copy the log knows is in exactly one zone; the open box only ever gives up one copy at a time."""
    if not state.products:
        return
    by_type = {}
    for name, count in state.copies.items():
        card_type = state.cards[name].type
        by_type[card_type] = by_type.get(card_type, 0) + count
    assert census(state) == by_type, f"after {type(event).__name__}"
    in_zones = {}
    for pile in state.zones.values():
        for name, count in pile.known.items():
            in_zones[name] = in_zones.get(name, 0) + count
    for name, count in state.imagined.items():
        in_zones[name] -= count
    assert {n: c for n, c in in_zones.items() if c} == state.copies, f"after {type(event).__name__}"
    if not isinstance(event, VaultProductsAdded):
        # A card named for the first time, or one copy more than the log knew of: never more, never fewer.
        assert 0 <= sum(state.copies.values()) - sum(before.copies.values()) <= 1


def feats_in_their_boxes(state, event, before):
    for character in state.characters.values():
        for kind in ("skill", "power", "card"):
            prefix = "role|" if kind == "power" and character.role else f"{kind}|"
            for group, labels in groups(character, kind).items():
                assert 0 <= character.feats.get(prefix + group, 0) <= len(labels)


def rebuilt_decks_match(state, event, before):
    if isinstance(event, DeckRebuilt):
        character = state.characters[event.character_id]
        deck = Counter(state.zones[f"{event.character_id}:deck"].known)
        assert deck == Counter(event.cards)
        assert mismatch(state, character, deck) is None


@PROPERTY
@given(st.randoms(use_true_random=False), st.integers(1, 4))
def test_every_physical_copy_is_in_exactly_one_zone_after_every_event(rng, scenarios):
    Checked(rng, conserved).play(scenarios)


@PROPERTY
@given(st.randoms(use_true_random=False), st.integers(2, 5))
def test_feats_never_exceed_the_boxes_on_the_card(rng, scenarios):
    Checked(rng, feats_in_their_boxes).play(scenarios)


@PROPERTY
@given(st.randoms(use_true_random=False), st.integers(1, 4))
def test_a_rebuilt_deck_always_matches_its_cards_list(rng, scenarios):
    Checked(rng, rebuilt_decks_match).play(scenarios)


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_state_round_trips_through_json_exactly(rng):
    campaign = Campaign(rng)
    campaign.play(2)
    decoded = msgspec.json.Decoder(State).decode(msgspec.json.encode(campaign.state))
    assert decoded == campaign.state
