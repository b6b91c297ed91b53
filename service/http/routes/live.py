"""Server-sent events: every new position of a campaign, resumable from `Last-Event-ID` (service.live says how)."""

from __future__ import annotations

from typing import Annotated

from litestar import get
from litestar.params import QueryParameter
from litestar.response import Stream

from quartermaster.service.http.auth import Asking, CampaignId, presented_token
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import AnyRequest


@get(
    "/v1/campaigns/{campaign:str}/stream",
    summary="Follow the log live (server-sent events)",
    description="Each event is a message `event` (id: its position; data: the event as the history answers it, with "
    "its sentence). With `views=true`, after each run of events a message `views` (no id) answers what the table page "
    "reads after an event, as of the last of them: `{position, views}`, where `views` maps the path of each view "
    "(`/state`, `/scenario`, `/characters/{id}`, `/scenarios`...) to the answer that path gives. When the server "
    "stops, a last message `closing` says so. When the member's access ends while the stream is open (the owner "
    "revoked them, or gave them a new join link), a last message `ended` says why: `{kind, detail}`, `kind` being "
    "`revoked` or `token-replaced` and `detail` a sentence; the stream then ends, and opening it again with the same "
    "token is refused (401).",
)
async def stream(
    request: AnyRequest,
    campaign_id: CampaignId,
    member: Asking,
    after: Annotated[
        int | None, QueryParameter(description="Start after this position (else Last-Event-ID, else 0).")
    ] = None,
    views: Annotated[
        bool, QueryParameter(description="Also send, after each run of events, the views the table page reads.")
    ] = False,
) -> Stream:
    resume = request.headers.get("last-event-id")
    if after is None and resume:
        try:
            after = int(resume)
        except ValueError:
            raise Problem(422, f"Last-Event-ID must be a position; {resume!r} is not.", kind="bad-cursor") from None
    after = after or 0
    if after < 0:
        raise Problem(422, f"`after` must be a position, 0 or more; {after} is not.", kind="bad-cursor")
    return Stream(
        request.app.state.wakeups.follow(campaign_id, after, views, presented_token(request, campaign_id)),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"},
    )


ROUTES = [stream]
