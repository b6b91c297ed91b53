"""A listening connection hands on every notification as it arrives, says when it is lost, and listens again."""

from __future__ import annotations

import asyncio
import uuid

import psycopg

from quartermaster.service.platform.listening import Listening


async def _until(condition, seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


def test_notifications_are_heard_as_they_arrive_with_nobody_asking(database_url):
    channel = f"qm_test_{uuid.uuid4().hex[:8]}"

    async def scenario():
        heard: list[str] = []
        ups: list[bool] = []
        listening = Listening(database_url, channel, heard.append, up=lambda: ups.append(True), down=lambda: None)
        assert await listening.start()
        try:
            async with await psycopg.AsyncConnection.connect(database_url, autocommit=True) as other:
                await other.execute("SELECT pg_notify(%s, 'one'), pg_notify(%s, 'two')", (channel, channel))
            # Nothing calls drain: the event loop reads the socket when it has data.
            await _until(lambda: len(heard) == 2)
            return heard, ups
        finally:
            await listening.stop()

    heard, ups = asyncio.run(scenario())

    assert heard == ["one", "two"]
    assert ups == [True]


def test_a_connection_cut_is_said_to_be_down_and_listens_again(database_url):
    channel = f"qm_test_{uuid.uuid4().hex[:8]}"

    async def scenario():
        heard: list[str] = []
        said: list[str] = []
        listening = Listening(
            database_url,
            channel,
            heard.append,
            up=lambda: said.append("up"),
            down=lambda: said.append("down"),
            pause=0.05,
        )
        assert await listening.start()
        try:
            async with await psycopg.AsyncConnection.connect(database_url, autocommit=True) as other:
                await other.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = %s", (f"LISTEN {channel}",)
                )
                await _until(lambda: said[-1:] == ["down"])
                assert not listening.listening and not listening.drain()
                await _until(lambda: said[-1:] == ["up"])
                await other.execute("SELECT pg_notify(%s, 'after')", (channel,))
                await _until(lambda: heard == ["after"])
            return said
        finally:
            await listening.stop()

    assert asyncio.run(scenario()) == ["up", "down", "up"]


def test_a_server_that_cannot_be_reached_is_tried_again_until_it_answers(database_url):
    channel = f"qm_test_{uuid.uuid4().hex[:8]}"
    unreachable = psycopg.conninfo.make_conninfo(database_url, host="127.0.0.1", port=1)

    async def scenario():
        said: list[str] = []
        listening = Listening(
            unreachable, channel, lambda _: None, up=lambda: said.append("up"), down=lambda: None, pause=0.05
        )
        assert not await listening.start()
        await asyncio.sleep(0.3)
        assert said == [] and not listening.listening
        listening.conninfo = database_url  # the server answers now
        await _until(lambda: said == ["up"])
        listening_now = listening.listening
        await listening.stop()
        return listening_now

    assert asyncio.run(scenario())
