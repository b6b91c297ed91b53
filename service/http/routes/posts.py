"""Play-by-post: a character's status block and a turn's post, in the format a forum takes."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import get
from litestar.params import QueryParameter

from quartermaster.service.application import postings
from quartermaster.service.http.auth import Asking, CampaignId, EventStore
from quartermaster.service.http.problems import Problem

FORMAT = QueryParameter(name="format", description="`text` (default), `bbcode` or `markdown`.")
AT = QueryParameter(description="The position (default: now).")
Format = Annotated[postings.Format, FORMAT]


def _answer(position: int, post: postings.Post, format_: postings.Format) -> dict[str, Any]:
    return {"position": position, "format": format_, "post": postings.write(post, format_)}


@get(
    "/v1/campaigns/{campaign:str}/posts/status",
    summary="A character's (or pirate's) status block for a play-by-post forum: hand, displayed cards, deck, "
    "discard and buried counts, hero points (Skull Tales: Health, Destiny Points, Fame, Coins)",
)
async def status_post(
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    character: Annotated[str, QueryParameter(description="The character's (or pirate's) id.")],
    format_: Format = "text",
    at: Annotated[int | None, AT] = None,
) -> dict[str, Any]:
    if at is not None and at < 0:
        raise Problem(422, f"`at` must be a position, 0 or more; {at} is not.", kind="bad-position")
    game = await store.game_of(campaign_id)
    position, state = await store.state_at(campaign_id, game, at)
    if state is None:
        raise Problem(404, f"Nothing had happened yet at position {position}.", kind="no-state")
    try:
        post = postings.status(game, state, character)
    except KeyError as missing:
        raise Problem(404, str(missing.args[0]), kind="not-found") from None
    return _answer(position, post, format_)


@get(
    "/v1/campaigns/{campaign:str}/posts/turn",
    summary="A turn's post (Skull Tales: a phase's) for a play-by-post forum: what was done, in the recap's "
    "sentences, and the rolls with their dice, check and difficulty",
)
async def turn_post(
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    format_: Format = "text",
    at: Annotated[int | None, QueryParameter(description="A position in the turn (default: the latest).")] = None,
) -> dict[str, Any]:
    found = await store.campaign(campaign_id)
    at = found.position if at is None else at
    if not 1 <= at <= found.position:
        raise Problem(
            422, f"The campaign's log runs from 1 to {found.position}; there is no position {at}.", kind="bad-position"
        )
    game = await store.game_of(campaign_id)
    try:
        post = await postings.turn(store, campaign_id, game, found.position, at)
    except postings.NoTurn as error:
        raise Problem(404, str(error), kind="no-turn") from None
    return _answer(found.position, post, format_)


ROUTES = [status_post, turn_post]
