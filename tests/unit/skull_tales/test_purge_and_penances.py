"""Given/when/then for the Purge skill's once-per-Voyage Charisma 5 roll (Book II: Feats, Classes and Skills, Mystic Skills) and for penances broken in the
Adventure that follows them (Book II: Locations, Saint Telmo's Chapel)."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, WITCH, event
from tests.unit.skull_tales.table import at_sea, given, refused, view, when

ADVENTURE_DEGREES = {"anne": "total_success", "jack": "total_success", "mary": "total_success"}
# A partial success the crew repeats to improve on (Book I: End of the Adventure).
PARTIAL = {"anne": "partial_success", "jack": "partial_success", "mary": "partial_success"}


def sheet(state, pirate_id):
    return view(state, "pirate", pirate_id=pirate_id)


# --- Purge -----------------------------------------------------------------------------------------------------------


def test_a_purge_roll_above_five_frees_the_named_cursed_pirate_and_its_three_fame_wait_for_the_voyages_end():
    state = when(at_sea(), event("purge.used", pirate_id="tia", roll=2, cursed_id="jack"))  # 4 + 2 = 6 > 5
    assert sheet(state, "jack")["cursed"] is False
    assert sheet(state, "tia")["at_risk"]["fame"] == 3
    state = when(state, event("phase.ended", phase="voyage"), 1001)
    assert sheet(state, "tia")["fame"] == 3


def test_a_failed_purge_roll_frees_nobody_and_spends_the_voyages_purge():
    state = when(at_sea(), event("purge.used", pirate_id="tia", roll=1, cursed_id="jack"))  # 4 + 1 = 5, not above
    assert sheet(state, "jack")["cursed"] is True
    assert sheet(state, "tia")["at_risk"]["fame"] == 0
    assert refused(state, event("purge.used", pirate_id="tia", roll=6, cursed_id="jack")) == (
        "Tia has already used Purge in this Voyage Phase; it is used once per Voyage Phase (Book II: Feats, Classes and Skills, Mystic Skills)."
    )


def test_a_purge_roll_that_meets_five_passes_when_the_campaign_reads_charisma_difficulties_as_meet():
    state = when(
        at_sea(options={**OPTIONS, "charisma_difficulty": "meet"}),
        event("purge.used", pirate_id="tia", roll=1, cursed_id="jack"),
    )
    assert sheet(state, "jack")["cursed"] is False


def test_a_destiny_point_spent_on_the_purge_roll_adds_one_to_its_die():
    state = at_sea(event("destiny.changed", pirate_id="tia", amount=-1, plus_one=True))
    state = when(state, event("purge.used", pirate_id="tia", roll=1, cursed_id="jack"))  # 4 + 1 + 1 = 6
    assert sheet(state, "jack")["cursed"] is False
    assert "tia" not in state.plus_one


def test_purge_is_ready_again_when_the_next_voyage_starts():
    state = at_sea(
        event("purge.used", pirate_id="tia", roll=1, cursed_id="jack"),
        event("phase.ended", phase="voyage"),
        event("chapter.ended", number=1),
        event("chapter.started", number=2, phases=["voyage"]),
        event("phase.started", phase="voyage"),
    )
    state = when(state, event("purge.used", pirate_id="tia", roll=3, cursed_id="jack"))
    assert sheet(state, "jack")["cursed"] is False


def test_a_purge_logged_the_old_way_replays_and_counts_as_the_voyages_purge():
    state = when(
        at_sea(event("curse.gained", pirate_id="anne")),
        event("curse.removed", pirate_id="jack", by="purge", purger_id="tia"),
    )
    assert sheet(state, "jack")["cursed"] is False
    assert refused(state, event("purge.used", pirate_id="tia", roll=6, cursed_id="anne")) == (
        "Tia has already used Purge in this Voyage Phase; it is used once per Voyage Phase (Book II: Feats, Classes and Skills, Mystic Skills)."
    )


def test_a_purge_ends_the_penance_the_freed_pirate_was_doing():
    state = given(
        *CREW,
        *CHAPTER_ONE,
        WITCH,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        event("curse.gained", pirate_id="jack"),
        event("penance.chosen", pirate_id="jack", penance="wroth"),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        options=OPTIONS,
    )
    state = when(state, event("purge.used", pirate_id="tia", roll=4, cursed_id="jack"))
    assert (sheet(state, "jack")["cursed"], sheet(state, "jack")["penance"]) == (False, None)


# --- broken penances --------------------------------------------------------------------------------------------------


def penitent(penance, *extra, options=None):
    """Chapter 2: Jack, Cursed, chooses a penance in the Port; the crew sails and starts the Adventure."""
    return given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        event("curse.gained", pirate_id="jack"),
        event("penance.chosen", pirate_id="jack", penance=penance),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("phase.ended", phase="voyage"),
        event("phase.started", phase="adventure"),
        *extra,
        options=options if options is not None else OPTIONS,
    )


NEXT_PORT = [
    event("phase.ended", phase="adventure", degrees=ADVENTURE_DEGREES),
    event("chapter.ended", number=2),
    event("chapter.started", number=3),
    event("phase.started", phase="port"),
]


def test_a_greedy_penitent_who_loots_a_fallen_enemy_breaks_the_penance_and_the_chapel_keeps_the_curse():
    state = when(penitent("greedy"), event("coins.changed", pirate_id="jack", amount=3, source="fallen_enemy"))
    jack = sheet(state, "jack")
    assert (jack["at_risk"]["coins"], jack["penance_broken"]) == (3, "took 3 Coins from a Fallen Enemy token")
    state = given(*NEXT_PORT, state=state)
    assert refused(state, event("curse.removed", pirate_id="jack", by="atonement")) == (
        "Jack broke the penance for the Greedy: Jack took 3 Coins from a Fallen Enemy token in the Adventure after "
        "choosing it, so the Chapel does not lift the Curse; Jack may choose a new penance."
    )


def test_a_pirate_whose_penance_broke_chooses_and_pays_for_a_new_one():
    state = given(
        event("coins.changed", pirate_id="jack", amount=1, source="fallen_enemy"), *NEXT_PORT, state=penitent("greedy")
    )
    coins = sheet(state, "jack")["coins"]
    state = when(state, event("penance.chosen", pirate_id="jack", penance="wroth"))
    jack = sheet(state, "jack")
    assert (jack["penance"], jack["penance_broken"], jack["coins"]) == (
        "wroth",
        None,
        coins - 20,
    )  # Book II: Locations, Saint Telmo's Chapel
    assert jack["cursed"] is True


def test_a_greedy_penitent_keeps_the_penance_with_coins_that_come_from_elsewhere():
    state = given(
        event("coins.changed", pirate_id="jack", amount=5, source="search_card"),
        event("coins.changed", pirate_id="jack", amount=4, source="goal"),
        *NEXT_PORT,
        state=penitent("greedy"),
    )
    state = when(state, event("curse.removed", pirate_id="jack", by="atonement"))
    assert (sheet(state, "jack")["cursed"], sheet(state, "jack")["penance_broken"]) == (False, None)


def test_a_prideful_penitent_who_takes_fame_for_an_enemy_breaks_the_penance():
    state = when(penitent("prideful"), event("fame.changed", pirate_id="jack", amount=2, source="enemy"))
    assert sheet(state, "jack")["penance_broken"] == "gained 2 Fame for defeating an Enemy"
    state = given(*NEXT_PORT, state=state)
    assert refused(state, event("curse.removed", pirate_id="jack", by="atonement")) == (
        "Jack broke the penance for the Prideful: Jack gained 2 Fame for defeating an Enemy in the Adventure after "
        "choosing it, so the Chapel does not lift the Curse; Jack may choose a new penance."
    )


def test_a_prideful_penitent_keeps_the_penance_with_fame_from_a_goal():
    state = given(
        event("fame.changed", pirate_id="jack", amount=5, source="goal"), *NEXT_PORT, state=penitent("prideful")
    )
    assert sheet(state, "jack")["penance_broken"] is None


def test_the_wroths_penance_is_not_broken_by_anything_the_log_records():
    # Its "offensive actions against an Enemy that has not previously attacked you" happen in combat (Book II: Locations, Saint Telmo's Chapel).
    state = given(
        event("coins.changed", pirate_id="jack", amount=2, source="fallen_enemy"),
        event("fame.changed", pirate_id="jack", amount=2, source="enemy"),
        state=penitent("wroth"),
    )
    assert sheet(state, "jack")["penance_broken"] is None


def test_the_campaign_may_refuse_what_a_penance_forbids_instead():
    options = {**OPTIONS, "penance_breach": "refused"}
    assert refused(
        penitent("greedy", options=options), event("coins.changed", pirate_id="jack", amount=3, source="fallen_enemy")
    ) == (
        "Jack is doing the penance for the Greedy and cannot take rewards from Fallen Enemy tokens in this "
        "Adventure (Book II: Locations, Saint Telmo's Chapel)."
    )
    assert refused(
        penitent("prideful", options=options), event("fame.changed", pirate_id="jack", amount=2, source="enemy")
    ) == (
        "Jack is doing the penance for the Prideful and cannot gain Fame by defeating Enemies in this "
        "Adventure (Book II: Locations, Saint Telmo's Chapel)."
    )


def test_a_repeated_adventure_forgets_the_breach_made_in_the_attempt():
    state = given(
        event("coins.changed", pirate_id="jack", amount=3, source="fallen_enemy"),
        event("phase.ended", phase="adventure", outcome="repeat", degrees=PARTIAL),
        event("phase.started", phase="adventure"),
        state=penitent("greedy"),
    )
    assert sheet(state, "jack")["penance_broken"] is None
    state = when(state, event("coins.changed", pirate_id="jack", amount=2, source="fallen_enemy"))
    assert sheet(state, "jack")["penance_broken"] == "took 2 Coins from a Fallen Enemy token"


def test_looting_in_a_later_adventure_does_not_break_a_penance_already_fulfilled():
    state = given(
        *NEXT_PORT,
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("phase.ended", phase="voyage"),
        event("phase.started", phase="adventure"),
        event("coins.changed", pirate_id="jack", amount=3, source="fallen_enemy"),
        state=penitent("greedy"),
    )
    assert sheet(state, "jack")["penance_broken"] is None


def test_the_chapel_waits_for_the_adventure_that_fulfils_the_penance():
    state = given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2, phases=["port"]),
        event("phase.started", phase="port"),
        event("curse.gained", pirate_id="jack"),
        event("penance.chosen", pirate_id="jack", penance="greedy"),
        event("phase.ended", phase="port"),
        event("chapter.ended", number=2),
        event("chapter.started", number=3),
        event("phase.started", phase="port"),
        options=OPTIONS,
    )
    assert refused(state, event("curse.removed", pirate_id="jack", by="atonement")) == (
        "Jack has not yet played the Adventure that fulfils the penance for the Greedy; the Chapel lifts the Curse "
        "in the Port Phase after it."
    )
