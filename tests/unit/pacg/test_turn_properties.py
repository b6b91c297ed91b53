"""Laws of the turn over random parties of one to six characters: legal turns in the seating order are accepted, and
an entry of a step the turn has passed is refused as a rule, whatever the party and the state.

Skull & Shackles Rulebook, Your Turn (its steps in order: Advance the Blessings Deck, Give a Card, Move, Explore,
Close a Location, Reset Your Hand, End Your Turn); Setting Up: Decide Who Goes First.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from quartermaster.events.pacg import HourglassAdvanced
from quartermaster.projections.game import Meta, RuleBroken, step
from quartermaster.projections.pacg import GAME
from quartermaster.projections.pacg.hands import hand_size
from quartermaster.projections.pacg.state import State
from tests.unit.pacg.campaigns import Campaign, _cards, _ev, _moved, _zone

NAMES = ("ann", "bo", "cy", "di", "ed", "flo")
# Tuned so this file runs in a few seconds on a shared two-core machine.
LAW = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Seated(Campaign):
    """A random campaign that records whose turn each advance of the hourglass started."""

    def __init__(self, rng: Any, party: tuple[str, ...]) -> None:
        super().__init__(rng, party)
        self.turns: list[tuple[str, frozenset[str]]] = []

    def emit(self, event: Any) -> None:
        super().emit(event)
        if isinstance(event, HourglassAdvanced):
            dead = frozenset(who for who in self.party if not self.state.characters[who].alive)
            self.turns.append((event.character_id, dead))


def _in_play(rng: Any, size: int, turns: int) -> Seated:
    game = Seated(rng, NAMES[:size])
    game.setup()
    game.start_scenario()
    for _ in range(turns):
        if game.state.scenario is None:
            break
        game.turn()
    return game


@LAW
@given(st.randoms(use_true_random=False), st.integers(1, 6), st.integers(1, 10))
def test_random_legal_turns_of_random_parties_are_accepted_in_the_seating_order(rng, size, turns):
    # Every event the campaign emits is folded, so a refusal would fail the test here.
    game = _in_play(rng, size, turns)
    party = NAMES[:size]
    for (before, _), (after, dead) in zip(game.turns, game.turns[1:], strict=False):
        # The next living character to the left of the last, in the order fixed by the first round.
        start = party.index(before)
        assert after == next(who for who in party[start + 1 :] + party[: start + 1] if who not in dead)
    if game.state.scenario is not None:
        assert game.state.scenario.turns == len(game.turns)


def _fold(state: State, *events: Any) -> State:
    for index, event in enumerate(events):
        state = step(GAME, state, event, Meta(10_000 + index))  # type: ignore[assignment]
    return state


def _refused(state: State, event: Any) -> str | None:
    try:
        step(GAME, state, event, Meta(20_000))
    except RuleBroken as refused:
        return refused.reason
    return None


def _entries(game: Seated, who: str) -> dict[str, list[Any]]:
    """The entries of the turn's optional steps the active character could log now, each legal on its own."""
    state = game.state
    here = state.characters[who].location
    others = [o for o in game.living() if o != who and state.characters[o].location == here]
    hand = _cards(state, f"{who}:hand")
    entries: dict[str, list[Any]] = {}
    if len(hand) == hand_size(state.characters[who]):
        # A hand at its size: the reset has nothing to discard or draw, so the turn is at its end at once.
        entries["reset"] = [_ev("hand.reset", character_id=who)]
    if others and hand:
        entries["give"] = [_moved(hand[0], "give", _zone("hand", who), _zone("hand", others[0]))]
    elsewhere = [name for name in state.scenario.places if name != here]
    if elsewhere:
        # The others on the ship sail along, so a give to one of them stays possible after the move.
        along = others if not state.fleet.wrecked and state.fleet.anchored is None else []
        entries["move"] = [_ev("character.moved", character_id=who, to=elsewhere[0], moved_with=along)]
    pile = state.zones.get(f"location:{here}")
    labels = sorted(t for t in pile.hidden if t != "dealt") if pile is not None else []
    names = game.names_in_vault(labels[0]) if labels else []
    if names:
        place = _zone("location", location=here)
        reveal = _ev(
            "card.moved", card=names[0], verb="reveal", explorer=who, **{"from": place, "to": _zone("encounter")}
        )
        entries["explore"] = [reveal, _moved(names[0], "banish", _zone("encounter"), _zone("vault"))]
    return entries


# A step, then an entry of an earlier one: the orders the rulebook forbids.
FORBIDDEN = (
    ("move", "give"),
    ("explore", "give"),
    ("explore", "move"),
    ("reset", "give"),
    ("reset", "move"),
    ("reset", "explore"),
)


@LAW
@given(st.randoms(use_true_random=False), st.integers(1, 6), st.integers(0, 6), st.sampled_from(FORBIDDEN))
def test_an_entry_of_a_step_the_turn_has_passed_is_refused_for_any_party(rng, size, turns, pair):
    game = _in_play(rng, size, turns)
    scenario = game.state.scenario
    if scenario is None or game.state.owed is not None:
        return
    party = scenario.party
    last = scenario.turn or party[-1]
    start = party.index(last)
    living = [c for c in party[start + 1 :] + party[: start + 1] if game.state.characters[c].alive]
    if not living:
        return
    who = living[0]
    try:
        game.emit(_ev("hourglass.advanced", character_id=who))
    except RuleBroken:
        return  # The turn before owes something (its reset): another law's business.
    if game.state.scenario is None:
        return
    later, earlier = pair
    entries = _entries(game, who)
    if later not in entries or earlier not in entries:
        return
    # Each is legal on its own at the start of the turn
    _fold(game.state, *entries[earlier])
    after = _fold(game.state, *entries[later])
    reason = _refused(after, entries[earlier][0])
    # Refused as a step passed, or, for a card given after the reset, as a card played once the hand is reset
    assert reason is not None and ("comes before" in reason or "has reset her hand" in reason), reason
