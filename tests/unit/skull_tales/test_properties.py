"""Laws: the skill cost formula, and Coins never created or lost outside the rules' sources and sinks."""

from __future__ import annotations

import math

from hypothesis import given as for_all, settings, strategies as st

from quartermaster.projections.game import Meta, Rejection, step
from quartermaster.projections.skull_tales import GAME
from quartermaster.projections.skull_tales.options import Options
from quartermaster.projections.skull_tales.skills import class_price
from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, event
from tests.unit.skull_tales.table import CATALOG, decode, given

TIERS = [(70, 50), (100, 60), (130, 70)]
CLASSES = ["Rogue", "Duelist", "Scholar", "Rowdy", "Shooter", "Mystic"]


@for_all(
    tier=st.sampled_from(TIERS),
    skill_class=st.sampled_from(CLASSES[:-1]),
    classes=st.lists(st.sampled_from(CLASSES), min_size=1, max_size=2, unique=True),
)
def test_the_class_price_is_x_x_plus_15_or_one_and_a_half_x(tier, skill_class, classes):
    coins, fame = tier
    price = class_price(coins, fame, skill_class, classes, Options())
    if skill_class in classes and len(classes) == 1:
        assert (price.coins, price.fame) == (coins, fame)
    elif skill_class in classes:
        assert (price.coins, price.fame) == (coins + 15, fame + 10)
    else:
        assert (price.coins, price.fame) == (math.ceil(coins * 1.5), math.ceil(fame * 1.5))
    # The order the rulebook promises: single <= multi <= off-class (Book II: Feats, Classes and Skills, Master and apprentice).
    assert price.coins >= coins and price.fame >= fame


def test_the_printed_triples_follow_from_the_formula():
    for skill in CATALOG["skills"]["skills"]:
        if "coins" not in skill or skill["class"] == "Mystic":
            continue
        x, y = skill["coins"], skill["fame"]
        assert [
            class_price(x, y, skill["class"], c, Options()).coins
            for c in ([skill["class"]], [skill["class"], "Other"], ["Other"])
        ] == {70: [70, 85, 105], 100: [100, 115, 150], 130: [130, 145, 195]}[x]


def in_port(options=None):
    return given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        options=options or OPTIONS,
    )


PORT_STATE = in_port()


@settings(max_examples=40, deadline=None)
@for_all(
    skill=st.sampled_from([s["name"] for s in CATALOG["skills"]["skills"] if "coins" in s and s["class"] != "Mystic"]),
    pirate=st.sampled_from(["anne", "jack", "mary"]),
    master=st.sampled_from([None, "anne", "jack", "mary"]),
    coins=st.integers(0, 200),
    fame=st.integers(0, 200),
)
def test_a_learned_skill_costs_what_the_formula_and_discounts_say(skill, pirate, master, coins, fame):
    state = PORT_STATE
    if coins:
        state = step(
            GAME,
            state,
            decode(event("coins.changed", pirate_id=pirate, amount=coins, source="event")),
            Meta(position=900),
        )
    if fame:
        state = step(
            GAME,
            state,
            decode(event("fame.changed", pirate_id=pirate, amount=fame, source="event")),
            Meta(position=901),
        )
    before = state.pirates[pirate]
    learn = decode(event("skill.learned", pirate_id=pirate, skill=skill, master_id=master))
    try:
        after = step(GAME, state, learn, Meta(position=902))
    except Rejection:
        return
    p = after.pirates[pirate]
    expected = class_price(learn.coins, learn.fame, learn.skill_class, before.classes, Options())
    ec, ef = expected.coins, expected.fame
    if any(s in before.starting_skills for s in learn.synergy):
        ec -= 10
    if master is not None:
        ec, ef = ec - 15, ef - 10
        assert after.pirates[master].fame == state.pirates[master].fame + 5
    # Francisco Carranza teaches Duelist skills inside the Manor: 7 Coins to enter, the Captain free (Book II:
    # Locations, Madame Claude's Manor).
    fee = 7 if learn.teacher == "Francisco Carranza" and state.captain != pirate else 0
    assert before.coins - p.coins == max(ec, 0) + fee
    assert before.fame - p.fame == max(ef, 0)
    assert before.time_units - p.time_units == 7


def _held(state) -> int:
    return (
        state.crew_booty
        + sum(p.coins + p.phase_coins for p in state.pirates.values())
        + sum(a.coins for a in state.allies.values())
        + sum(sum(i.values()) for i in state.buried.values())
    )


def _actions():
    who = st.sampled_from(["anne", "jack", "mary"])
    amount = st.integers(1, 80)
    return st.one_of(
        st.builds(lambda p, a: event("coins.changed", pirate_id=p, amount=a, source="search_card"), who, amount),
        st.builds(lambda p, a: event("coins.changed", pirate_id=p, amount=-a, source="gear"), who, amount),
        st.builds(lambda p, a: event("coins.changed", pirate_id=p, amount=-a, source="penalty"), who, amount),
        st.builds(lambda p, q, a: event("coins.given", from_pirate=p, to=q, amount=a), who, who, amount),
        st.builds(lambda p, a: event("coins.given", from_pirate=p, to="crew_booty", amount=a), who, amount),
        st.builds(lambda p: event("salary.collected", pirate_id=p), who),
        st.builds(
            lambda u: event("ship.upgraded", pirate_id="anne", upgrade=u),
            st.sampled_from(["Cannon", "Ram", "Expand Hold", "Signal Codex"]),
        ),
        st.builds(
            lambda g, n, d: event("goods.traded", pirate_id="anne", goods=g, quantity=n, direction=d),
            st.sampled_from(["Rum", "Supplies", "Wood"]),
            st.integers(1, 3),
            st.sampled_from(["buy", "sell"]),
        ),
        st.builds(
            lambda p, a: event("loan.taken", pirate_id=p, amount=a, lender="market"), who, st.sampled_from([5, 25, 50])
        ),
        st.builds(lambda p, a: event("loan.repaid", pirate_id=p, amount=a), who, st.integers(1, 60)),
        st.builds(lambda p: event("skill.learned", pirate_id=p, skill="Tactician"), who),
        st.builds(lambda p: event("pirate.unconscious", pirate_id=p), who),
        st.builds(lambda p: event("manor.entered", pirate_id=p), who),
        st.just(event("group.hired", pirate_id="anne")),
        st.builds(lambda r: event("ship.repaired", pirate_id="anne", hold=r), st.integers(0, 1)),
    )


@settings(max_examples=60, deadline=None)
@for_all(actions=st.lists(_actions(), max_size=25))
def test_coins_come_only_from_sources_and_go_only_to_sinks(actions):
    state = PORT_STATE
    for position, payload in enumerate(actions, start=100):
        try:
            state = step(GAME, state, decode(payload), Meta(position=position))
        except Rejection:
            continue
        created = sum(e.amount for e in state.ledger if e.source.startswith("source:"))
        spent = sum(e.amount for e in state.ledger if e.to.startswith("sink:"))
        assert _held(state) == created - spent
        assert all(e.amount > 0 for e in state.ledger)
        assert state.crew_booty >= 0 and all(p.coins >= 0 and p.phase_coins >= 0 for p in state.pirates.values())
