"""Undo and redo: markers appended to the log, never deletions."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, TypedDict, TypeVar

import msgspec
from litestar import Response, post
from litestar.handlers import HTTPRouteHandler

from quartermaster.service.http.auth import Asking, CampaignId, EventStore, Member, may
from quartermaster.service.http.idempotency import HEADER_PARAMETER, keyed
from quartermaster.service.http.openapi import body
from quartermaster.service.http.requests import AnyRequest, decode
from quartermaster.service.http.routes.events import appended_answer, appended_body
from quartermaster.service.store import Appended
from quartermaster.service.store.keys import Keyed

Mine = Annotated[bool, msgspec.Meta(description="Without `batch`: the caller's own latest batch, whoever wrote since.")]


class UndoRequest(msgspec.Struct, forbid_unknown_fields=True):
    batch: uuid.UUID | None = None
    cascade: bool = False
    reason: Annotated[str, msgspec.Meta(max_length=1000)] | None = None
    mine: Mine = False


class RedoRequest(msgspec.Struct, forbid_unknown_fields=True):
    batch: uuid.UUID | None = None
    reason: Annotated[str, msgspec.Meta(max_length=1000)] | None = None
    mine: Mine = False


Body = TypeVar("Body", UndoRequest, RedoRequest)


class Marking(TypedDict):
    """What an undo and a redo both tell the store: which batch, why, who asks, and the request's key."""

    batch: uuid.UUID | None
    reason: str | None
    actor: str
    only_own: bool
    mine: bool
    keyed: Keyed | None


async def _body(request: AnyRequest, type_: type[Body]) -> Body:
    raw = await request.body()
    return decode(raw, type_) if raw.strip() else type_()


def _marking(asked: UndoRequest | RedoRequest, member: Member, key: Keyed | None) -> Marking:
    # A player undoes and redoes only what they recorded; the owner, anyone's.
    only_own = member.role != "owner"
    return Marking(
        batch=asked.batch, reason=asked.reason, actor=member.actor, only_own=only_own, mine=asked.mine, keyed=key
    )


def _answer(doing: str, done: Appended) -> Response[Any]:
    targets = msgspec.json.decode(done.events[0].data)["targets"]
    # Sent again with its Idempotency-Key: answered from the log, nothing written, so 200 rather than 201.
    return appended_answer({f"{doing}ne": targets, "position": done.last_position, **appended_body(done)}, done)


def _route(doing: str, summary: str, type_: type[Body]) -> HTTPRouteHandler:
    """The route of `doing` (undo, redo), whose body is `type_`; the store's refusals say `doing` (service.problems)."""
    return post(
        f"/v1/campaigns/{{campaign:str}}/{doing}",
        summary=summary,
        status_code=201,
        operation_class=body(type_, headers=[HEADER_PARAMETER]),
        opt=may(doing),
    )


@_route("undo", "Undo a batch (the latest effective one by default)", UndoRequest)
async def undo(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> Response[Any]:
    asked = await _body(request, UndoRequest)
    marking = _marking(asked, member, await keyed(request, member.actor))
    return _answer("undo", await store.undo(campaign_id, cascade=asked.cascade, **marking))


@_route("redo", "Redo the most recently undone batch (or a named one)", RedoRequest)
async def redo(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> Response[Any]:
    asked = await _body(request, RedoRequest)
    marking = _marking(asked, member, await keyed(request, member.actor))
    return _answer("redo", await store.redo(campaign_id, **marking))


ROUTES = [undo, redo]
