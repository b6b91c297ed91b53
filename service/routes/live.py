"""Server-sent events: every new position of a campaign, resumable from `Last-Event-ID`."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Annotated

import msgspec
from litestar import Request, get
from litestar.params import QueryParameter
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from service.auth import Asking, CampaignId, EventStore
from service.live import Wakeups
from service.narration import narrate
from service.problems import Problem
from service.store import Store

PAGE = 500
# Seconds between heartbeats when nothing happens; also how late a stream can be if a wake-up is ever lost.
HEARTBEAT = 15.0

_encode = msgspec.json.Encoder().encode


async def _follow(
    store: Store, wakeups: Wakeups, campaign_id: uuid.UUID, after: int
) -> AsyncIterator[ServerSentEventMessage]:
    # Tell the client how soon to come back if the connection drops.
    yield ServerSentEventMessage(comment="following", retry=2000, data=None)
    game = await store.game_of(campaign_id)
    while True:
        # Each event with its sentence, as the history answers it: the table page shows the sentence as it comes.
        page = await narrate(store, campaign_id, game, await store.history(campaign_id, after=after, limit=PAGE))
        for recorded in page:
            yield ServerSentEventMessage(id=recorded.position, event="event", data=_encode(recorded).decode())
            after = recorded.position
        if len(page) < PAGE:
            await wakeups.wait(campaign_id, HEARTBEAT, after=after)
            yield ServerSentEventMessage(comment="heartbeat", data=None)


@get("/v1/campaigns/{campaign:str}/stream", summary="Follow the log live (server-sent events)")
async def stream(
    request: Request,
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    after: Annotated[
        int | None, QueryParameter(description="Start after this position (else Last-Event-ID, else 0).")
    ] = None,
) -> ServerSentEvent:
    resume = request.headers.get("last-event-id")
    if after is None and resume:
        try:
            after = int(resume)
        except ValueError:
            raise Problem(422, f"Last-Event-ID must be a position; {resume!r} is not.", kind="bad-cursor") from None
    after = after or 0
    if after < 0:
        raise Problem(422, f"`after` must be a position, 0 or more; {after} is not.", kind="bad-cursor")
    return ServerSentEvent(_follow(store, request.app.state.wakeups, campaign_id, after))


ROUTES = [stream]
