"""Play-by-post: a character's status block and a turn's post, in the format a forum takes."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import get, post
from litestar.params import QueryParameter

from quartermaster.projections.game import Rejection
from quartermaster.service.application import pasting, postings
from quartermaster.service.http.auth import Asking, CampaignId, EventStore, may
from quartermaster.service.http.openapi import body
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import AnyRequest, decode

MAX_PASTE = 1_000_000
Pasted = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=MAX_PASTE,
        description="The thread's posts as copied: their source (plain text, BBCode or Markdown) or the forum's "
        "rendering of them; chatter between posts and quoted posts are fine.",
    ),
]


Overrides = Annotated[
    dict[uuid.UUID, Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]],
    msgspec.Meta(
        description="Entries the preview refused by a rule of the game (`overridable`) that the table logs anyway: "
        "the entry's `id` and the table's reason."
    ),
]


class Paste(msgspec.Struct, forbid_unknown_fields=True):
    """A thread's turns pasted in, to preview."""

    text: Pasted
    overrides: Overrides = {}


class PasteConfirmed(msgspec.Struct, forbid_unknown_fields=True):
    """The same text again, with what its preview answered: the log's position and the entries it would log."""

    text: Pasted
    position: Annotated[int, msgspec.Meta(ge=0, description="The `position` the preview answered.")]
    ids: Annotated[
        list[uuid.UUID],
        msgspec.Meta(min_length=1, description="The `id` of every entry the preview said it would log (`new`)."),
    ]
    overrides: Overrides = {}


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
        post = await postings.turn(store, campaign_id, game, found.position, at, member.name)
    except postings.NoTurn as error:
        raise Problem(404, str(error), kind="no-turn") from None
    return _answer(found.position, post, format_)


def _read(text: str, overrides: dict[uuid.UUID, str]) -> list[pasting.Pasted]:
    try:
        return pasting.overriding(pasting.parse(text), overrides)
    except pasting.Unreadable as error:
        raise Problem(422, str(error), kind="unreadable-post") from None


@post(
    "/v1/campaigns/{campaign:str}/posts/preview",
    summary="Preview a thread's turns pasted in: each entry of each post checked against the log as it stands, "
    "and said as what would be logged, what is logged already, or why it is refused. Nothing is written",
    status_code=200,
    operation_class=body(Paste),
)
async def preview_posts(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> Any:
    asked = decode(await request.body(), Paste)
    entries = _read(asked.text, asked.overrides)
    game = await store.game_of(campaign_id)
    position, lines = await pasting.preview(store, campaign_id, game, entries, member.role)
    new = [line for line in lines if line.status == "new"]
    written = [p.position for p in entries]
    notices = []
    if new and new[0].pasted.position != position + 1:
        notices.append(
            f"The posts' entries were at positions {min(written)} to {max(written)} of their writer's log; here the "
            f"new ones would be logged from position {position + 1}."
        )
    said = pasting.told(asked.text)
    unsaid = [n for n in new if n.pasted.post in said and n.sentence not in said[n.pasted.post]]
    if unsaid:
        notices.append(
            f"{len(unsaid)} of the entries would be logged in words their post does not say (the first, on line "
            f"{unsaid[0].pasted.line}: “{unsaid[0].sentence}”): the post may have been changed after it was written, "
            "or this campaign names things otherwise."
        )
    notice = " ".join(notices) or None
    return {
        "position": position,
        "will_log": len(new),
        "notice": notice,
        "entries": [
            {
                "line": line.pasted.line,
                "poster": line.pasted.poster,
                "written_at": line.pasted.position,
                "type": line.pasted.type,
                "id": str(line.pasted.id),
                "status": line.status,
                "sentence": line.sentence,
                "reason": line.reason,
                "overridable": line.overridable,
                "logged_at": line.logged_at,
            }
            for line in lines
        ],
    }


@post(
    "/v1/campaigns/{campaign:str}/posts/confirm",
    summary="Log the entries a preview of pasted posts said it would, each attributed to its poster, all at once or "
    "none; refused if the log moved since the preview. Sent again, it writes nothing more",
    status_code=200,
    operation_class=body(PasteConfirmed),
    opt=may("add to the log"),
)
async def confirm_posts(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> Any:
    asked = decode(await request.body(), PasteConfirmed)
    entries = _read(asked.text, asked.overrides)
    game = await store.game_of(campaign_id)
    try:
        done = await pasting.confirm(store, campaign_id, game, entries, asked.ids, asked.position, member.role)
    except pasting.NotPreviewed as error:
        raise Problem(422, str(error), kind="not-previewed") from None
    except pasting.Moved as error:
        raise Problem(409, str(error), kind="stale-position") from None
    except Rejection as error:
        raise Problem(422, f"{error.reason} Nothing was written; preview the thread again.", kind="refused") from None
    return {
        "position": max(d.last_position for _, d in done),
        "logged": sum(len(d.events) for _, d in done),
        "replayed": all(d.replayed for _, d in done),
        "batches": [
            {"batch": str(d.batch), "poster": poster, "first": d.first_position, "last": d.last_position}
            for poster, d in done
        ],
    }


ROUTES = [status_post, turn_post, preview_posts, confirm_posts]
