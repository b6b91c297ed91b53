"""Chronicle sheets: what organized play records of each scenario (or Skull Tales chapter) played, from the log.

A sheet is built on the audit's report of its episode (audit/report.py), never counted a second time here. Its
range runs from the episode's start to the event before the next episode starts (or to the log's end): a Skull &
Shackles scenario's rewards and the rebuild of the decks come after its end and before the next scenario
(Skull & Shackles Rulebook, After the Scenario), so the deck a sheet shows is each character's cards at the end of
its range.

Each sheet names the log's digest at the end of its range: the SHA-256 (hex) of the log's first `last` events,
each written as the export writes an event line's content (msgspec JSON, keys sorted, no spaces; see export.py) and
ended by a newline. The log is only ever appended to (an undo is an event of its own), so that digest never changes
and anyone with the log, or an export of it, can recompute it; `verify` does, and rebuilds the sheet beside it.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import msgspec

from quartermaster.projections.game import Game
from quartermaster.service.application.audit import episodes as listing
from quartermaster.service.application.audit.report import OUTCOMES, WORDS, report
from quartermaster.service.application.audit.scenario_report import holdings
from quartermaster.service.application.export import EventRow, copied
from quartermaster.service.store import Store

_canonical = msgspec.json.Encoder(order="sorted")
# What a Skull Tales chapter's report says that its sheet keeps (the rest is the play-by-play of the report).
CHAPTER_RECORD = ("pirates", "injuries", "skills_learned", "feats", "retired", "recruited", "crew_booty")


async def log_digest(store: Store, campaign_id: uuid.UUID, upto: int) -> str:
    """The SHA-256 of the log's first `upto` events in their canonical form (the module's docstring)."""
    digest = hashlib.sha256()
    async for recorded in store.rows(campaign_id, upto):
        line = msgspec.to_builtins(copied(recorded, EventRow, data=msgspec.json.decode(recorded.data)))
        if line.get("override") is None:  # as the export leaves it out (export.py)
            line.pop("override", None)
        digest.update(_canonical.encode(line) + b"\n")
    return digest.hexdigest()


async def _members(store: Store, campaign_id: uuid.UUID) -> dict[str, str]:
    return {str(m): name for m, name, *_ in await store.members(campaign_id)}


async def sheets(store: Store, campaign_id: uuid.UUID, game: Game[Any], position: int) -> list[dict[str, Any]]:
    """The campaign's chronicle sheets, one per episode played, in order."""
    found = await listing.episodes(store, campaign_id, game, position, OUTCOMES[game.id])
    members = await _members(store, campaign_id)
    return [await _sheet(store, campaign_id, game, found, i, position, members) for i in range(len(found))]


async def _sheet(
    store: Store,
    campaign_id: uuid.UUID,
    game: Game[Any],
    found: list[listing.Episode],
    index: int,
    position: int,
    members: dict[str, str],
) -> dict[str, Any]:
    episode = found[index]
    following = found[index + 1].first if index + 1 < len(found) else None
    last = following - 1 if following is not None else position
    told = await report(store, campaign_id, game, episode, members, following)
    at_start = await store.state_now_at(campaign_id, game, episode.first)
    at_end = await store.state_now_at(campaign_id, game, last)
    word = WORDS[game.id]
    sheet: dict[str, Any] = {
        "game": game.id,
        word: told[word],
        "play": episode.play,
        "first": episode.first,
        "last": last,
        "ended": episode.ended,
        "started_at": episode.started_at.isoformat(),
        "ended_at": episode.ended_at.isoformat() if episode.ended_at is not None else None,
        "party": listing.played_by(game.id, at_start, at_end),
        "result": listing.outcome(game.id, episode),
    }
    if word == "scenario":
        decks = holdings(at_end)
        sheet |= {
            "rewards": [r for r in told["rewards"] if "feat" not in r],
            "feats": [r for r in told["rewards"] if "feat" in r],
            "cards": told["cards"],
            "decks": {c["id"]: dict(sorted(decks.get(c["id"], {}).items())) for c in sheet["party"]},
        }
    else:
        sheet |= {name: told[name] for name in CHAPTER_RECORD if name in told}
    sheet["overridden"] = told["overridden"]
    sheet["digest"] = await log_digest(store, campaign_id, last)
    # As the API answers it (dates as text, tuples as lists), so a sheet posted back compares field by field.
    answer: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(sheet))
    return answer


class NotPlayed(Exception):
    """A sheet names an episode the log has not played."""


async def rebuilt(
    store: Store, campaign_id: uuid.UUID, game: Game[Any], position: int, claimed: dict[str, Any]
) -> dict[str, Any]:
    """The sheet the log gives for the episode a claimed sheet names (NotPlayed: none such)."""
    word = WORDS[game.id]
    name, play = str(claimed.get(word)), claimed.get("play")
    found = await listing.episodes(store, campaign_id, game, position, OUTCOMES[game.id])
    episode = listing.pick(found, name, play if isinstance(play, int) else None)
    if episode is None:
        raise NotPlayed(f"This campaign has not played the {word} {name} (play {play}).")
    index = found.index(episode)
    return await _sheet(store, campaign_id, game, found, index, position, await _members(store, campaign_id))


def differences(claimed: dict[str, Any], logged: dict[str, Any]) -> list[str]:
    """The fields a claimed sheet states otherwise than the log's sheet, or lacks, or adds."""
    return sorted(k for k in logged.keys() | claimed.keys() if logged.get(k) != claimed.get(k))


async def verify(
    store: Store, campaign_id: uuid.UUID, game: Game[Any], position: int, claimed: dict[str, Any]
) -> dict[str, Any]:
    """Recompute a sheet from the log: whether its digest and every field it states match, and which do not."""
    logged = await rebuilt(store, campaign_id, game, position, claimed)
    differ = differences(claimed, logged)
    return {
        "verified": not differ,
        "digest": logged["digest"],
        "first": logged["first"],
        "last": logged["last"],
        "differences": differ,
    }


def difference(field: str, claimed: dict[str, Any], logged: dict[str, Any]) -> str:
    """One field a sheet states otherwise than the log, in a sentence: what the sheet says, what the log says."""
    if field not in claimed:
        return f"the sheet lacks its {field}, which the log gives as {_plain(logged[field])}"
    if field not in logged:
        return f"the sheet adds a {field} ({_plain(claimed[field])}) that the log does not give"
    return f"its {field} says {_plain(claimed[field])}, the log says {_plain(logged[field])}"


def _counted(cards: dict[str, int]) -> str:
    return ", ".join(f"{name} x{count}" if count > 1 else name for name, count in cards.items()) or "none"


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


def as_text(title: str, sheet: dict[str, Any]) -> str:
    """One sheet as plain text, for a file or a forum."""
    word = "scenario" if "scenario" in sheet else "chapter"
    lines = [
        f"Chronicle sheet: {title}",
        f"{word.capitalize()}: {sheet[word]} (play {sheet['play']})",
        f"Result: {_plain(sheet['result'])}",
        "Party: " + (", ".join(f"{p['name']} ({p['player']})" for p in sheet["party"]) or "none"),
    ]
    for reward in sheet.get("rewards", []):
        lines.append("Reward: " + ", ".join(f"{k} {v}" for k, v in reward.items() if k != "position"))
    for feat in sheet.get("feats", []):
        lines.append(f"Feat: {feat['feat']} ({feat['to']})")
    for cards in sheet.get("cards", {}).values():
        lines.append(f"{cards['name']}: gained {_counted(cards['gained'])}; lost {_counted(cards['lost'])}")
    for character, deck in sheet.get("decks", {}).items():
        lines.append(f"Deck of {character}: {_counted(deck)}")
    for name in CHAPTER_RECORD:
        if sheet.get(name):
            lines.append(f"{name.replace('_', ' ').capitalize()}: {_plain(sheet[name])}")
    for override in sheet["overridden"]:
        lines.append(f"Overridden at {override['position']} ({override['type']}): {override['reason']}")
    lines.append(f"Log positions {sheet['first']} to {sheet['last']}; digest {sheet['digest']}")
    return "\n".join(lines) + "\n"
