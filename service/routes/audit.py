"""The audit: the scenarios or chapters played, a report of each, a diff between two positions, a recap, a fork."""

from __future__ import annotations

import uuid
from typing import Annotated, Any
from urllib.parse import urlencode

from litestar import Request, get
from litestar.params import FromPath, QueryParameter

from projections.game import Game
from service.audit import episodes as listing
from service.audit.report import OUTCOMES, WORDS, report
from service.auth import campaign_id_of, member, not_found
from service.problems import Problem
from service.routes.campaigns import store_of
from service.store import CampaignNotFound, Store


async def _campaign(request: Request, campaign: str) -> tuple[Store, uuid.UUID, Game, int]:
    campaign_id = campaign_id_of(campaign)
    store = store_of(request)
    await member(request, store, campaign_id)
    try:
        found = await store.campaign(campaign_id)
        game = await store.game_of(campaign_id)
    except CampaignNotFound:
        raise not_found(campaign_id) from None
    return store, campaign_id, game, found.position


def _link(campaign_id: uuid.UUID, path: str, word: str, episode: listing.Episode) -> str:
    return f"/v1/campaigns/{campaign_id}/{path}?" + urlencode({word: episode.name, "play": episode.play})


@get("/v1/campaigns/{campaign:str}/scenarios", summary="Every scenario (Skull & Shackles) or chapter (Skull Tales) "
     "played: its positions, outcome, dates and who played")
async def scenarios(request: Request, campaign: FromPath[str]) -> dict[str, Any]:
    store, campaign_id, game, position = await _campaign(request, campaign)
    word = WORDS[game.id]
    found = await listing.episodes(store, campaign_id, game, position, OUTCOMES[game.id])
    answer = []
    for episode in found:
        _, at_start = await store.state_at(campaign_id, game, episode.first)
        _, at_end = await store.state_at(campaign_id, game, episode.last)
        answer.append({
            word: episode.name if word == "scenario" else int(episode.name),
            "play": episode.play,
            "first": episode.first,
            "last": episode.last,
            "ended": episode.ended,
            "outcome": listing.outcome(game.id, episode),
            "started_at": episode.started_at,
            "ended_at": episode.ended_at,
            "played_by": listing.played_by(game.id, at_start, at_end),
            "report": _link(campaign_id, "report", word, episode),
            "recap": f"/v1/campaigns/{campaign_id}/recap?" + urlencode({"from": episode.first - 1,
                                                                          "to": episode.last}),
        })
    return {"position": position, f"{word}s": answer}


@get("/v1/campaigns/{campaign:str}/report", summary="What happened in a scenario or chapter: turns or phases, every "
     "check, success rates, cards, ships and plunder, or Fame, Coins, Wounds, injuries, skills and mutinies; "
     "undone entries apart. Markdown with `Accept: text/markdown`")
async def episode_report(
    request: Request,
    campaign: FromPath[str],
    scenario: Annotated[str | None, QueryParameter(description="The scenario's name (Skull & Shackles).")] = None,
    chapter: Annotated[int | None, QueryParameter(description="The chapter's number (Skull Tales).")] = None,
    play: Annotated[int | None, QueryParameter(description="Which time it was played, from 1 (default: the latest).")]
    = None,
) -> Any:
    store, campaign_id, game, position = await _campaign(request, campaign)
    word = WORDS[game.id]
    asked = scenario if word == "scenario" else (str(chapter) if chapter is not None else None)
    if asked is None or (scenario is not None and chapter is not None):
        raise Problem(400, f"Name the {word} to report on with `?{word}=`: {game.title} has {word}s.",
                      kind="no-episode")
    found = await listing.episodes(store, campaign_id, game, position)
    episode = listing.pick(found, asked, play)
    if episode is None:
        played = ", ".join(sorted({e.name for e in found})) or "none yet"
        which = f" a {_ordinal(play)} time" if play is not None else ""
        raise Problem(404, f"This campaign has not played the {word} {asked}{which}; it has played: {played}.",
                      kind="episode-not-found")
    following = found[found.index(episode) + 1].first if found.index(episode) + 1 < len(found) else None
    members = {str(m): name for m, name, _, _ in await store.members(campaign_id)}
    return await report(store, campaign_id, game, episode, members, following)


def _ordinal(n: int | None) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n or 0, f"{n}th")


ROUTES = [scenarios, episode_report]
