"""Which events count, as the log stood at a position: the effective log after undo and redo markers.

"State at N" is what the tracker showed right after position N: the fold of events up to N, leaving out those
that markers up to N had undone (and not redone). A later undo does not rewrite what the table saw at N; it
changes the state from its own position on. That makes every snapshot permanent: the state after position P never
changes once P is recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

UNDONE = "event.undone"
REDONE = "event.redone"
MARKER_TYPES = (UNDONE, REDONE)


class Marker(tuple[int, str, tuple[int, ...]]):
    """(position, type, targets) of an undo or redo marker."""

    __slots__ = ()

    def __new__(cls, position: int, type_: str, targets: Sequence[int]) -> Marker:
        return super().__new__(cls, (position, type_, tuple(targets)))

    @property
    def position(self) -> int:
        return self[0]

    @property
    def type(self) -> str:
        return self[1]

    @property
    def targets(self) -> tuple[int, ...]:
        return self[2]


def undone_as_of(markers: Iterable[Marker], at: int) -> dict[int, int]:
    """Positions undone as the log stood at `at`, each with the position of the marker that undid it."""
    undone: dict[int, int] = {}
    for marker in sorted(markers):
        if marker.position > at:
            break
        for target in marker.targets:
            if marker.type == UNDONE:
                undone[target] = marker.position
            else:
                undone.pop(target, None)
    return undone


def safe_start(snapshots: Sequence[int], markers: Iterable[Marker], at: int) -> int:
    """The latest snapshot position S <= at from which folding (S, at] gives the state at `at`.

    A snapshot is unusable when a marker after it (and by `at`) undoes or redoes something before it: the snapshot
    folded that event in or out the other way. 0 means fold from the beginning.
    """
    later = [m for m in markers if m.position <= at]
    limit = at
    while True:
        candidates = [s for s in snapshots if s <= limit]
        start = max(candidates, default=0)
        touched = [t for m in later if m.position > start for t in m.targets]
        earliest = min(touched, default=start + 1)
        if earliest > start:
            return start
        limit = earliest - 1
