"""Play-by-post, the way in: a thread's turns, pasted as postings.py wrote them, read back into events.

A turn's post carries its author line ("Posted by: Lily") and one entry line per event that counts (`qm1.` and the
event as base64url JSON: postings.py). Pasted text may hold several posts, the forum's chatter between them, and
posts quoted twice; it may be the post's source (BBCode or Markdown, user text escaped) or the forum's rendering of
it (tags gone, text plain). Each author line is read in whichever of the three forms it takes and unescaped, and the
entries after it are that poster's, until the next author line.

Nothing here writes but `confirm`. `preview` folds the entries onto the campaign's state as it stands, one after the
other, as an append would: each is either logged already (its event id is in this log), would be logged (with the
sentence the log would tell of it), or is refused with the fold's own sentence. `confirm` appends the entries the
preview said it would log, atomically, attributed to their posters, and only if the log has not moved since.
`told` reads what each post's "What happened" says, unescaped, so that the preview can tell an entry the log would
tell in other words than its post (a post changed after it was written).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import msgspec

from quartermaster.events.base import Event, summary
from quartermaster.projections.game import Game, Meta, Rejection, step_noted
from quartermaster.projections.registry import event_types
from quartermaster.projections.sentences import against_the_rules, tell
from quartermaster.service.application.postings import AUTHOR, ENTRY, HAPPENED, POSITIONS
from quartermaster.service.store import Appended, PreparedEvent, StalePosition, Store
from quartermaster.service.store.outcome import transaction

MAX_NAME = 200  # as a member's name (service/http/requests.py)
# An entry is a line of its own (as in a code block); a sentence that quotes one is never read as one.
_ENTRY = re.compile(r"^\s*" + re.escape(ENTRY) + r"([A-Za-z0-9_-]+)\s*$")
# The author line as each format writes it (as a forum shows it rendered, it reads as plain text). It counts only
# when the post's "Positions" line follows it: no sentence of a post, one line each, can forge both.
_AUTHORS = (
    ("bbcode", re.compile(r"^\s*\[b\]" + AUTHOR + r":\[/b\]\s?(.*)$")),
    ("markdown", re.compile(r"^\s*- \*\*" + AUTHOR + r":\*\*\s?(.*)$")),
    ("text", re.compile(r"^\s*" + AUTHOR + r":\s?(.*)$")),
)
_POSITIONS = re.compile(r"^\s*(?:\[b\]|- \*\*)?" + POSITIONS + r":(?:\[/b\]|\*\*)?\s?\d+ to \d+\s*$")
_BACKSLASHED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~>])")


class Unreadable(Exception):
    """The pasted text cannot be read as posts: a sentence says where and why."""


@dataclass(frozen=True)
class Pasted:
    """One entry of a pasted post: the event as its writer's log held it, and who posted it."""

    poster: str
    post: int  # the line of its post's author line
    position: int  # where the writer's log had it
    type: str
    data: dict[str, Any]
    id: uuid.UUID
    occurred_at: datetime | None
    override: str | None
    line: int  # the line of the pasted text it was read from, counted from 1


def unescape(text: str, format_: str) -> str:
    """A piece of a post as the table typed it, from what postings.escape wrote in this format."""
    if format_ == "bbcode":
        return text.replace("[\u200b", "[")
    if format_ == "markdown":
        text = _BACKSLASHED.sub(r"\1", text)
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return text


def author(line: str) -> str | None:
    """The poster's name if this line is a post's author line (in any format), unescaped; else None."""
    for format_, pattern in _AUTHORS:
        found = pattern.match(line)
        if found:
            return unescape(found.group(1).strip(), format_)
    return None


def _is_id(name: str) -> bool:
    """Whether a name reads as a member's id: the log's `actor` names members by id, so a poster may not take one."""
    try:
        uuid.UUID(name)
    except ValueError:
        return False
    return True


def _entry(code: str, number: int) -> dict[str, Any]:
    try:
        fields = msgspec.json.decode(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))
    except (binascii.Error, ValueError, msgspec.DecodeError):
        raise Unreadable(f"The entry on line {number} is damaged: copy the post again, whole.") from None
    if not isinstance(fields, dict) or not {"position", "type", "data", "id"} <= fields.keys():
        raise Unreadable(f"The entry on line {number} is not an entry of a post: copy the post again, whole.")
    return fields


def parse(text: str) -> list[Pasted]:
    """Every entry of every post in the pasted text, in order; an entry quoted again later is read once."""
    poster: str | None = None
    post = 0
    found: dict[uuid.UUID, Pasted] = {}
    lines = text.splitlines()
    following, after = [""] * len(lines), ""  # each line's next line that is not blank
    for i in range(len(lines) - 1, -1, -1):
        following[i] = after
        after = lines[i] if lines[i].strip() else after
    for number, line in enumerate(lines, start=1):
        named = author(line) if _POSITIONS.match(following[number - 1]) else None
        if named is not None:
            poster, post = named, number
            if not poster or len(poster) > MAX_NAME or _is_id(poster):
                raise Unreadable(
                    f"The author line on line {number} names nobody, a member's id or a name over {MAX_NAME} long."
                )
            continue
        for code in _ENTRY.findall(line):  # one at most
            if poster is None:
                raise Unreadable(
                    f'The entry on line {number} comes before any "{AUTHOR}" line: paste the whole post, from its '
                    "title."
                )
            pasted = _pasted(_entry(code, number), poster, post, number)
            seen = found.get(pasted.id)
            if seen is None:
                found[pasted.id] = pasted
            elif (seen.type, seen.data, seen.override) != (pasted.type, pasted.data, pasted.override):
                raise Unreadable(
                    f"The entries on lines {seen.line} and {number} share the event id {pasted.id} but say different "
                    "things: one of them was changed after it was posted."
                )
    if not found:
        raise Unreadable(
            f'The pasted text holds no entries: paste the turn\'s post whole, from its title to its last "{ENTRY}…" '
            "line."
        )
    return list(found.values())


# A section's heading as each format writes it ([u]…[/u], *…*, or plain, as a forum shows any of them rendered).
_HEADING = re.compile(r"^\s*(\[u\]|\*)?(.+?)(?:\[/u\]|\*)?\s*$")
_ITEM = {"bbcode": re.compile(r"^\s*\[\*\](.*)$"), "markdown": re.compile(r"^\s*- (.*)$")}
_RENDERED_ITEM = re.compile(r"^\s*(?:[-*\u2022]\s+)?(.*)$")


def told(text: str) -> dict[int, list[str]]:
    """What each post's "What happened" section says, by its author line's number, unescaped: the sentences the
    people reading the thread read. (A forum's rendering of a post reads as plain text, its bullets kept or not.)"""
    lines = text.splitlines()
    said: dict[int, list[str]] = {}
    post: int | None = None
    reading: str | None = None  # the format of the section being read, None outside "What happened"
    for number, line in enumerate(lines, start=1):
        following = next((n for n in lines[number : number + 3] if n.strip()), "")
        if author(line) is not None and _POSITIONS.match(following):
            post, reading = number, None
            said[post] = []
            continue
        heading = _HEADING.match(line)
        if heading is not None and heading.group(2) == HAPPENED:
            reading = {"[u]": "bbcode", "*": "markdown"}.get(heading.group(1) or "", "text")
            continue
        if post is None or reading is None:
            continue
        if not line.strip() or line.strip() == "[/list]" or _ENTRY.match(line):
            # A post's sentences are one line each and follow one another: a blank line (or BBCode's list's end)
            # after them ends the section.
            if said[post] or line.strip() == "[/list]" or _ENTRY.match(line):
                reading = None
            continue
        if line.strip() == "[list]":
            continue
        item = _ITEM.get(reading, _RENDERED_ITEM).match(line) or _RENDERED_ITEM.match(line)
        if item is not None:
            said[post].append(unescape(item.group(1).strip(), reading))
    return said


def _pasted(fields: dict[str, Any], poster: str, post: int, number: int) -> Pasted:
    try:
        occurred = fields.get("occurred_at")
        return Pasted(
            poster=poster,
            post=post,
            position=int(fields["position"]),
            type=str(fields["type"]),
            data=dict(fields["data"]),
            id=uuid.UUID(str(fields["id"])),
            occurred_at=datetime.fromisoformat(occurred) if occurred else None,
            override=str(fields["override"]) if fields.get("override") else None,
            line=number,
        )
    except (TypeError, ValueError):
        raise Unreadable(f"The entry on line {number} is not an entry of a post: copy the post again, whole.") from None


def overriding(entries: Sequence[Pasted], reasons: dict[uuid.UUID, str]) -> list[Pasted]:
    """The entries, those named in `reasons` to be logged against the rules for the table's reason given there (a
    refusal of a rule of the game is overridable; an integrity rule still refuses). Unreadable: a reason that says
    nothing, or names no entry of the text."""
    known = {p.id for p in entries}
    for entry_id, reason in reasons.items():
        if entry_id not in known:
            raise Unreadable(f"The pasted text holds no entry with the event id {entry_id} to log anyway.")
        if not reason.strip():
            raise Unreadable("Say why the table logs the entry anyway: its reason is empty.")
    return [dataclasses.replace(p, override=reasons[p.id].strip()) if p.id in reasons else p for p in entries]


Status = Literal["new", "logged", "refused"]


@dataclass(frozen=True)
class Line:
    """What the preview says of one entry."""

    pasted: Pasted
    status: Status
    sentence: str  # what would be logged (or was); for a refused entry, what the entry says
    reason: str | None = None  # why it is refused, in the fold's words
    overridable: bool = False
    logged_at: int | None = None


def _event(game: Game[Any], pasted: Pasted, role: str) -> Event:
    """The entry as an event of this game that a member of this role may log, or a Rejection saying why not."""
    kind = event_types(game.id).get(pasted.type)
    if kind is None:
        raise Rejection(f"{game.title} has no event called {pasted.type!r}: the post was written for another game.")
    if role not in kind.APPENDED_BY:
        written = f": {kind.WRITTEN_BY}" if kind.WRITTEN_BY else "."
        raise Rejection(f"A {role} does not log this by hand{written}")
    try:
        return msgspec.convert({**pasted.data, "type": pasted.type}, kind, strict=True)
    except msgspec.ValidationError as error:
        raise Rejection(f"The entry does not read as {pasted.type}: {error}.") from None


async def _logged(store: Store, campaign_id: uuid.UUID, entries: Sequence[Pasted]) -> dict[uuid.UUID, int]:
    """Where this log holds the entries already, by event id, looked for where their writer's log had them."""
    first, last = min(p.position for p in entries), max(p.position for p in entries)
    page = await store.history(campaign_id, after=first - 1, limit=last - first + 1)
    return {r.id: r.position for r in page}


async def preview(
    store: Store, campaign_id: uuid.UUID, game: Game[Any], entries: Sequence[Pasted], role: str
) -> tuple[int, list[Line]]:
    """The log's position and what appending the entries would do, entry by entry; nothing is written."""
    position, state = await store.projection(campaign_id, game)
    logged = await _logged(store, campaign_id, entries)
    lines: list[Line] = []
    at = position
    for pasted in entries:
        if pasted.id in logged:
            lines.append(
                Line(
                    pasted, "logged", f"Logged already at position {logged[pasted.id]}.", None, False, logged[pasted.id]
                )
            )
            continue
        try:
            event = _event(game, pasted, role)
        except Rejection as refused:
            kind = event_types(game.id).get(pasted.type)
            said = summary(kind) if kind is not None else "An entry of another game."
            lines.append(Line(pasted, "refused", said, refused.reason, False))
            continue
        told = tell(game.sentences, state, event)
        if pasted.override is not None and role != "owner" and not game.players_may_override(state):
            reason = "Only the owner logs an event against the rules in this campaign; this entry was logged so."
            lines.append(Line(pasted, "refused", told, reason, False))
            continue
        try:
            state, broken = step_noted(
                game, state, event, Meta(at + 1, pasted.poster, pasted.occurred_at, pasted.override)
            )
        except Rejection as refused:
            lines.append(Line(pasted, "refused", told, refused.reason, refused.kind == "rule"))
            continue
        at += 1
        lines.append(Line(pasted, "new", against_the_rules(told, pasted.override, broken)))
    return position, lines


class Moved(Exception):
    """The log moved since the preview."""


class NotPreviewed(Exception):
    """The confirmation names an entry the pasted text does not hold."""


def _prepared(game: Game[Any], pasted: Pasted, role: str) -> PreparedEvent:
    event = _event(game, pasted, role)
    fields = msgspec.to_builtins(event)
    fields.pop("type", None)
    return PreparedEvent(
        event=event,
        type=pasted.type,
        data=msgspec.json.encode(fields),
        id=pasted.id,
        occurred_at=pasted.occurred_at,
        override=pasted.override,
    )


async def confirm(
    store: Store,
    campaign_id: uuid.UUID,
    game: Game[Any],
    entries: Sequence[Pasted],
    ids: Sequence[uuid.UUID],
    expected: int,
    role: str,
) -> list[tuple[str, Appended]]:
    """Append the previewed entries (`ids`, in the pasted order) in one transaction, each poster's run of entries a
    batch of its own attributed to the poster; or nothing, if the log is no longer at `expected`. Sent again, the
    same confirmation answers what it wrote (the event ids make it a retry)."""
    chosen = {p.id: p for p in entries if p.id in set(ids)}
    missing = [str(i) for i in ids if i not in chosen]
    if missing:
        raise NotPreviewed(f"The pasted text holds no entry with the event id {missing[0]}: preview it again.")
    if role != "owner" and any(p.override is not None for p in chosen.values()):
        _, state = await store.projection(campaign_id, game)
        if not game.players_may_override(state):
            raise Rejection("Only the owner logs an event against the rules in this campaign; an entry was logged so.")
    runs: list[tuple[str, list[PreparedEvent]]] = []
    for pasted in chosen.values():
        if not runs or runs[-1][0] != pasted.poster:
            runs.append((pasted.poster, []))
        runs[-1][1].append(_prepared(game, pasted, role))
    done: list[tuple[str, Appended]] = []
    async with store.turns.turn(campaign_id), transaction(store.pool) as conn:
        at = expected
        for poster, events in runs:
            try:
                appended = await store.writer.locked(
                    conn, campaign_id, events, actor=poster, expected_position=at, stale=True
                )
            except StalePosition as moved:
                raise Moved(
                    f"The log has moved since the preview: it was at position {expected}, it is now at "
                    f"{moved.current}. Nothing was written; preview the thread again."
                ) from None
            done.append((poster, appended))
            at = appended.last_position
    return [(poster, store.writer.committed(campaign_id, d)) for poster, d in done]
