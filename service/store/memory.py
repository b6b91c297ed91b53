"""What this process remembers of the database, in one place, under one eviction rule, forgotten in one way.

Four maps, each a `Kept` (service/store/cache.py: bounded, the least recently used entry forgotten first once the map
weighs more than its budget; every key is an id's integer):
- `states`: the latest folded state of a campaign (StateCache), weighing an estimate of its bytes, within
  `state_bytes` in all;
- `games`: the game a campaign plays, which never changes;
- `members`: a member's row (campaign, name, role, token hash), trusted only while the member changes are heard
  (service/store/members.py);
- `tokens`: tokens already matched against their member's hash, by their digest (service.tokens.Verified);
the last three weigh 1 an entry, `KEPT` in each.

Forgetting: `forget` drops everything (the log this was learnt from is no longer the log there is), `forget_member`
a member's row and tokens (or every member's), `forget_campaign` a campaign's state and game. `generation` counts
members forgotten: a member row read from the database while it moved may be older than the change, and is then not
kept.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from quartermaster.service.platform import metrics
from quartermaster.service.platform.tokens import Verified
from quartermaster.service.store.cache import DEFAULT_BYTES, Kept, StateCache

# (campaign_id, name, role, token_hash) of a member, as members.member_credentials reads it.
MemberRow = tuple[uuid.UUID, str, str, bytes]

log = logging.getLogger("quartermaster")


class Memory:
    """The process's memory of the database (module docstring)."""

    KEPT = 10_000

    def __init__(self, states: StateCache | None = None, *, kept: int = KEPT, state_bytes: int = DEFAULT_BYTES) -> None:
        self.states = states if states is not None else StateCache(state_bytes)
        self.games: Kept[int, str] = Kept(kept)
        self.members: Kept[int, MemberRow] = Kept(kept)
        self.tokens = Verified(Kept(kept))
        self.generation = 0
        # Told of every member forgotten (None: every member), after they are: the live streams end a revoked
        # member's at once (service/application/live.py).
        self.on_forget_member: list[Callable[[uuid.UUID | None], None]] = []

    def forget(self, why: str) -> None:
        """Drop everything remembered (states, games, members, tokens): the log it was learnt from is no longer the
        log there is (it went back in time, or another server answers now)."""
        log.warning("forgetting every cached state, game and member: %s", why)
        self.states.clear()
        self.games.clear()
        self.forget_member(None)
        metrics.forgotten()

    def forget_member(self, member_id: uuid.UUID | None) -> None:
        """Forget a member's kept row and tokens (everyone's, for None)."""
        self.generation += 1
        if member_id is None:
            self.members.clear()
            self.tokens.clear()
        else:
            self.members.pop(member_id.int, None)
            self.tokens.forget(member_id)
        for told in self.on_forget_member:
            told(member_id)

    def forget_campaign(self, campaign_id: uuid.UUID) -> None:
        """Forget a campaign's state and game."""
        self.states.forget(campaign_id)
        self.games.pop(campaign_id.int, None)

    def behind(self, campaign_id: uuid.UUID, remembered: tuple[int, Any] | None, position: int | None) -> None:
        """Forget everything if the database's log for a campaign (at `position`, None for no campaign at all)
        ends before what this process committed or read of it (`remembered`, the state cache's latest, taken before
        the statement that read `position`: anything committed since cannot then pass for a log gone back).

        Positions name states only along one log. A log that lost its last commits is written on again from its
        real end, and the states this process kept from beyond it would be taken for the new events' states."""
        if remembered is not None and (position is None or position < remembered[0]):
            self.forget(
                f"campaign {campaign_id}'s log ends at position {position or 0}, before position "
                f"{remembered[0]} this process saw committed (a failover that lost commits, or an older copy restored)"
            )
