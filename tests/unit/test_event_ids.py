"""The event ids the store draws for a batch: UUIDv7 (RFC 9562), rising with the batch's positions, never repeated.

Their order is what lets the unique index on (campaign_id, event_id) take a batch at its right edge
(benchmarks/indexes.py measures what random ids cost instead)."""

from __future__ import annotations

import time

from quartermaster.service.store.appending import time_ordered_ids


def test_the_ids_of_a_batch_rise_with_its_positions_and_are_all_different():
    ids = time_ordered_ids(5000)
    assert ids == sorted(ids) and len(set(ids)) == 5000


def test_the_ids_are_uuidv7_stamped_with_the_time_they_were_drawn():
    before = time.time_ns() // 1_000_000
    ids = time_ordered_ids(3)
    after = time.time_ns() // 1_000_000
    assert {(i.version, i.variant) for i in ids} == {(7, "specified in RFC 4122")}
    assert all(before <= i.int >> 80 <= after for i in ids)


def test_a_later_batch_draws_later_ids():
    first = time_ordered_ids(1000)
    # The stamp is in milliseconds; within one, two batches' ids are in no order. Wait for the clock, not a while.
    while time.time_ns() // 1_000_000 <= first[0].int >> 80:
        pass
    assert max(first) < min(time_ordered_ids(1000))


def test_drawing_no_ids_draws_none():
    assert time_ordered_ids(0) == []
