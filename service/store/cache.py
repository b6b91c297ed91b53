"""The process's memory of folded states, and the decoders that read stored states."""

from __future__ import annotations

import uuid
from collections import OrderedDict
from typing import Any

import msgspec

from projections.game import Game


class StateCache:
    """The last folded state of recently written campaigns, so an append need not decode its projection row.

    Only trusted when its position equals the campaign's position read under the row lock; any other writer
    (another server, an undo) moves the position and the entry is simply ignored.
    """

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._entries: OrderedDict[uuid.UUID, tuple[int, Any]] = OrderedDict()

    def get(self, campaign_id: uuid.UUID, position: int) -> Any | None:
        entry = self._entries.get(campaign_id)
        if entry is None or entry[0] != position:
            return None
        self._entries.move_to_end(campaign_id)
        return entry[1]

    def latest(self, campaign_id: uuid.UUID) -> tuple[int, Any] | None:
        """The last committed (position, state) this process saw, which may since have been overtaken."""
        entry = self._entries.get(campaign_id)
        if entry is not None:
            self._entries.move_to_end(campaign_id)
        return entry

    def put(self, campaign_id: uuid.UUID, position: int, state: Any) -> None:
        self._entries[campaign_id] = (position, state)
        self._entries.move_to_end(campaign_id)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)


_decoders: dict[str, msgspec.json.Decoder] = {}


def state_decoder(game: Game) -> msgspec.json.Decoder:
    decoder = _decoders.get(game.id)
    if decoder is None:
        decoder = _decoders[game.id] = msgspec.json.Decoder(game.state_type)
    return decoder
