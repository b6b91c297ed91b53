"""The process's memory of folded states, and the decoders that read stored states."""

from __future__ import annotations

import uuid
from collections import OrderedDict
from typing import Any

import msgspec

from projections.game import Game

# A decoded state takes about five times the bytes of its JSON (measured with tracemalloc on a Skull & Shackles
# campaign of three scenarios: 6.7 KB of JSON, 34.5 KB of Python objects).
IN_MEMORY_PER_JSON_BYTE = 5
DEFAULT_BYTES = 128 * 2**20

_encode = msgspec.json.Encoder().encode


class StateCache:
    """The latest folded state of recently used campaigns, bounded by an estimate of the memory they take.

    An append folds onto the entry and writes only events; a read answers from it. An entry is only trusted at its
    own position: another writer (another process, a request in flight) moves the campaign's position, and the
    entry is then passed over, never used for a later position. Entries are put only after commit.

    Entries are keyed by the campaign id's integer: uuid.UUID hashes and compares in Python (its __hash__ and
    __eq__, called for every look-up with an id parsed from a request), an int in C. A one-note append looks its
    campaign up here three times; with the Store's two other caches, UUID keys took about 12,000 of its 529,000
    instructions (callgrind).
    """

    def __init__(self, max_bytes: int = DEFAULT_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[int, tuple[int, Any, int]] = OrderedDict()

    def clear(self) -> None:
        self._entries.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, campaign_id: uuid.UUID, position: int) -> Any | None:
        key = campaign_id.int
        entry = self._entries.get(key)
        if entry is None or entry[0] != position:
            return None
        self._entries.move_to_end(key)
        return entry[1]

    def latest(self, campaign_id: uuid.UUID) -> tuple[int, Any] | None:
        """The last committed (position, state) this process saw, which may since have been overtaken."""
        key = campaign_id.int
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0], entry[1]

    def put(self, campaign_id: uuid.UUID, position: int, state: Any, json_bytes: int | None = None) -> None:
        """Keep the state at `position`, unless a later one is already kept. `json_bytes` is the length of its JSON
        when known; else the entry's last measure is kept, and a new entry is encoded once to measure it."""
        key = campaign_id.int
        old = self._entries.get(key)
        if old is not None:
            if old[0] > position:
                return
            self.bytes -= old[2]
        if json_bytes is not None:
            size = json_bytes * IN_MEMORY_PER_JSON_BYTE
        elif old is not None:
            size = old[2]
        else:
            size = len(_encode(state)) * IN_MEMORY_PER_JSON_BYTE
        self._entries[key] = (position, state, size)
        self._entries.move_to_end(key)
        self.bytes += size
        while self.bytes > self.max_bytes and len(self._entries) > 1:
            _, (_, _, dropped) = self._entries.popitem(last=False)
            self.bytes -= dropped


_decoders: dict[str, msgspec.json.Decoder] = {}


def state_decoder(game: Game) -> msgspec.json.Decoder:
    decoder = _decoders.get(game.id)
    if decoder is None:
        decoder = _decoders[game.id] = msgspec.json.Decoder(game.state_type)
    return decoder
