"""What the process remembers of the database: one rule bounds every map, and forgetting takes one call."""

from __future__ import annotations

import uuid

from quartermaster.service.store.cache import Kept
from quartermaster.service.store.memory import Memory


def test_every_map_forgets_its_least_recently_used_entry_first_past_its_budget():
    kept: Kept[int, str] = Kept(budget=2)
    kept[1], kept[2] = "one", "two"
    assert kept.get(1) == "one"  # a look-up is a use: 2 is now the oldest
    kept[3] = "three"
    assert sorted(kept) == [1, 3] and kept.weight == 2
    kept.put(4, "heavy", weight=5)  # never the entry just put, however heavy
    assert list(kept) == [4] and kept.weight == 5


def test_memory_forgets_one_campaign_one_member_or_everything():
    memory = Memory(kept=10)
    campaign, other, member = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    for c in (campaign, other):
        memory.states.put(c, 3, "state", json_bytes=10)
        memory.games[c.int] = "pacg-skull-and-shackles"
    memory.members[member.int] = (campaign, "Lily", "player", b"hash")
    memory.tokens.keep("qm_token", type("Member", (), {"id": member})())

    memory.forget_campaign(campaign)
    assert memory.states.latest(campaign) is None and campaign.int not in memory.games
    assert memory.states.latest(other) == (3, "state") and other.int in memory.games

    generation = memory.generation
    memory.forget_member(member)
    assert member.int not in memory.members and memory.tokens.get("qm_token") is None
    assert memory.generation == generation + 1

    memory.forget("a test")
    assert len(memory.states) == len(memory.games) == len(memory.members) == len(memory.tokens) == 0
