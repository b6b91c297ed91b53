"""Laws over random valid campaigns: cards are conserved, feats stay in their boxes, rebuilt decks match."""

from collections import Counter

import msgspec
from hypothesis import given, settings, strategies as st

from quartermaster.events.pacg import DeckRebuilt
from quartermaster.projections.pacg.feats import groups
from quartermaster.projections.pacg.state import State
from tests.unit.pacg.campaigns import Campaign
from tests.unit.pacg.laws import PROPERTY, Checked, conserved


def feats_in_their_boxes(state, event, before):
    for character in state.characters.values():
        for kind in ("skill", "power", "card"):
            prefix = "role|" if kind == "power" and character.role else f"{kind}|"
            for group, labels in groups(character, kind).items():
                assert 0 <= character.feats.get(prefix + group, 0) <= len(labels)


def rebuilt_decks_match(state, event, before):
    """Checked without the fold's own `mismatch`: from the rulebook's words, counted afresh."""
    if isinstance(event, DeckRebuilt):
        character = state.characters[event.character_id]
        deck = Counter(state.zones[f"{event.character_id}:deck"].known)
        assert deck == Counter(event.cards)
        # "Loot cards count as cards of their type" (Skull & Shackles Rulebook, Between Games).
        by_type = Counter()
        for name, count in deck.items():
            by_type[state.cards[name].counts_as] += count
        # "Each card feat allows you to put one more card of the type you choose into your character deck" (Your
        # Character, Feats): the printed count, plus one for each box checked.
        wanted = Counter(
            {
                card_type: line.count + character.feats.get(f"card|{card_type}", 0)
                for card_type, line in character.card.cards_list.items()
            }
        )
        assert +by_type == +wanted, f"{character.name}'s rebuilt deck holds {dict(by_type)}, not {dict(wanted)}"


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
