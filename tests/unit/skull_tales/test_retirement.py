"""Given/when/then for retirement and matelotage: half the Coins, one item, the Legendary Pirate's free skill
(Book I: Permanent Injuries and Retirement, Character Retirement; Book II: Port Phase, Setup; Book II: Feats, Classes and Skills, Feats)."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, NED, OPTIONS, event
from tests.unit.skull_tales.table import given, refused, view, when

# Right eye, then Left eye: Jack has lost a pair (Book I: Permanent Injuries and Retirement, Character Retirement).
BLINDED = [event("injury.suffered", pirate_id="jack", roll=1), event("injury.suffered", pirate_id="jack", roll=6)]


def in_port(*extra):
    return given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        *extra,
        options=OPTIONS,
    )


def retired_jack(*before):
    """Jack (70 Coins after chapter 1) carries what `before` gives him, loses both eyes, retires; Ned replaces him."""
    return in_port(*before, *BLINDED, event("pirate.retired", pirate_id="jack"), NED)


def legendary_jack(*before, new=NED):
    """Jack learned Sweeping Strike, then bought the Legendary Pirate Feat and retired with the highest honours."""
    return in_port(
        event("coins.changed", pirate_id="jack", amount=300, source="event"),
        event("fame.changed", pirate_id="jack", amount=300, source="event"),
        event("skill.learned", pirate_id="jack", skill="Sweeping Strike"),
        *before,
        event("feat.gained", pirate_id="jack", feat="Legendary Pirate", requires={}),
        event("pirate.retired", pirate_id="jack", reason="legendary_pirate"),
        new,
    )


def test_matelotage_passes_half_the_coins_and_one_item_and_returns_the_rest_to_the_box():
    state = retired_jack(
        event("item.gained", pirate_id="jack", item="Pistol"), event("item.gained", pirate_id="jack", item="Spyglass")
    )
    state = when(state, event("matelotage.done", retired_id="jack", new_id="ned", coins=35, item="Spyglass"))
    ned, jack = view(state, "pirate", pirate_id="ned"), view(state, "pirate", pirate_id="jack")
    assert (ned["coins"], ned["items"]) == (35, ["Spyglass"])
    # "Everything else is returned to the box" (Book I: Permanent Injuries and Retirement, Character Retirement): the other 35 Coins and the Pistol.
    assert (jack["coins"], jack["items"]) == (0, [])
    entries = [(e["from"], e["to"], e["amount"]) for e in view(state, "ledger")["entries"][-2:]]
    assert entries == [("pirate:jack", "pirate:ned", 35), ("pirate:jack", "sink:returned_to_box", 35)]


def test_half_of_an_odd_purse_is_rounded_up_and_no_more():
    state = retired_jack(event("coins.changed", pirate_id="jack", amount=1, source="event"))
    # 71 Coins: half rounded up is 36 (Book I: How to start).
    assert refused(state, event("matelotage.done", retired_id="jack", new_id="ned", coins=37)) == (
        "Jack can give Ned at most half of 71 Coins, 36, not 37."
    )
    assert (
        view(
            when(state, event("matelotage.done", retired_id="jack", new_id="ned", coins=36)), "pirate", pirate_id="ned"
        )["coins"]
        == 36
    )


def test_a_legendary_item_passed_on_changes_holder_and_the_others_go_back_to_the_deck():
    state = retired_jack(
        event("item.gained", pirate_id="jack", item="Cursed Compass", kind="legendary"),
        event("item.gained", pirate_id="jack", item="Kraken Tooth", kind="legendary"),
    )
    state = when(state, event("matelotage.done", retired_id="jack", new_id="ned", coins=0, item="Cursed Compass"))
    assert state.legendary == {"Cursed Compass": "ned"}
    # The Kraken Tooth went back to the box and may be found again (Book I: Adventure Phase, Cards).
    state = when(state, event("item.gained", pirate_id="mary", item="Kraken Tooth", kind="legendary"), 1001)
    assert state.legendary == {"Cursed Compass": "ned", "Kraken Tooth": "mary"}


def test_matelotage_happens_once():
    state = retired_jack(event("item.gained", pirate_id="jack", item="Pistol"))
    state = when(state, event("matelotage.done", retired_id="jack", new_id="ned", coins=35))
    assert refused(state, event("matelotage.done", retired_id="jack", new_id="ned", coins=0)) == (
        "Jack's matelotage with Ned is done; it happens once."
    )


def test_a_legendary_pirate_teaches_the_new_pirate_a_free_skill():
    state = legendary_jack()
    before = view(state, "pirate", pirate_id="ned")
    state = when(
        state, event("matelotage.done", retired_id="jack", new_id="ned", coins=0, free_skill="Sweeping Strike")
    )
    ned = view(state, "pirate", pirate_id="ned")
    assert "Sweeping Strike" in ned["skills"]
    # Free: no Coins, Fame or Time Units; Sweeping Strike is a Special Skill and takes a slot (Book II: Feats, Classes and Skills, Rowdy Skills; Book II: Feats, Classes and Skills, Special Skills).
    assert (ned["coins"], ned["fame"], ned["time_units"]) == (before["coins"], before["fame"], before["time_units"])
    assert ned["special_skills"]["used"] == 1


def test_the_free_skill_is_one_the_retired_pirate_learned():
    assert (
        refused(
            legendary_jack(), event("matelotage.done", retired_id="jack", new_id="ned", coins=0, free_skill="Fencing")
        )
        == "Jack never learned Fencing."
    )


def test_only_a_legendary_pirate_teaches_a_free_skill():
    state = retired_jack()
    assert refused(state, event("matelotage.done", retired_id="jack", new_id="ned", coins=0, free_skill="Fighter")) == (
        "Only a Legendary Pirate teaches a free skill on retiring, and Jack is not one."
    )


def test_a_free_special_skill_needs_a_free_slot():
    # "Learning through a game effect also fails if no slot is free" (Book II: Feats, Classes and Skills, Special Skills): Ned's Fame Dial has none.
    state = legendary_jack(new={**NED, "data": {**NED["data"], "special_skill_capacity": 0}})
    assert refused(
        state, event("matelotage.done", retired_id="jack", new_id="ned", coins=0, free_skill="Sweeping Strike")
    ) == (
        "Ned cannot learn Sweeping Strike: it is a Special Skill and Ned has used all 0 slots of Special Skill capacity."
    )


def test_a_free_skill_already_known_is_not_learned_twice():
    state = legendary_jack(new={**NED, "data": {**NED["data"], "skills": ["Sweeping Strike"]}})
    assert (
        refused(state, event("matelotage.done", retired_id="jack", new_id="ned", coins=0, free_skill="Sweeping Strike"))
        == "Ned already knows Sweeping Strike."
    )


def test_retirement_compensation_is_ten_coins_from_each_other_pirate_into_nobodys_purse():
    state = retired_jack()
    state = given(
        event("salary.collected", pirate_id="mary"),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("phase.ended", phase="voyage"),
        event("phase.started", phase="adventure"),
        event(
            "phase.ended",
            phase="adventure",
            degrees={"anne": "total_success", "mary": "total_success", "ned": "total_success"},
        ),
        event("chapter.ended", number=2),
        event("chapter.started", number=3),
        state=state,
    )
    state = when(state, event("phase.started", phase="port"))
    # Anne had 60, Mary 120 + 15; Jack's injury forced retirement, so only the retirement is paid (Book I: Permanent Injuries and Retirement, Permanent Injury Chart; Book I: Permanent Injuries and Retirement, Character Retirement).
    # Ned replaces Jack and does not pay for him.
    sheets = {p["id"]: p for p in view(state, "pirates")}
    assert (sheets["anne"]["coins"], sheets["mary"]["coins"], sheets["ned"]["coins"]) == (50, 125, 0)
