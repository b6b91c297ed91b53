"""The contract every game's fold keeps, and the driver that folds events through it.

A game is a pure fold: `apply(state, event, meta) -> state`, raising `Rejection` with a sentence a player
understands when the event cannot happen. The same fold validates appends, rebuilds projections, answers
"state at position N" and re-checks later events on undo; there is no second copy of the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

import msgspec

from quartermaster.events.base import Event
from quartermaster.events.campaign import BOOKKEEPING, COMMON, MARKERS, CampaignStarted

S = TypeVar("S")


class Rejection(Exception):
    """An event that cannot be folded, with the reason in words a player understands.

    A plain Rejection is an integrity rule: the card does not exist, the character never joined, a copy would be in
    two places. Nothing overrides it. A rule of the game raises RuleBroken instead, through `broken()`.
    """

    kind = "integrity"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RuleBroken(Rejection):
    """A rule of the game the event breaks: the table may log it anyway with an override and a reason."""

    kind = "rule"


# The override reason of the event being folded, set by `step` around one event's fold. Rules read it through
# `broken()`; it is the event's own recorded override, so the fold stays a function of the log.
_overriding: ContextVar[str | None] = ContextVar("overriding", default=None)
# The rules an overridden event broke while it was folded, in order (for its sentence and the audit).
_broken_rules: ContextVar[list[str] | None] = ContextVar("broken_rules", default=None)


def broken(reason: str) -> None:
    """Refuse the event for a rule of the game, unless the table recorded an override for it.

    With an override, the rule is noted as broken and the fold goes on as if the rule allowed the event; so call it
    only where the state after it is still well defined (use `raise Rejection` for an integrity rule).
    """
    if _overriding.get() is None:
        raise RuleBroken(reason)
    noted = _broken_rules.get()
    if noted is not None:
        noted.append(reason)


@contextmanager
def overriding(reason: str | None) -> Iterator[list[str]]:
    """Fold inside this block as an event recorded with `reason` as its override (None: no override)."""
    noted: list[str] = []
    token = _overriding.set(reason)
    noted_token = _broken_rules.set(noted)
    try:
        yield noted
    finally:
        _overriding.reset(token)
        _broken_rules.reset(noted_token)


class StateStruct(msgspec.Struct, frozen=True, gc=False):
    """The base of every game's state types: frozen, and never tracked by Python's garbage collector.

    A process keeps the latest state of every campaign it serves or follows, thousands of them, and the collector's
    full passes cost time in proportion to the objects it tracks: tracked, these states made its passes last hundreds
    of milliseconds (benchmarks/README.md, capacity). A frozen state cannot form a reference cycle (each is built from
    values that exist before it, and its dicts and lists are never changed once it is returned), so reference
    counting alone frees it, and the collector need not look at it. Subclasses inherit `gc=False`; a state type that
    could hold itself must not derive from this.
    """


class Meta(msgspec.Struct, frozen=True):
    """What the log knows about an event beside its data. Folds may read it; they never invent it."""

    position: int
    actor: str = ""
    occurred_at: datetime | None = None
    # The table's reason for logging this event against a rule of the game, or None: folded as if the rule allowed
    # it (see `broken`). Integrity rules hold all the same.
    override: str | None = None


@dataclass(frozen=True)
class View:
    """A named read of a game's state (`fleet`, `vault`, a character...).

    `read(state, **params)` answers something msgspec can encode; it raises `KeyError` with a readable message
    when a parameter (a character id) names nothing.
    """

    name: str
    read: Callable[..., Any]


def shown(struct: Any, *names: str) -> dict[str, Any]:
    """A view's part that shows fields of the state as they are, each under its own name, in the order given."""
    return {name: getattr(struct, name) for name in names}


@dataclass(frozen=True)
class Episodes:
    """How a game's log divides into episodes (a Skull & Shackles scenario, a Skull Tales chapter).

    An episode runs from an event of type `started`, named by its field `name`, to the next `started` or any of
    `ended`. History filters by episode name with these ranges, read from the log itself.
    """

    started: str
    name: str
    ended: tuple[str, ...]


@dataclass(frozen=True)
class Game(Generic[S]):
    """One game Quartermaster can track."""

    id: str
    title: str
    state_type: type[S]
    # Every event type this game accepts besides the common ones in events.campaign: `own_types(handlers)` for a
    # game whose fold dispatches on a table.
    event_types: tuple[type[Event], ...]
    # The state right after `campaign.started`, from the campaign's rule options (raises Rejection on bad ones).
    initial: Callable[[Mapping[str, Any]], S]
    apply: Callable[[S, Event, Meta], S]
    views: Mapping[str, View] = field(default_factory=dict)
    # The character an event concerns, for history filters; None when it concerns none.
    character_of: Callable[[Event], str | None] = lambda event: getattr(event, "character_id", None)
    episodes: Episodes | None = None
    # The game's one registration of its events: what each type does to the state (its fold dispatches on it). The
    # event types, the history sentences and the reference are checked against it (tests/unit/test_registration.py).
    handlers: Mapping[type[Event], Callable[..., Any]] = field(default_factory=dict)
    # Every event type's sentence, `(state before, event) -> str`, from the game's `sentences` module.
    sentences: Mapping[type[Event], Callable[[Any, Any], str]] = field(default_factory=dict)
    # What a `dice.rolled` means in this game (its total, successes and success) given the state it is rolled in;
    # None: the plain reading of projections.dice. The fold checks a roll with the same function.
    read_roll: Callable[[S, Any], Any] | None = None
    # Whether the campaign's options let any player (not only the owner) log an event against a rule of the game
    # with an override (the option `overrides`: "owner", the default, or "players").
    players_may_override: Callable[[S], bool] = lambda state: False
    # What the table display (a tablet or a TV at the table) shows of the game now: a summary read from the game's
    # own views, never a rule of its own; None: the game has no table display.
    display: Callable[[S], dict[str, Any]] | None = None


def own_types(handlers: Mapping[type[Event], Callable[..., Any]]) -> tuple[type[Event], ...]:
    """A game's own event types: the types of its handler table beyond the events every game shares."""
    return tuple(t for t in handlers if t not in COMMON_TYPES)


COMMON_TYPES = frozenset(COMMON)


def step(game: Game[S], state: S | None, event: Event, meta: Meta) -> S | None:
    """Fold one event, including the events every game shares."""
    if meta.override is not None:
        with overriding(meta.override):
            return _step(game, state, event, meta)
    return _step(game, state, event, meta)


def step_noted(game: Game[S], state: S | None, event: Event, meta: Meta) -> tuple[S | None, list[str]]:
    """`step`, answering also the rules of the game the event broke under its override (none without one)."""
    if meta.override is None:
        return _step(game, state, event, meta), []
    with overriding(meta.override) as noted:
        return _step(game, state, event, meta), noted


def _step(game: Game[S], state: S | None, event: Event, meta: Meta) -> S | None:
    # A dict look-up on the exact type: isinstance on msgspec classes takes a slow path, and this runs per event.
    shared = _SHARED.get(type(event))
    if shared is None:
        if state is None:
            raise Rejection("The campaign has not started yet: its first event must be campaign.started.")
        return game.apply(state, event, meta)
    if shared == "start":
        if state is not None:
            raise Rejection("This campaign has already started; it cannot start twice.")
        if event.game != game.id:  # type: ignore[attr-defined]
            raise Rejection(f"This campaign plays {game.id}, not {event.game}.")  # type: ignore[attr-defined]
        return game.initial(event.options)  # type: ignore[attr-defined]
    if state is None:
        raise Rejection("The campaign has not started yet: its first event must be campaign.started.")
    if shared == "bookkeeping":
        return state
    raise Rejection("Undo and redo markers are written by the undo and redo endpoints, not appended.")


_SHARED: dict[type, str] = {
    CampaignStarted: "start",
    **dict.fromkeys(BOOKKEEPING, "bookkeeping"),
    **dict.fromkeys(MARKERS, "marker"),
}


class BatchRejected(Exception):
    """Some events of a batch were refused; nothing of the batch may be written."""

    def __init__(self, errors: list[tuple[int, str]], kinds: list[str] | None = None) -> None:
        super().__init__("; ".join(f"event {i}: {reason}" for i, reason in errors))
        self.errors = errors
        # Each error's kind, in the same order: "rule" (the table may override it) or "integrity" (nothing may).
        self.kinds = kinds if kinds is not None else ["integrity"] * len(errors)

    @property
    def overridable(self) -> bool:
        """Whether every refusal is a rule of the game, so the batch could be logged with an override."""
        return all(kind == "rule" for kind in self.kinds)


def fold_batch(game: Game[S], state: S | None, batch: Iterable[tuple[Event, Meta]]) -> S | None:
    """Fold a batch, collecting every rejection rather than stopping at the first.

    Bad input is refused whole: a batch that fails any check writes nothing and answers with every reason. So a
    refused event leaves the state as it was, and the events after it are still checked and reported.
    """
    errors: list[tuple[int, str]] = []
    kinds: list[str] = []
    for index, (event, meta) in enumerate(batch):
        try:
            state = step(game, state, event, meta)
        except Rejection as rejection:
            errors.append((index, rejection.reason))
            kinds.append(rejection.kind)
    if errors:
        raise BatchRejected(errors, kinds)
    return state


# The override under which `fold` replays the log: every event in it was accepted when it was appended.
RECORDED = "recorded in the log"


def fold(game: Game[S], events: Iterable[tuple[Event, Meta]], state: S | None = None) -> S | None:
    """Fold events that were already accepted (rebuilds, state at N); an integrity rejection here is drift and
    raises. A rule of the game was checked when each event was appended (or the table overrode it): a rule made
    stricter since does not unmake what the log recorded, so the log folds as it was written."""
    with overriding(RECORDED):
        for event, meta in events:
            state = step(game, state, event, meta)
    return state
