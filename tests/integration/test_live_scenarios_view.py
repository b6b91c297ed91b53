"""The live stream's `/scenarios` view, made from what the feed remembers (audit/played.py's `Memo`), is the answer
`/scenarios` reads from the log, after every run of events: notes, a scenario ended, its end undone and redone, and
the next scenario started."""

from __future__ import annotations

import asyncio
import uuid

import msgspec

from quartermaster.projections.registry import game
from quartermaster.service.application.audit.played import played
from quartermaster.service.http.intake import prepare
from quartermaster.service.http.requests import NewEvent
from tests.integration.following import GAME, collect, events_of, new_campaign, process
from tests.unit.pacg.example_of_play import SETTING_UP


def _events(*payloads: dict) -> list:
    return prepare(GAME, msgspec.convert(list(payloads), list[NewEvent]))


NOTE = {"type": "note.added", "data": {"text": "A gull steals the biscuit."}}
ENDED = {"type": "scenario.ended", "data": {"result": "won"}}
STARTED = next(p for p in SETTING_UP if p["type"] == "scenario.started")


async def _views_at(stream, position: int) -> dict:
    views: list = []
    await collect(stream, position, views)
    while not views or views[-1]["position"] < position:
        views.extend(data for event, data in events_of(await anext(stream)) if event == "views")
    return views[-1]["views"]["/scenarios"]


def test_the_streams_scenarios_view_is_what_the_log_answers_after_every_run_of_events(database_url):
    async def scenario() -> list[tuple[dict, dict]]:
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            appended = await store.append(campaign, _events(*SETTING_UP), actor="owner")
            stream = wakeups.follow(campaign, appended.last_position, views=True)
            await anext(stream)
            pairs = []

            async def check(position: int) -> None:
                sent = await _views_at(stream, position)
                read = msgspec.json.decode(msgspec.json.encode(await played(store, campaign, game(GAME), position)))
                pairs.append((sent, read))

            for payloads in ([NOTE], [NOTE, NOTE], [ENDED], [NOTE]):
                await check((await store.append(campaign, _events(*payloads), actor="owner")).last_position)
            ended = next(e for e in (await store.history(campaign, after=0, limit=1000)) if e.type == "scenario.ended")
            undone = await store.undo(
                campaign, batch=ended.batch, cascade=True, reason=None, actor="owner", only_own=False
            )
            await check(undone.last_position)
            await check((await store.append(campaign, _events(NOTE), actor="owner")).last_position)
            redone = await store.redo(campaign, batch=ended.batch, reason=None, actor="owner", only_own=False)
            await check(redone.last_position)
            again = dict(STARTED, id=str(uuid.uuid4()))
            await check((await store.append(campaign, _events(again, NOTE), actor="owner")).last_position)
            await check((await store.append(campaign, _events(NOTE), actor="owner")).last_position)
            await stream.aclose()
            return pairs

    pairs = asyncio.run(scenario())

    for sent, read in pairs:
        assert sent == read
    assert [len(read["scenarios"]) for _, read in pairs] == [1, 1, 1, 1, 1, 1, 1, 2, 2]
    assert [read["scenarios"][0]["ended"] for _, read in pairs] == [
        False,
        False,
        True,
        True,
        False,
        False,
        True,
        True,
        True,
    ]
    assert pairs[-1][1]["scenarios"][0]["played_by"], "the party as the scenario started"
