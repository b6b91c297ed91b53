"""A log that ends before what the process remembers (a failover that lost commits, an older copy restored): the
process forgets what it remembers, folds from the log, and never leaves a gap.

The log is cut back here the way a restore of an older copy leaves it: the later events, and anything derived from
them, are gone from the database while the process still holds their state.
"""

from __future__ import annotations

import pytest

from quartermaster.projections.registry import game
from quartermaster.service.store import Store
from tests.integration.logs import GAME, cut_back, gone, new_campaign, note, notes, positions, run


@pytest.mark.parametrize("batch", [1, 3], ids=["one event (prepared statement)", "a batch (WRITE)"])
def test_an_append_onto_a_log_cut_behind_the_cache_lands_at_the_log_end_with_no_gap(database_url, batch):
    async def scenario(store: Store, pool):
        # Given a campaign whose latest state this process holds at position 32
        campaign_id = await new_campaign(store)
        await notes(store, campaign_id, 30 // batch, batch)
        assert store.cache.latest(campaign_id)[0] == 32
        # When the database's log goes back to position 20, and the same process appends
        await cut_back(pool, campaign_id, 20)
        appended = await store.append(campaign_id, [note(f"after the cut {i}") for i in range(batch)], actor="t")
        # Then the batch lands right after the log's real end, and nothing leaves a gap
        assert appended.first_position == 21
        assert await positions(pool, campaign_id) == list(range(1, 21 + batch))
        # And the state answered is the fold of the log as it now stands, as a process with no memory folds it
        fresh = Store(pool)
        assert (await fresh.projection(campaign_id, game(GAME))) == (20 + batch, appended.state)
        assert (await store.projection(campaign_id, game(GAME)))[0] == 20 + batch

    run(database_url, scenario)


def test_reading_a_log_cut_behind_the_cache_forgets_the_cache_and_answers_the_log(database_url):
    async def scenario(store: Store, pool):
        # Given two campaigns this process holds, one of whose logs goes back
        campaign_id, other = await new_campaign(store), await new_campaign(store)
        await notes(store, campaign_id, 10)
        await notes(store, other, 5)
        await cut_back(pool, campaign_id, 6)
        # When the process reads that campaign's state
        position, state = await store.projection(campaign_id, game(GAME))
        # Then it answers the log's, and holds nothing from before (the other campaign's state is read again too)
        assert position == 6 and state == (await Store(pool).projection(campaign_id, game(GAME)))[1]
        assert store.cache.latest(other) is None
        # And appends go on from the log's end
        assert (await store.append(campaign_id, [note("next")], actor="t")).first_position == 7
        assert await positions(pool, campaign_id) == list(range(1, 8))

    run(database_url, scenario)


def test_an_append_to_a_campaign_an_older_copy_does_not_hold_is_not_found_and_writes_nothing(database_url):
    from quartermaster.service.store import CampaignNotFound

    async def scenario(store: Store, pool):
        # Given a campaign this process created and holds, which the restored copy predates
        campaign_id = await new_campaign(store)
        await notes(store, campaign_id, 3)
        await gone(pool, campaign_id)
        # When the process appends to it
        with pytest.raises(CampaignNotFound):
            await store.append(campaign_id, [note("to nowhere")], actor="t")
        # Then nothing was written, and nothing is remembered of it
        assert await positions(pool, campaign_id) == []
        assert store.cache.latest(campaign_id) is None

    run(database_url, scenario)
