"""The audit: the scenarios or chapters played, a report of each, a diff between two positions, a recap, a fork."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import Response, get, post
from litestar.params import QueryParameter

from quartermaster.projections.game import Game
from quartermaster.service.application.audit import diff as differ, episodes as listing, fork as forking, markdown
from quartermaster.service.application.audit.account import account
from quartermaster.service.application.audit.played import played
from quartermaster.service.application.audit.recap import recap as recap_of
from quartermaster.service.application.audit.report import WORDS, names_of, report
from quartermaster.service.application.refold import Founding, RefoldError, new_campaign_from_log
from quartermaster.service.http.auth import OWNER, Asking, CampaignId, EventStore, may
from quartermaster.service.http.openapi import body
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.replica import SEEN, reading
from quartermaster.service.http.requests import AnyRequest, Name, decode
from quartermaster.service.platform import tokens
from quartermaster.service.store import Store

MARKDOWN = "text/markdown"


async def _campaign(store: Store, campaign_id: uuid.UUID) -> tuple[Game[Any], int]:
    found = await store.campaign(campaign_id)
    return await store.game_of(campaign_id), found.position


@get(
    "/v1/campaigns/{campaign:str}/scenarios",
    summary="Every scenario (Skull & Shackles) or chapter (Skull Tales) "
    "played: its positions, outcome, dates and who played",
)
async def scenarios(store: EventStore, campaign_id: CampaignId, member: Asking) -> dict[str, Any]:
    game, position = await _campaign(store, campaign_id)
    return await played(store, campaign_id, game, position)


@get(
    "/v1/campaigns/{campaign:str}/report",
    summary="What happened in a scenario or chapter: turns or phases, every "
    "check, success rates, cards, ships and plunder, or Fame, Coins, Wounds, injuries, skills and mutinies; "
    "undone entries apart. Markdown with `Accept: text/markdown`",
)
async def episode_report(
    request: AnyRequest,
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    scenario: Annotated[str | None, QueryParameter(description="The scenario's name (Skull & Shackles).")] = None,
    chapter: Annotated[int | None, QueryParameter(description="The chapter's number (Skull Tales).")] = None,
    play: Annotated[
        int | None, QueryParameter(description="Which time it was played, from 1 (default: the latest).")
    ] = None,
    seen: int | None = SEEN,
) -> Any:
    # With a replica, from it when it has reached what the caller has seen (service/http/replica.py).
    store, source = await reading(request, store, campaign_id, seen=seen)
    game, position = await _campaign(store, campaign_id)
    word = WORDS[game.id]
    asked = scenario if word == "scenario" else (str(chapter) if chapter is not None else None)
    if asked is None or (scenario is not None and chapter is not None):
        raise Problem(
            422, f"Name the {word} to report on with `?{word}=`: {game.title} has {word}s.", kind="no-episode"
        )
    found = await listing.episodes(store, campaign_id, game, position)
    episode = listing.pick(found, asked, play)
    if episode is None:
        played = ", ".join(sorted({e.name for e in found})) or "none yet"
        which = f" a {_ordinal(play)} time" if play is not None else ""
        raise Problem(
            404,
            f"This campaign has not played the {word} {asked}{which}; it has played: {played}.",
            kind="episode-not-found",
        )
    following = found[found.index(episode) + 1].first if found.index(episode) + 1 < len(found) else None
    members = {str(m): name for m, name, *_ in await store.members(campaign_id)}
    found_report = await report(store, campaign_id, game, episode, members, following)
    if wants_markdown(request):
        render = markdown.scenario if word == "scenario" else markdown.chapter
        return Response(render(found_report), media_type=MARKDOWN)
    if request.app.state.get("replica"):  # say which server answered, and where its log ended
        return found_report | {"source": source, "position": position}
    return found_report


def wants_markdown(request: AnyRequest) -> bool:
    return "text/markdown" in request.headers.get("accept", "")


FROM = QueryParameter(
    name="from", description="The earlier position: the state as the table saw it right after it (0: before anything)."
)
TO = QueryParameter(name="to", description="The later position (default: now).")
From = Annotated[int, FROM]
To = Annotated[int | None, TO]
EVENTS_PAGE = 1000
EVENTS_AFTER = QueryParameter(
    name="events_after",
    description="List the events told after this position (default: `from`); the changes are always the whole range's.",
)
EVENTS_LIMIT = QueryParameter(
    name="events_limit",
    ge=1,
    le=10_000,
    description=f"At most this many events told (default {EVENTS_PAGE}). When the range holds more, the answer's "
    "`events_next` is the `events_after` of the next page.",
)


async def _ends(
    store: Store, campaign_id: uuid.UUID, game: Game[Any], position: int, start: int, end: int | None
) -> tuple[tuple[int, Any], tuple[int, Any]]:
    end = position if end is None else end
    _check_range(start, end, position)
    return await store.state_at(campaign_id, game, start), await store.state_at(campaign_id, game, end)


def _check_range(start: int, end: int, position: int) -> None:
    if start < 0 or end < 0:
        raise Problem(422, f"Positions are 0 or more; {min(start, end)} is not.", kind="bad-position")
    if start > end:
        raise Problem(422, f"`from` ({start}) must not come after `to` ({end}).", kind="bad-range")
    if end > position:
        raise Problem(
            422, f"The campaign is at position {position}; there is no position {end} yet.", kind="bad-position"
        )


@get(
    "/v1/campaigns/{campaign:str}/diff",
    summary="What changed between two positions in every view: a list of "
    "(path, before, after) and the same in sentences",
)
async def diff(
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    start: From,
    end: To = None,
    events_after: Annotated[int | None, EVENTS_AFTER] = None,
    events_limit: Annotated[int, EVENTS_LIMIT] = EVENTS_PAGE,
) -> dict[str, Any]:
    game, position = await _campaign(store, campaign_id)
    (first, before), (last, after) = await _ends(store, campaign_id, game, position, start, end)
    found = list(differ.changes(differ.views(game, before), differ.views(game, after)))
    # What happened in between, told event by event: the events that count now (an undo shows as what it left), a
    # page of them at a time: telling every event of a 200,000-event range took seconds and answered 25 MB.
    since = first if events_after is None else events_after
    if not first <= since <= last:
        raise Problem(422, f"`events_after` must be within {first} to {last}; {since} is not.", kind="bad-position")
    events: list[dict[str, Any]] = []
    more = False
    async for told in account(store, campaign_id, game, since, last):
        if len(events) == events_limit:
            more = True
            break
        events.append({"position": told.recorded.position, "sentence": told.sentence})
    answer = {
        "from": first,
        "to": last,
        "changes": found,
        "sentences": differ.sentences(found, names_of(game, before, after)),
        "events": events,
    }
    if more:
        answer["events_next"] = events[-1]["position"]
    return answer


@get(
    "/v1/campaigns/{campaign:str}/recap",
    summary="A recap in Markdown of what happened between two positions, for "
    "a group chat or a forum: sentences by turn or phase, the rolls, the rewards",
    media_type=MARKDOWN,
)
async def recap(
    store: EventStore, campaign_id: CampaignId, member: Asking, start: From, end: To = None
) -> Response[Any]:
    game, position = await _campaign(store, campaign_id)
    _check_range(start, position if end is None else end, position)
    found = await store.campaign(campaign_id)
    text = await recap_of(store, campaign_id, game, found.name, start, position if end is None else end)
    return Response(text, media_type=MARKDOWN)


class ForkRequest(msgspec.Struct, forbid_unknown_fields=True):
    at: Annotated[int, msgspec.Meta(ge=1, description="Fork the log as the table saw it right after this position.")]
    name: Name | None = None


@post(
    "/v1/campaigns/{campaign:str}/fork",
    summary="Fork the campaign at a position (owner only): a new campaign, "
    "owned by the caller, whose log is this one's effective log up to there",
    status_code=201,
    operation_class=body(ForkRequest),
    opt=may("fork the campaign", OWNER),
)
async def fork(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> Response[Any]:
    asked = decode(await request.body(), ForkRequest)
    original = await store.campaign(campaign_id)
    if asked.at > original.position:
        raise Problem(
            422,
            f"The campaign is at position {original.position}; it cannot be forked at {asked.at}.",
            kind="bad-position",
        )
    game = await store.game_of(campaign_id)
    name = asked.name or f"{original.name} (forked at {asked.at})"
    new_id, owner_id = uuid.uuid4(), uuid.uuid4()
    token, token_hash = tokens.new_token(owner_id)
    origin = {"from_campaign": str(campaign_id), "from_name": original.name, "at": asked.at}
    rows = forking.forked_rows(store, campaign_id, asked.at, origin=origin, owner_id=owner_id, owner_name=member.name)
    new = Founding(campaign_id=new_id, name=name, owner_id=owner_id, owner_name=member.name, token_hash=token_hash)
    try:
        position = await new_campaign_from_log(store, game=game, rows=rows, **new)
    except RefoldError as error:
        # The effective log was accepted event by event; only rules changed since can refuse it now.
        raise Problem(
            409,
            f"The log up to {asked.at} no longer folds under today's rules: position "
            f"{error.position}: {error.reason} Nothing was written.",
            kind="fork-refused",
        ) from None
    return Response(
        {
            "id": str(new_id),
            "name": name,
            "game": game.id,
            "position": position,
            "forked_from": origin,
            "member_id": str(owner_id),
            "token": token,
        },
        status_code=201,
    )


def _ordinal(n: int | None) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n or 0, f"{n}th")


ROUTES = [scenarios, episode_report, diff, recap, fork]
