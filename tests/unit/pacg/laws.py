"""Laws checked after every event of a random campaign, shared by the property tests."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from quartermaster.events.pacg import VaultProductsAdded
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
