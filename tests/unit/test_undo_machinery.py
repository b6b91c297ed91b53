"""Undo, redo and time travel as pure functions over a log, with a tiny purse game."""

from __future__ import annotations

import uuid

from hypothesis import given, settings, strategies as st

from quartermaster.events.campaign import CampaignStarted
from quartermaster.projections.game import Meta, fold
from quartermaster.projections.timeline import REDONE, UNDONE, Marker, safe_start, undone_as_of
from quartermaster.projections.undo import Conflict, Entry, recheck
from tests.unit.purse import GAME, Earned, Purse, Spent


def log(*batches):
    """Entries for batches of events, positions from 2 (position 1 is campaign.started)."""
    entries, position = [], 2
    for batch in batches:
        batch_id = uuid.uuid4()
        for event in batch:
            entries.append(Entry(position, batch_id, "x", event, Meta(position)))
            position += 1
    return entries


START = GAME.initial({})


def test_leaving_out_an_earning_that_a_later_spending_needed_reports_the_spending_with_its_reason():
    entries = log([Earned(amount=5)], [Earned(amount=3)], [Spent(amount=7)])
    result = recheck(GAME, START, entries, {2}, cascade=False)
    assert result.conflicts == [Conflict(4, "x", "Cannot spend 7 coins: the purse holds 3.")]


def test_leaving_out_an_earning_nothing_depended_on_has_no_conflict():
    entries = log([Earned(amount=5)], [Earned(amount=3)], [Spent(amount=2)])
    result = recheck(GAME, START, entries, {2}, cascade=False)
    assert result.conflicts == [] and result.state == Purse(1, (3, 4))


def test_cascade_leaves_out_every_batch_that_depended_on_the_target():
    entries = log([Earned(amount=5)], [Spent(amount=4), Spent(amount=1)], [Earned(amount=2)], [Spent(amount=2)])
    result = recheck(GAME, START, entries, {2}, cascade=True)
    # The spendings of batch 2 needed the earning; the last spending is covered by the later earning.
    assert result.excluded == {2, 3, 4} and result.conflicts == []
    assert result.state == Purse(0, (5, 6))


def test_undone_as_of_follows_undo_and_redo_markers_in_order():
    markers = [Marker(10, UNDONE, [3, 4]), Marker(12, REDONE, [3, 4]), Marker(15, UNDONE, [4])]
    assert undone_as_of(markers, 9) == {}
    assert undone_as_of(markers, 11) == {3: 10, 4: 10}
    assert undone_as_of(markers, 13) == {}
    assert undone_as_of(markers, 20) == {4: 15}


def test_a_snapshot_is_skipped_when_a_later_marker_reaches_behind_it():
    markers = [Marker(2500, UNDONE, [1500])]
    assert safe_start([1000, 2000], markers, 2600) == 1000
    assert safe_start([1000, 2000], markers, 2400) == 2000  # the marker is not yet there at 2400
    assert safe_start([1000, 2000], [Marker(2500, UNDONE, [900])], 2600) == 0


# -- laws -------------------------------------------------------------------------------------------------------

amounts = st.integers(min_value=1, max_value=9)
event = st.one_of(st.builds(Earned, amount=amounts), st.builds(Spent, amount=amounts))


def valid_batches(draw_events: list[list]) -> list[list]:
    """Keep only events the fold accepts in order, so the log is one a real campaign could have."""
    coins, kept = 0, []
    for batch in draw_events:
        accepted = []
        for e in batch:
            if isinstance(e, Spent) and e.amount > coins:
                continue
            coins += e.amount if isinstance(e, Earned) else -e.amount
            accepted.append(e)
        if accepted:
            kept.append(accepted)
    return kept


logs = st.lists(st.lists(event, min_size=1, max_size=3), min_size=1, max_size=12).map(valid_batches).filter(bool)


def whole(entries):
    started = (CampaignStarted(name="p", game="purse"), Meta(1))
    return fold(GAME, [started, *((e.event, e.meta) for e in entries)])


@settings(max_examples=200)
@given(logs, st.data())
def test_undoing_a_batch_without_conflicts_equals_the_log_without_it(batches, data):
    entries = log(*batches)
    target = data.draw(st.sampled_from(sorted({e.batch for e in entries}, key=str)))
    positions = {e.position for e in entries if e.batch == target}
    result = recheck(GAME, START, entries, positions, cascade=False)
    if not result.conflicts:
        assert result.state == whole([e for e in entries if e.batch != target])


@settings(max_examples=200)
@given(logs, st.data())
def test_undo_then_redo_restores_the_state(batches, data):
    entries = log(*batches)
    before = whole(entries)
    target = data.draw(st.sampled_from(sorted({e.batch for e in entries}, key=str)))
    positions = {e.position for e in entries if e.batch == target}
    end = entries[-1].position

    # Undo: the target and, with cascade, its dependents are left out, and a marker records which.
    undone = recheck(GAME, START, entries, positions, cascade=True)
    undo = Marker(end + 1, UNDONE, sorted(undone.excluded))
    out = undone_as_of([undo], undo.position)
    assert set(out) == undone.excluded and undone.conflicts == []
    assert undone.state == whole([e for e in entries if e.position not in out])

    # Redo, as the store does it: everything the latest undo marker left out comes back, checked by the fold.
    latest = max(out.values())
    back = sorted(p for p, marker in out.items() if marker == latest)
    redone = recheck(GAME, START, entries, set(out) - set(back), cascade=False)
    redo = Marker(end + 2, REDONE, back)
    assert redone.conflicts == [] and undone_as_of([undo, redo], redo.position) == {}
    assert redone.state == before


@settings(max_examples=200)
@given(logs, st.data())
def test_cascade_never_leaves_a_conflict_and_always_removes_the_target(batches, data):
    entries = log(*batches)
    target = data.draw(st.sampled_from(sorted({e.batch for e in entries}, key=str)))
    positions = {e.position for e in entries if e.batch == target}
    result = recheck(GAME, START, entries, positions, cascade=True)
    assert result.conflicts == [] and positions <= result.excluded
    assert result.state == whole([e for e in entries if e.position not in result.excluded])
