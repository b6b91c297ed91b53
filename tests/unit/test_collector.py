"""The collector's policy (service/platform/collector.py): what survives is frozen out of the full passes, and a
cycle that dies while frozen is collected when everything is walked again."""

from __future__ import annotations

import gc
import weakref

import pytest

from quartermaster.service.platform import collector as collecting


class Node:
    """An object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> Node:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a


@pytest.fixture
def collector():
    kept = collecting.Collector()
    kept.walked, kept.walked_at = max(1, gc.get_freeze_count()), 0.0
    yield kept
    gc.unfreeze()


def test_a_step_leaves_nothing_for_a_full_pass_to_walk(collector):
    built = [Node() for _ in range(10_000)]
    assert len(gc.get_objects()) >= 10_000
    collector.step()
    assert len(gc.get_objects()) < 100  # what the step itself made, at most
    assert built[0] is not None


def test_a_cycle_dying_while_frozen_waits_for_a_walk_of_everything(collector, monkeypatch):
    monkeypatch.setattr(collecting, "RECLAIM", 3600.0)
    alive = [_cycle()]
    dead = weakref.ref(alive[0])
    collector.walked, collector.walked_at = max(1, gc.get_freeze_count()), collecting.time.monotonic()
    collector.step()  # frozen while alive
    alive.clear()  # now garbage, but a cycle among frozen objects
    gc.collect()
    assert dead() is not None
    grown = [Node() for _ in range(int(collecting.GROWTH * collector.walked) + 1)]
    collector.step()  # grown enough, but within RECLAIM of the last walk: nothing is walked again
    assert dead() is not None and collector.reclaims == 0
    monkeypatch.setattr(collecting, "RECLAIM", 0.0)
    collector.step()  # now everything is walked: the cycle is collected, what lives is frozen again
    assert dead() is None and collector.reclaims == 1
    assert collector.walked >= len(grown)
    assert len(gc.get_objects()) < 100


def test_a_step_counts_the_frozen_objects_only_once_a_walk_of_everything_may_be_due(collector, monkeypatch):
    counted: list[int] = []
    real = gc.get_freeze_count

    def counting() -> int:
        counted.append(1)
        return real()

    monkeypatch.setattr(collecting.gc, "get_freeze_count", counting)
    collector.walked_at = collecting.time.monotonic()
    for _ in range(5):
        collector.step()
    assert counted == []  # within the hour: counting would walk every frozen object for nothing
    collector.walked_at -= collecting.RECLAIM
    collector.step()
    assert counted  # due: counted, to see whether the frozen objects have grown enough


def test_whatever_survives_any_full_pass_is_frozen_so_passes_in_a_burst_do_not_grow(collector):
    """A burst builds faster than the steps come: CPython's own full passes, one on another, would each walk all
    that was built since the last step. Once the collector's callback is in, a full pass freezes what survived it,
    so each walks only what was built since the one before."""
    walked: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            walked.append(len(gc.get_objects()))

    gc.callbacks.extend([record, collector.after_pass])
    try:
        built = [[Node() for _ in range(4)] for _ in range(300_000)]  # 1.5 million objects, no step between
    finally:
        gc.callbacks.remove(record)
        gc.callbacks.remove(collector.after_pass)
    assert len(walked) >= 2, f"no burst of automatic full passes: {walked}"
    # Without the freeze the passes walk 101, 194, 287 ... 1,207 thousand objects; with it, each about 93 thousand.
    assert max(walked[1:]) <= 1.25 * walked[0], walked
    assert gc.get_freeze_count() >= len(built)
