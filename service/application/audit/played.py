"""The scenarios (Skull & Shackles) or chapters (Skull Tales) a campaign has played, as `/scenarios` answers them
and the live stream sends them to the table page.

The live stream sends it after every run of events, so a feed keeps a `Memo`: the episodes as last read, the rows of
those whose range no longer moves, and what the open one's start says of who plays it. Until an event that can change
them arrives (a start, an end, an outcome, an undo or a redo: `Memo.hear`), the next answer is made from the memo and
the state the feed already holds, without reading the log or folding an old position again.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode

from quartermaster.projections.game import Game
from quartermaster.projections.timeline import MARKER_TYPES
from quartermaster.service.application.audit import episodes as listing
from quartermaster.service.application.audit.report import OUTCOMES, WORDS
from quartermaster.service.store import Store


def _link(campaign_id: uuid.UUID, path: str, word: str, episode: listing.Episode) -> str:
    return f"/v1/campaigns/{campaign_id}/{path}?" + urlencode({word: episode.name, "play": episode.play})


class Memo:
    """What `played` answered last for one live feed (module docstring)."""

    __slots__ = ("found", "position", "rows", "starts", "stale")

    def __init__(self) -> None:
        self.found: list[listing.Episode] | None = None
        self.position = -1
        self.rows: dict[tuple[int, int], dict[str, Any]] = {}  # by (first, last): an episode whose range is fixed
        self.starts: dict[int, Any] = {}  # by first position: `listing.starting` of the state then
        self.stale = True

    def hear(self, game: Game[Any], types: Iterable[str]) -> None:
        """Events told after the memo's answer: any that can change an episode makes the next answer read the log."""
        marks = game.episodes
        if marks is None or self.stale:
            return
        changing = {marks.started, *marks.ended, *OUTCOMES[game.id], *MARKER_TYPES}
        if any(type_ in changing for type_ in types):
            self.stale = True


async def played(
    store: Store, campaign_id: uuid.UUID, game: Game[Any], position: int, *, memo: Memo | None = None, state: Any = None
) -> dict[str, Any]:
    """The answer of `/scenarios` as of `position` (the live stream sends it to the table page too). With a feed's
    `memo` (told every event since its last answer) and `state`, the campaign's state at `position`."""
    word = WORDS[game.id]
    if memo is not None and not memo.stale and memo.found is not None and position >= memo.position:
        found = memo.found
        if found and not found[-1].ended and found[-1].last == memo.position:
            found[-1].last = position  # the episode being played runs to the log's end
    else:
        found = await listing.episodes(store, campaign_id, game, position, OUTCOMES[game.id])
        if memo is not None:
            memo.found, memo.rows, memo.starts, memo.stale = found, {}, {}, False
    if memo is not None:
        memo.position = position
    answer = []
    for episode in found:
        fixed = episode.ended or episode is not found[-1]
        if memo is not None and fixed and (row := memo.rows.get((episode.first, episode.last))) is not None:
            answer.append(row)
            continue
        start = memo.starts.get(episode.first) if memo is not None else None
        if start is None:
            start = listing.starting(game.id, (await store.state_at(campaign_id, game, episode.first))[1])
        at_end = None
        if listing.ends_matter(game.id):
            at_end = state if state is not None and episode.last == position else None
            if at_end is None:
                at_end = (await store.state_at(campaign_id, game, episode.last))[1]
        row = {
            word: episode.name if word == "scenario" else int(episode.name),
            "play": episode.play,
            "first": episode.first,
            "last": episode.last,
            "ended": episode.ended,
            "outcome": listing.outcome(game.id, episode),
            "started_at": episode.started_at,
            "ended_at": episode.ended_at,
            "played_by": listing.played_by_from(game.id, start, at_end),
            "report": _link(campaign_id, "report", word, episode),
            "recap": f"/v1/campaigns/{campaign_id}/recap?" + urlencode({"from": episode.first - 1, "to": episode.last}),
        }
        if memo is not None:
            if fixed:
                memo.rows[(episode.first, episode.last)] = row
                memo.starts.pop(episode.first, None)
            else:
                memo.starts[episode.first] = start
        answer.append(row)
    return {"position": position, f"{word}s": answer}
