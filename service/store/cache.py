"""The one eviction rule of the process's memory (`Kept`), the folded states kept under it, and their decoders."""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, Generic, TypeVar

import msgspec

from quartermaster.projections.game import Game

# A decoded state takes about five times the bytes of its JSON (the ledger in benchmarks/README.md gives the
# measurement): its JSON's length times this is the weight of a kept state.
IN_MEMORY_PER_JSON_BYTE = 5
DEFAULT_BYTES = 128 * 2**20

_encode = msgspec.json.Encoder().encode

K = TypeVar("K")
V = TypeVar("V")


class Kept(MutableMapping[K, V], Generic[K, V]):
    """A map bounded by a budget: past it, the least recently used entries are forgotten first.

    This is the one rule for everything the process remembers of the database (service/store/memory.py). Each entry
    has a weight (1 unless `put` gives another: a folded state weighs its estimated bytes), and after every insertion
    the oldest entries go while the total weighs more than `budget`, never the entry just put. A look-up with `get`
    is a use (it moves the entry to the young end); `[]`, `in` and iterating are not, so a walk over the entries
    never reorders them.
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.weight = 0
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        # peek(key): the entry's value and weight, without counting it as a use; None when there is none. The map's
        # own `get`, called in C: the state cache peeks on every append.
        self.peek: Callable[[K], tuple[V, int] | None] = self._entries.get
        self._use = self._entries.move_to_end

    def get(self, key: K, default: Any = None) -> Any:
        # Moved first, read after: a miss (rare: each key is missed once before it is put) raises, where a look-up
        # then a move was two calls on every hit.
        try:
            self._use(key)
        except KeyError:
            return default
        return self._entries[key][0]

    def put(self, key: K, value: V, weight: int = 1) -> None:
        entries = self._entries
        old = entries.pop(key, None)
        entries[key] = (value, weight)
        self.weight += weight if old is None else weight - old[1]
        while self.weight > self.budget and len(entries) > 1:
            _, (_, dropped) = entries.popitem(last=False)
            self.weight -= dropped

    def __getitem__(self, key: K) -> V:
        return self._entries[key][0]

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __delitem__(self, key: K) -> None:
        self.weight -= self._entries.pop(key)[1]

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self.weight = 0


class StateCache:
    """The latest folded state of recently used campaigns, kept under the one rule (`Kept`), each weighing an estimate
    of the memory it takes, within `max_bytes`.

    An append folds onto the entry and writes only events; a read answers from it. An entry is only trusted at its
    own position: another writer (another process, a request in flight) moves the campaign's position, and the
    entry is then passed over, never used for a later position. Entries are put only after commit.

    Entries are keyed by the campaign id's integer, as every map of the process's memory is: uuid.UUID hashes and
    compares in Python (its __hash__ and __eq__, called for every look-up with an id parsed from a request), an int
    in C.
    """

    def __init__(self, max_bytes: int = DEFAULT_BYTES) -> None:
        self._kept: Kept[int, tuple[int, Any]] = Kept(max_bytes)

    @property
    def max_bytes(self) -> int:
        return self._kept.budget

    @property
    def bytes(self) -> int:
        return self._kept.weight

    def clear(self) -> None:
        self._kept.clear()

    def forget(self, campaign_id: uuid.UUID) -> None:
        self._kept.pop(campaign_id.int, None)

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, campaign_id: uuid.UUID, position: int) -> Any | None:
        key = campaign_id.int
        entry = self._kept.peek(key)  # a use only when it answers
        if entry is None or entry[0][0] != position:
            return None
        self._kept.get(key)
        return entry[0][1]

    def latest(self, campaign_id: uuid.UUID) -> tuple[int, Any] | None:
        """The last committed (position, state) this process saw, which may since have been overtaken."""
        entry: tuple[int, Any] | None = self._kept.get(campaign_id.int)
        return entry

    def put(self, campaign_id: uuid.UUID, position: int, state: Any, json_bytes: int | None = None) -> None:
        """Keep the state at `position`, unless a later one is already kept. `json_bytes` is the length of its JSON
        when known; else the entry's last measure is kept, and a new entry is encoded once to measure it."""
        key = campaign_id.int
        old = self._kept.peek(key)
        if old is not None and old[0][0] > position:
            return
        if json_bytes is not None:
            size = json_bytes * IN_MEMORY_PER_JSON_BYTE
        elif old is not None:
            size = old[1]
        else:
            size = len(_encode(state)) * IN_MEMORY_PER_JSON_BYTE
        self._kept.put(key, (position, state), size)


_decoders: dict[str, msgspec.json.Decoder[Any]] = {}


def state_decoder(game: Game[Any]) -> msgspec.json.Decoder[Any]:
    decoder = _decoders.get(game.id)
    if decoder is None:
        decoder = _decoders[game.id] = msgspec.json.Decoder(game.state_type)
    return decoder
