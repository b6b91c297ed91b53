"""Rules of the game from the Skull & Shackles rulebook, each from both sides: the legal entry is folded, the illegal
one refused as a rule of the game (RuleBroken: the table may log it anyway with a reason), with a sentence."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from quartermaster.projections.game import Meta, RuleBroken, step
from quartermaster.projections.pacg import GAME
from quartermaster.projections.pacg.ending import ADVENTURE_PATH
from tests.unit.pacg.pacg_world import (
    HANDS,
    MERISIEL_DECK,
    SCENARIO,
    SETUP,
    START,
    card,
    character_card,
    event,
    fold,
    from_payload,
    move,
    zone,
)


def ev(type_, **data):
    return {"type": type_, "data": data}


def refused(state, *events):
    """The RuleBroken the last event raises (the ones before it are folded), and that an override lets it through."""
    *before, last = events
    state = fold(*before, state=state)
    last = from_payload(last) if isinstance(last, dict) else last
    with pytest.raises(RuleBroken) as broken:
        step(GAME, state, last, Meta(999))
    assert step(GAME, state, last, Meta(999, override="the table's call")) is not None
    return broken.value.reason


WON = ev("scenario.ended", result="won")
SHARK = zone("location", location="Shark Island")
TEMPEST = zone("location", location="Tempest Cay")


def played(name, adventure=None):
    data = dict(SCENARIO["data"], scenario=name)
    if adventure is not None:
        data["adventure"] = adventure
    return {"type": "scenario.started", "data": data}


# -- the adventure and the Adventure Path (After the Scenario: Ending a Scenario, Adventure, or Adventure Path) ----


def test_plunder_and_peril_lists_five_scenarios_and_no_more():
    assert fold(*SETUP, ev("adventure.started", adventure="Plunder and Peril", scenarios=["Island Hopping"]))
    six = [f"S{n}" for n in range(6)]
    reason = refused(fold(*SETUP), ev("adventure.started", adventure="Plunder and Peril", scenarios=six))
    assert reason == "Plunder and Peril has 5 scenarios (Skull & Shackles Rulebook, Setting Up); 6 are listed."


def test_an_adventure_named_without_scenarios_or_a_count_is_refused_and_a_count_completes_it():
    with pytest.raises(Exception, match="names none of its scenarios"):
        fold(*SETUP, ev("adventure.started", adventure="Sea Legs"))
    state = fold(*SETUP, ev("adventure.started", adventure="Sea Legs", scenario_count=2))
    state = fold(played("First", "Sea Legs"), WON, state=state)
    assert "Sea Legs" not in state.completed
    state = fold(played("Second", "Sea Legs"), WON, state=state)
    assert state.completed[-1] == "Sea Legs" and "Sea Legs" in state.rewardable


def path(number):
    return [ev("adventure.started", adventure=f"Adventure {number}", number=number, scenarios=[f"S{number}"])]


def test_the_adventure_paths_adventures_are_played_in_deck_order():
    state = fold(*SETUP, *path(1))
    assert state.adventure.name == "Adventure 1"
    reason = refused(fold(*SETUP), *path(2))
    assert reason.startswith(
        "The Adventure Path's adventures are played in order: the party has completed 0 of them, so the next is "
        "adventure deck 1, not Adventure 2 (deck 2)"
    )


def test_completing_the_sixth_adventure_opens_the_adventure_paths_own_reward():
    state = fold(*SETUP)
    for number in range(1, 7):
        state = fold(*path(number), played(f"S{number}"), WON, state=state)
    assert ADVENTURE_PATH in state.completed and ADVENTURE_PATH in state.rewardable
    state = fold(ev("ship.awarded", ship="Wormwood", reward_of=ADVENTURE_PATH), state=state)
    assert "Wormwood" in state.fleet.checked


# -- rewards (Ending a Scenario, Adventure, or Adventure Path; Core Rules FAQ, Hero Points) -------------------------


def won_island_hopping():
    return fold(*SETUP, *START, WON)


def feat(who, name, kind="skill", **extra):
    return ev("feat.gained", character_id=who, kind=kind, feat=name, **extra)


def test_a_reward_gives_each_character_one_feat():
    state = fold(feat("merisiel", "Dexterity +1", reward_of="Island Hopping"), state=won_island_hopping())
    assert fold(feat("valeros", "Dexterity +1", reward_of="Island Hopping"), state=state)
    reason = refused(state, feat("merisiel", "Dexterity +2", reward_of="Island Hopping"))
    assert reason.startswith(
        "Merisiel has already gained a feat from the reward of Island Hopping: a reward gives each character one feat"
    )


def test_a_feat_during_a_scenario_comes_only_from_a_hero_point_spent_on_it():
    state = fold(*SETUP, *START)
    reason = refused(state, feat("merisiel", "Dexterity +1"))
    assert reason.startswith("Merisiel gains a feat during Island Hopping only from a hero point spent on it")
    bought = fold(
        ev("hero_point.awarded", character_id="merisiel"),
        ev("hero_point.spent", character_id="merisiel", **{"for": "feat"}),
        feat("merisiel", "Dexterity +1"),
        state=state,
    )
    assert bought.characters["merisiel"].feats["skill|Dexterity"] == 1


def test_a_character_whose_feat_boxes_are_not_recorded_is_told_how_to_record_them():
    bare = {**character_card("Merisiel"), "skills": {"Dexterity": {"die": "d12"}}}
    joined = ev("character.joined", character_id="lem", name="Lem", player="Cy", card=bare)
    state = fold(joined, state=won_island_hopping())
    with pytest.raises(Exception) as refusal:
        # Lem joined after Island Hopping: a feat the table catches up on names no reward.
        fold(feat("lem", "Dexterity +1"), state=state)
    assert "has no skill feat boxes: record them from the card in hand first, with character.card_completed" in str(
        refusal.value
    )
    recorded = ev(
        "character.card_completed", character_id="lem", card={"skills": {"Dexterity": {"feats": ["+1", "+2"]}}}
    )
    state = fold(recorded, feat("lem", "Dexterity +1"), state=state)
    assert state.characters["lem"].feats["skill|Dexterity"] == 1


# -- the party (Between Games) --------------------------------------------------------------------------------------

PLENTY = [card(f"Basic {t}", t, 40, "Basic") for t in ("weapon", "spell", "armor", "item", "ally", "blessing")]
A_DECK = ["Basic weapon"] * 2 + ["Basic spell", "Basic armor", "Basic item", "Basic ally"] + ["Basic blessing"] * 2


def party_of(count, products=("B",)):
    events = [ev("vault.products_added", product=p, cards=PLENTY if p == "B" else []) for p in products]
    for n in range(count):
        who = f"c{n}"
        events.append(ev("character.joined", character_id=who, name=f"C{n}", player=f"P{n}", card=character_card(who)))
        events.append(ev("deck.built", character_id=who, cards=A_DECK))
    return events


def test_the_base_set_builds_four_character_decks_and_the_add_on_deck_six():
    state = fold(*party_of(4))
    fifth = [ev("character.joined", character_id="c4", name="C4", player="P4", card=character_card("c4"))]
    reason = refused(state, *fifth, ev("deck.built", character_id="c4", cards=A_DECK))
    assert reason.startswith("C4's deck would be deck 5: the box holds at most 4 character decks at once")
    with_add_on = fold(*party_of(6, products=("B", "C")))
    assert sum(c.has_deck for c in with_add_on.characters.values()) == 6


def test_rebuilding_takes_cards_from_the_box_only_for_a_shortfall():
    state = won_island_hopping()
    swapped = ["Cutlass" if name == "Dagger" else name for name in MERISIEL_DECK]
    reason = refused(state, ev("deck.rebuilt", character_id="merisiel", cards=swapped))
    assert reason.startswith("Cutlass would come from the vault, but the party's own cards still hold Dagger")
    assert fold(ev("deck.rebuilt", character_id="merisiel", cards=MERISIEL_DECK), state=state)


# -- the turn (Playing a Scenario: Your Turn) -------------------------------------------------------------------


def advance(who):
    return ev("hourglass.advanced", character_id=who)


def walk(who, to):
    return ev("character.moved", character_id=who, to=to)


def explore(who, name, place):
    found = move(name, "reveal", place, zone("encounter"))
    found["data"]["explorer"] = who
    return found


def banish(name):
    return move(name, "banish", zone("encounter"), zone("vault"))


def reset(who):
    return ev("hand.reset", character_id=who)


def in_play():
    return fold(*SETUP, *START, *HANDS)


def test_the_move_comes_before_the_exploration():
    state = in_play()
    assert fold(
        advance("merisiel"), walk("merisiel", "Tempest Cay"), explore("merisiel", "Dire Rat", TEMPEST), state=state
    )
    reason = refused(
        state,
        advance("merisiel"),
        explore("merisiel", "Dire Rat", SHARK),
        banish("Dire Rat"),
        walk("merisiel", "Tempest Cay"),
    )
    assert reason.startswith("Merisiel moving to Tempest Cay belongs to the Move step, which comes before Explore")


def test_nothing_of_the_turn_comes_after_the_reset():
    state = fold(advance("merisiel"), reset("merisiel"), state=in_play())
    reason = refused(state, explore("merisiel", "Dire Rat", SHARK))
    assert reason.startswith(
        "Merisiel exploring Shark Island belongs to the Explore step, which comes before End Your Turn"
    )
    assert refused(state, walk("merisiel", "Tempest Cay")).startswith(
        "Merisiel moving to Tempest Cay belongs to the Move step, which comes before End Your Turn"
    )
    assert fold(advance("valeros"), state=state).scenario.turn == "valeros"


def test_the_turn_order_of_the_first_round_is_kept():
    state = fold(advance("valeros"), advance("merisiel"), state=in_play())
    assert fold(advance("valeros"), state=state).scenario.turns == 3
    reason = refused(state, advance("merisiel"))
    assert reason.startswith("After Merisiel's turn comes Valeros's, not Merisiel's")
    early = refused(in_play(), advance("merisiel"), advance("merisiel"))
    assert early.startswith("Merisiel has had a turn already, and Valeros not yet")


def test_the_setup_stashes_one_plunder_card():
    state = fold(*SETUP, SCENARIO)
    stash = ev("plunder.stashed", roll=2)
    assert fold(stash, state=state).scenario.setup_stashed
    assert refused(state, stash, stash).startswith("The setup stashes 1 plunder card, once")


def test_a_roll_is_folded_while_a_reset_is_owed():
    # Merisiel discarded a card, so her reset must draw; a roll by Valeros meanwhile is a fact of the table.
    state = fold(
        advance("merisiel"),
        move(MERISIEL_DECK[0], "discard", zone("hand", "merisiel"), zone("discard", "merisiel")),
        reset("merisiel"),
        state=in_play(),
    )
    assert state.owed is not None and state.owed.kind == "reset"
    roll = ev("dice.rolled", character_id="valeros", dice=[{"sides": 6, "face": 4}], total=4)
    after = fold(roll, state=state)
    assert after.owed == state.owed


# -- ships: the card wins (The Golden Rule; the Ships and Henchmen document) --------------------------------------

SANBALOT = {
    "name": "Sanbalot",
    "set": "3",
    "ship_class": 3,
    "when_commanding": [
        "This ship may have no more than 3 plunder cards under it. If you would stash more, ignore them."
    ],
}


def test_a_ship_whose_card_holds_at_most_three_plunder_cards_takes_no_fourth():
    sailing = dict(SCENARIO["data"], ship="Sanbalot", ship_card=SANBALOT)
    # The Sanbalot is not on this party's fleet card: its scenario is logged anyway, to sail it here.
    begun = step(
        GAME, fold(*SETUP), from_payload({"type": "scenario.started", "data": sailing}), Meta(50, override="x")
    )
    state = fold(ev("plunder.stashed", roll=1), state=begun)
    state = msgspec.structs.replace(state, scenario=msgspec.structs.replace(state.scenario, turn="merisiel"))
    state = fold(ev("plunder.stashed", roll=2), ev("plunder.stashed", roll=3), state=state)
    reason = refused(state, ev("plunder.stashed", roll=4))
    assert reason.startswith("The Sanbalot may have no more than 3 plunder cards under it, and has 3")


# -- property tests of the turn structure ---------------------------------------------------------------------------

Turn = tuple[bool, bool]  # (moves, explores)


def legal_turn(state, who, moves, explores):
    """A turn's events in the rulebook's order: advance, move, explore (and its banished card), reset."""
    here = state.characters[who].location
    events = [advance(who)]
    if moves:
        here = "Tempest Cay" if here == "Shark Island" else "Shark Island"
        events.append(walk(who, here))
    if explores:
        place = zone("location", location=here)
        pile = state.zones.get(f"location:{here}")
        hidden = pile.hidden if pile else {}
        name = "Dire Rat" if hidden.get("monster") else "Dead Man's Chest" if hidden.get("barrier") else None
        if name is not None:
            events += [explore(who, name, place), banish(name)]
    events.append(reset(who))
    return events


@settings(max_examples=40, deadline=None)
@given(
    first=st.permutations(["merisiel", "valeros"]), turns=st.lists(st.tuples(st.booleans(), st.booleans()), max_size=4)
)
def test_random_legal_turns_in_the_turn_order_are_accepted(first, turns):
    state = in_play()
    for number, (moves, explores) in enumerate(turns):
        who = first[number % 2]
        state = fold(*legal_turn(state, who, moves, explores), state=state)
        assert state.scenario.turn == who
    assert state.scenario.turns == len(turns)


@settings(max_examples=40, deadline=None)
@given(who=st.sampled_from(["merisiel", "valeros"]), late=st.sampled_from(["move", "explore"]))
def test_a_step_moved_after_the_reset_or_a_move_after_the_exploration_is_refused(who, late):
    state = fold(advance(who), state=in_play())
    here = state.characters[who].location
    place = zone("location", location=here)
    if late == "move":
        # Explore, then move: the forbidden order of the two optional steps.
        elsewhere = "Tempest Cay" if here != "Tempest Cay" else "Shark Island"
        steps = [explore(who, "Dire Rat", place), banish("Dire Rat"), walk(who, elsewhere)]
    else:
        # Reset, then explore: a step after the reset.
        steps = [reset(who), explore(who, "Dire Rat", place)]
    reason = refused(state, *steps)
    assert "comes before" in reason


def test_every_new_rule_refusal_leaves_the_state_as_it_was():
    state = fold(advance("merisiel"), reset("merisiel"), state=in_play())
    before = msgspec.json.encode(state)
    with pytest.raises(RuleBroken):
        step(GAME, state, event("character.moved", character_id="merisiel", to="Tempest Cay"), Meta(999))
    assert msgspec.json.encode(state) == before
