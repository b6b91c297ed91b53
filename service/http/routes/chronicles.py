"""Chronicle sheets: one per scenario or chapter played, as JSON or plain text, and their verification."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Response, get, post
from litestar.params import QueryParameter

from quartermaster.service.application import chronicles
from quartermaster.service.http.auth import Asking, CampaignId, EventStore
from quartermaster.service.http.openapi import body
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import AnyRequest, decode


class SheetToVerify(msgspec.Struct, frozen=True, kw_only=True):
    """A chronicle sheet as `/chronicles` gave it; every field it carries is checked."""

    play: int
    first: int
    last: int
    digest: str
    scenario: str | None = None
    chapter: int | None = None


@get(
    "/v1/campaigns/{campaign:str}/chronicles",
    summary="The campaign's chronicle sheets in order, one per scenario or chapter played: party, result, rewards, "
    "cards gained and lost, decks after the rebuild, feats, overrides, and the log's range and digest. Plain "
    "text with `Accept: text/plain`",
)
async def chronicle_sheets(
    request: AnyRequest,
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    format_: Annotated[
        Literal["json", "text"] | None,
        QueryParameter(
            name="format", description="`text` for plain text, as `Accept: text/plain` asks (a link cannot send it)."
        ),
    ] = None,
) -> Any:
    found = await store.campaign(campaign_id)
    game = await store.game_of(campaign_id)
    sheets = await chronicles.sheets(store, campaign_id, game, found.position)
    if format_ == "text" or (format_ is None and "text/plain" in request.headers.get("accept", "")):
        text = "\n".join(chronicles.as_text(found.name, sheet) for sheet in sheets)
        return Response(text or "No scenario or chapter has been played yet.\n", media_type="text/plain")
    return {"campaign": found.name, "position": found.position, "sheets": sheets}


@post(
    "/v1/campaigns/{campaign:str}/chronicles/verify",
    summary="Check a chronicle sheet against the log: the digest at its end recomputed, the sheet rebuilt, and "
    "which fields differ",
    status_code=200,
    operation_class=body(SheetToVerify),
)
async def verify_sheet(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> Any:
    raw = await request.body()
    decode(raw, SheetToVerify)
    claimed = msgspec.json.decode(raw)
    found = await store.campaign(campaign_id)
    if claimed["last"] > found.position:
        raise Problem(
            422,
            f"The sheet ends at position {claimed['last']}, but this campaign's log ends at {found.position}.",
            kind="bad-position",
        )
    game = await store.game_of(campaign_id)
    try:
        return await chronicles.verify(store, campaign_id, game, found.position, claimed)
    except chronicles.NotPlayed as error:
        raise Problem(404, str(error), kind="episode-not-found") from None


ROUTES = [chronicle_sheets, verify_sheet]
