"""The scenarios (Skull & Shackles) or chapters (Skull Tales) a campaign has played, as `/scenarios` answers them
and the live stream sends them to the table page."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlencode

from quartermaster.projections.game import Game
from quartermaster.service.application.audit import episodes as listing
from quartermaster.service.application.audit.report import OUTCOMES, WORDS
from quartermaster.service.store import Store


def _link(campaign_id: uuid.UUID, path: str, word: str, episode: listing.Episode) -> str:
    return f"/v1/campaigns/{campaign_id}/{path}?" + urlencode({word: episode.name, "play": episode.play})


async def played(store: Store, campaign_id: uuid.UUID, game: Game[Any], position: int) -> dict[str, Any]:
    """The answer of `/scenarios` as of `position` (the live stream sends it to the table page too)."""
    word = WORDS[game.id]
    found = await listing.episodes(store, campaign_id, game, position, OUTCOMES[game.id])
    answer = []
    for episode in found:
        _, at_start = await store.state_at(campaign_id, game, episode.first)
        _, at_end = await store.state_at(campaign_id, game, episode.last)
        answer.append(
            {
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
                "recap": f"/v1/campaigns/{campaign_id}/recap?"
                + urlencode({"from": episode.first - 1, "to": episode.last}),
            }
        )
    return {"position": position, f"{word}s": answer}
