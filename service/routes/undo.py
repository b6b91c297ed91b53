"""Undo and redo: markers appended to the log, never deletions."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, TypeVar

import msgspec
from litestar import Request, Response, post

from service.auth import Asking, CampaignId, EventStore, may
from service.idempotency import HEADER_PARAMETER, keyed
from service.openapi import body
from service.requests import decode
from service.routes.events import appended_answer, appended_body
from service.store import Appended

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


async def _body(request: Request[Any, Any, Any], type_: type[Body]) -> Body:
    raw = await request.body()
    return decode(raw, type_) if raw.strip() else type_()


def _answer(doing: str, done: Appended) -> Response[Any]:
    targets = msgspec.json.decode(done.events[0].data)["targets"]
    # Sent again with its Idempotency-Key: answered from the log, nothing written, so 200 rather than 201.
    return appended_answer({f"{doing}ne": targets, "position": done.last_position, **appended_body(done)}, done)


@post(
    "/v1/campaigns/{campaign:str}/undo",
    summary="Undo a batch (the latest effective one by default)",
    status_code=201,
    operation_class=body(UndoRequest, headers=[HEADER_PARAMETER]),
    opt=may("undo"),
)
async def undo(
    request: Request[Any, Any, Any], store: EventStore, campaign_id: CampaignId, member: Asking
) -> Response[Any]:
    asked = await _body(request, UndoRequest)
    done = await store.undo(
        campaign_id,
        batch=asked.batch,
        cascade=asked.cascade,
        reason=asked.reason,
        actor=member.actor,
        only_own=member.role != "owner",
        mine=asked.mine,
        keyed=await keyed(request, member.actor),
    )
    return _answer("undo", done)


@post(
    "/v1/campaigns/{campaign:str}/redo",
    summary="Redo the most recently undone batch (or a named one)",
    status_code=201,
    operation_class=body(RedoRequest, headers=[HEADER_PARAMETER]),
    opt=may("redo"),
)
async def redo(
    request: Request[Any, Any, Any], store: EventStore, campaign_id: CampaignId, member: Asking
) -> Response[Any]:
    asked = await _body(request, RedoRequest)
    done = await store.redo(
        campaign_id,
        batch=asked.batch,
        reason=asked.reason,
        actor=member.actor,
        only_own=member.role != "owner",
        mine=asked.mine,
        keyed=await keyed(request, member.actor),
    )
    return _answer("redo", done)


ROUTES = [undo, redo]
