"""Laws of a campaign's structure: chapters in order, each chapter's phases in the order it names (Book I: Game
Modes, Chapters and Chapter Phases), and dice rolls, which are facts of the table and never refused for the phase
or the chapter they fall in (only for their own shape: d6 only, at most 5 dice, faces on the die).

Random legal sequences are accepted; any other order of a chapter's phase steps is refused at its first step out of
place, as a rule of the game or an integrity rule, and the refused step leaves the state as it was.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given as for_all, settings, strategies as st

from quartermaster.projections.game import Meta, Rejection, step
from quartermaster.projections.skull_tales import GAME
from quartermaster.projections.skull_tales.state import SkullTales
from tests.unit.skull_tales.chapter_one import CREW, OPTIONS, event
from tests.unit.skull_tales.table import decode, given

PHASES = ("port", "voyage", "adventure")
DEGREES = {"anne": "partial_success", "jack": "total_success", "mary": "total_success"}
CREWED = given(*CREW, options=OPTIONS)

# A chapter's phases: one to three different phases, in any order the Campaign Book gives.
chapter_phases = st.lists(st.sampled_from(PHASES), min_size=1, max_size=3, unique=True)
adventure_ending = st.sampled_from(["success", "failure", "repeat_then_success"])


def roll(faces: list[int]) -> dict[str, Any]:
    return event(
        "dice.rolled", dice=[{"sides": 6, "face": f} for f in faces], total=sum(faces), purpose="a fact of the table"
    )


def phase_steps(phase: str, ending: str) -> list[dict[str, Any]]:
    if phase != "adventure":
        return [event("phase.started", phase=phase), event("phase.ended", phase=phase)]
    success = event("phase.ended", phase="adventure", outcome="success", degrees=DEGREES)
    if ending == "failure":
        return [event("phase.started", phase=phase), event("phase.ended", phase=phase, outcome="failure")]
    if ending == "repeat_then_success":
        return [
            event("phase.started", phase=phase),
            event("phase.ended", phase=phase, outcome="repeat", degrees=DEGREES),
            event("phase.started", phase=phase),
            success,
        ]
    return [event("phase.started", phase=phase), success]


def fold(state: SkullTales, payloads: list[dict[str, Any]], first: int = 100) -> SkullTales:
    for position, payload in enumerate(payloads, start=first):
        result = step(GAME, state, decode(payload), Meta(position=position))
        assert result is not None
        state = result
    return state


@st.composite
def campaigns(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Chapters 1, 2, ... (a chapter may be replayed), each with its phases in order, dice rolled anywhere."""
    payloads: list[dict[str, Any]] = []
    number = 0
    for _ in range(draw(st.integers(1, 4))):
        number = number + 1 if number == 0 or draw(st.booleans()) else number
        phases = draw(chapter_phases)
        payloads.append(event("chapter.started", number=number, phases=phases))
        for phase in phases:
            for payload in phase_steps(phase, draw(adventure_ending)):
                payloads.append(payload)
                if draw(st.booleans()):
                    payloads.append(roll(draw(st.lists(st.integers(1, 6), min_size=1, max_size=5))))
        payloads.append(event("chapter.ended", number=number))
    return payloads


@settings(max_examples=60, deadline=None)
@for_all(campaigns())
def test_chapters_whose_phases_follow_their_order_are_accepted(payloads):
    state = fold(CREWED, payloads)
    assert state.chapter_phases == [] and state.phase is None


@settings(max_examples=80, deadline=None)
@for_all(phases=chapter_phases, ending=st.sampled_from(["success", "failure"]), data=st.data())
def test_a_chapter_s_phase_steps_out_of_order_are_refused_at_the_first_step_out_of_place(phases, ending, data):
    # (A repeated Adventure is left out: its two endings may change places and stay legal.)
    steps = [s for phase in phases for s in phase_steps(phase, ending)]
    shuffled = data.draw(st.permutations(steps))
    if shuffled == steps:
        return
    state = fold(CREWED, [event("chapter.started", number=1, phases=phases)])
    first_wrong = next(i for i, (a, b) in enumerate(zip(shuffled, steps, strict=True)) if a != b)
    state = fold(state, shuffled[:first_wrong])
    try:
        step(GAME, state, decode(shuffled[first_wrong]), Meta(position=500))
    except Rejection as refusal:
        assert refusal.reason.endswith((".", ")")), refusal.reason
    else:
        raise AssertionError(f"{shuffled[first_wrong]} was accepted out of place after {shuffled[:first_wrong]}")


@settings(max_examples=40, deadline=None)
@for_all(phases=chapter_phases)
def test_a_chapter_ends_only_after_its_phases_and_the_next_starts_only_after_it_ends(phases):
    state = fold(CREWED, [event("chapter.started", number=1, phases=phases), event("phase.started", phase=phases[0])])
    for early in (event("chapter.ended", number=1), event("chapter.started", number=2)):
        try:
            step(GAME, state, decode(early), Meta(position=500))
        except Rejection:
            continue
        raise AssertionError(f"{early} was accepted with the {phases[0]} phase open")


# Where a roll may fall: before any chapter, in each phase, after a Pirate went back aboard, between chapters.
PLACES = [
    [],
    [event("chapter.started", number=1, phases=["port", "voyage", "adventure"])],
    [event("chapter.started", number=1, phases=["port", "voyage", "adventure"]), event("phase.started", phase="port")],
    [
        event("chapter.started", number=1, phases=["port", "voyage", "adventure"]),
        event("phase.started", phase="port"),
        event("pirate.boarded", pirate_id="jack"),
    ],
    [event("chapter.started", number=1, phases=["voyage"]), event("phase.started", phase="voyage")],
    [
        event("chapter.started", number=1, phases=["adventure"]),
        event("phase.started", phase="adventure"),
        event("pirate.unconscious", pirate_id="mary"),
    ],
    [
        event("chapter.started", number=1, phases=["port"]),
        event("phase.started", phase="port"),
        event("phase.ended", phase="port"),
        event("chapter.ended", number=1),
    ],
]


@settings(max_examples=60, deadline=None)
@for_all(
    place=st.sampled_from(PLACES),
    faces=st.lists(st.integers(1, 6), min_size=1, max_size=5),
    who=st.sampled_from([None, "anne", "jack", "mary"]),
)
def test_a_dice_roll_is_a_fact_never_refused_for_the_phase_it_falls_in(place, faces, who):
    state = fold(CREWED, place)
    rolled = {**roll(faces), "data": {**roll(faces)["data"], "character_id": who}}
    after = fold(state, [rolled], first=900)
    assert after.rolls[-1].faces == faces


@settings(max_examples=40, deadline=None)
@for_all(faces=st.lists(st.integers(1, 6), min_size=6, max_size=8))
def test_a_roll_of_more_than_five_dice_is_refused_as_integrity_even_with_an_override(faces):
    try:
        step(GAME, CREWED, decode(roll(faces)), Meta(position=900, override="we roll them all"))
    except Rejection as refusal:
        assert refusal.kind == "integrity"
        assert refusal.reason == (
            f"Skull Tales rolls at most 5 dice at once, and this roll has {len(faces)} (Book I: Dice Rolls, Dice Limit)."
        )
    else:
        raise AssertionError("six dice were accepted")
