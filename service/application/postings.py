"""Play-by-post: a character's status block and a turn's post, as plain text, BBCode or Markdown.

Everything here is read from what the fold and the audit already answer: the status block from the game's own view
of a character (Skull & Shackles) or of a pirate's Record Sheet (Skull Tales), the turn's post from the audit's
report of its scenario or chapter (its turns or phases, and the rolls in each) and the account's sentences. A post
is built as lines of plain text, then written in a format; only then is the text escaped, every piece of it, since
a sentence holds the names and notes the table typed:

- plain text: a line break inside a piece becomes a space, so a piece never forges a line of its own;
- BBCode: `[` is followed by a zero-width space, so no tag the table typed opens (forums escape HTML themselves);
- Markdown: every Markdown special is escaped with a backslash, and `<`, `>` and `&` become entities, so neither
  Markdown nor raw HTML in a name renders.

A turn's post also carries the way back in (service/application/pasting.py reads it): its author line ("Posted
by"), and, last, one entry line per event of the turn that counts, `qm1.` and the event (position, type, data, id,
time, override) as base64url JSON, in a code block in BBCode and Markdown. Base64url needs no escaping in any of the
three formats and survives a forum's rendering, so the entries come back exactly as the log holds them; the
sentences above them are for the people reading the thread.
"""

from __future__ import annotations

import base64
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from quartermaster.projections.game import Game
from quartermaster.service.application.audit import episodes as listing
from quartermaster.service.application.audit.account import account
from quartermaster.service.application.audit.report import OUTCOMES, report
from quartermaster.service.store import Recorded, Store

Format = Literal["text", "bbcode", "markdown"]
FORMATS: tuple[Format, ...] = ("text", "bbcode", "markdown")
PACG = "pacg-skull-and-shackles"
UNPOSTED = frozenset({"member.joined", "campaign.forked", "campaign.started"})
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")
AUTHOR = "Posted by"
POSITIONS = "Positions"
HAPPENED = "What happened"
ENTRY = "qm1."
ENTRIES = "Entries for Quartermaster (paste this post into a campaign to log them)"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def escape(text: Any, format_: Format) -> str:
    """A piece of the table's text, safe to put in a post of this format."""
    plain = _one_line(text)
    if format_ == "bbcode":
        return plain.replace("[", "[\u200b")
    if format_ == "markdown":
        plain = plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return _MARKDOWN_SPECIALS.sub(r"\\\1", plain)
    return plain


@dataclass
class Post:
    """A post before it is written: a title, then sections of lines."""

    title: str
    lines: list[tuple[str, str]] = field(default_factory=list)  # (label, text); label "" for a plain item
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    entries: list[str] = field(default_factory=list)  # entry lines (`entry`), written unescaped in a code block


def write(post: Post, format_: Format) -> str:
    """The post in one format, every piece of it escaped."""

    def e(text: Any) -> str:
        return escape(text, format_)

    out: list[str] = []
    if format_ == "bbcode":
        out.append(f"[b]{e(post.title)}[/b]")
        out += [f"[b]{e(label)}:[/b] {e(text)}" for label, text in post.lines]
        for heading, items in post.sections:
            out += ["", f"[u]{e(heading)}[/u]", "[list]", *(f"[*]{e(item)}" for item in items), "[/list]"]
        if post.entries:
            out += ["", f"[u]{e(ENTRIES)}[/u]", "[code]", *post.entries, "[/code]"]
    elif format_ == "markdown":
        out.append(f"**{e(post.title)}**")
        out += [f"- **{e(label)}:** {e(text)}" for label, text in post.lines]
        for heading, items in post.sections:
            out += ["", f"*{e(heading)}*", "", *(f"- {e(item)}" for item in items)]
        if post.entries:
            out += ["", f"*{e(ENTRIES)}*", "", "```", *post.entries, "```"]
    else:
        out.append(e(post.title))
        out += [f"{e(label)}: {e(text)}" for label, text in post.lines]
        for heading, items in post.sections:
            out += ["", e(heading), *(f"- {e(item)}" for item in items)]
        if post.entries:
            out += ["", e(ENTRIES), *post.entries]
    return "\n".join(out) + "\n"


def _cards(cards: dict[str, int]) -> str:
    return ", ".join(f"{name} x{count}" if count > 1 else name for name, count in cards.items()) or "none"


def status(game: Game[Any], state: Any, who: str) -> Post:
    """A character's (or pirate's) status block as forums keep it, from the game's own view. KeyError: no such one."""
    if game.id == PACG:
        view = game.views["character"].read(state, character_id=who)
        counts = view["counts"]
        post = Post(f"{view['name']} ({view['player']})")
        post.lines = [
            ("Location", view["location"] or "none"),
            ("Hand", _cards(view["zones"]["hand"])),
            ("Displayed", _cards(view["zones"]["displayed"])),
            ("Deck", str(counts["deck"])),
            ("Discard", str(counts["discard"])),
            ("Buried", str(counts["buried"])),
            ("Recovery", str(counts["recovery"])),
            ("Hero points", str(view["hero_points"])),
        ]
        if view["role"]:
            post.lines.append(("Role", view["role"]))
        return post
    sheet = game.views["pirate"].read(state, pirate_id=who)
    post = Post(f"{sheet['name']} ({sheet['player']})")
    post.lines = [
        ("Health", f"{sheet['health'] - sheet['wounds']} of {sheet['health']} (Wounds {sheet['wounds']})"),
        ("Destiny Points", f"{sheet['destiny_points']} of {sheet['destiny_points_max']}"),
        ("Fame", str(sheet["fame"])),
        ("Coins", str(sheet["coins"])),
        ("Items", ", ".join(sheet["items"]) or "none"),
        ("Injuries", ", ".join(sheet["injuries"]) or "none"),
    ]
    return post


def _roll(check: dict[str, Any]) -> str:
    what = check["skill"] or check["purpose"] or "roll"
    said = f"{check['name'] or 'The table'}: {what}, {' '.join(check['dice'])}"
    if check["modifier"]:
        said += f" {check['modifier']:+d}"
    said += f" = {check['total']}"
    if check["difficulty"] is not None:
        said += f" against {check['difficulty']}"
    if check["success"] is not None:
        said += ", success" if check["success"] else ", failure"
    return said


class NoTurn(Exception):
    """No turn (or phase) holds the position asked."""


def entry(recorded: Recorded) -> str:
    """An event of the log as an entry line of a post: `qm1.` and its fields as base64url JSON, unpadded."""
    fields = {
        "position": recorded.position,
        "type": recorded.type,
        "data": msgspec.json.decode(recorded.data),
        "id": str(recorded.id),
        "occurred_at": recorded.occurred_at.isoformat() if recorded.occurred_at is not None else None,
        "override": recorded.override.reason if recorded.override is not None else None,
    }
    return ENTRY + base64.urlsafe_b64encode(msgspec.json.encode(fields)).decode().rstrip("=")


async def turn(
    store: Store, campaign_id: uuid.UUID, game: Game[Any], position: int, at: int, poster: str = "The table"
) -> Post:
    """The post of the turn (Skull & Shackles) or phase (Skull Tales) that holds position `at`, by `poster`."""
    found = await listing.episodes(store, campaign_id, game, position, OUTCOMES[game.id])
    holding = [i for i, e in enumerate(found) if e.first <= at <= e.last]
    if not holding:
        raise NoTurn(f"No scenario or chapter was being played at position {at}.")
    index = holding[-1]
    episode = found[index]
    following = found[index + 1].first if index + 1 < len(found) else None
    told = await report(store, campaign_id, game, episode, {}, following)
    stretches = told["turns"] if game.id == PACG else [p for p in told["phases"] if p["first"] is not None]
    stretch = next((s for s in stretches if s["first"] <= at <= s["last"]), None)
    if stretch is None:
        raise NoTurn(f"Position {at} is in no turn or phase that counts.")
    if game.id == PACG:
        title = f"{episode.name}, turn {stretch['number']}" + (f": {stretch['name']}" if stretch["name"] else "")
        rolls = stretch["checks"]
    else:
        title = f"Chapter {episode.name}, {stretch['phase'] or 'between phases'}"
        rolls = stretch["rolls"]
    post = Post(title)
    post.lines = [(AUTHOR, poster), (POSITIONS, f"{stretch['first']} to {stretch['last']}")]
    happened = [t async for t in account(store, campaign_id, game, stretch["first"] - 1, stretch["last"])]
    post.sections.append((HAPPENED, [t.sentence for t in happened] or ["Nothing that counts."]))
    if rolls:
        post.sections.append(("Rolls", [_roll(r) for r in rolls if "dice" in r]))
    # Members join through their own route, not by a post: their joining stays in the sentences only.
    post.entries = [entry(t.recorded) for t in happened if t.recorded.type not in UNPOSTED]
    return post
