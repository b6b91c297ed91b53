"""Undo and redo: markers appended to the log, never deletions."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, post
from litestar.params import FromPath

from service.auth import ROLES_THAT_APPEND, campaign_id_of, member, not_found, require
from service.openapi import body
from service.problems import Problem
from service.requests import decode
from service.routes.campaigns import store_of
from service.routes.events import appended_body
from service.store import CampaignNotFound, UndoConflict, UndoRefused


class UndoRequest(msgspec.Struct, forbid_unknown_fields=True):
    batch: uuid.UUID | None = None
    cascade: bool = False
    reason: Annotated[str, msgspec.Meta(max_length=1000)] | None = None


class RedoRequest(msgspec.Struct, forbid_unknown_fields=True):
    batch: uuid.UUID | None = None
    reason: Annotated[str, msgspec.Meta(max_length=1000)] | None = None


async def _body(request: Request, type_: type) -> Any:
    raw = await request.body()
    return decode(raw, type_) if raw.strip() else type_()


def _conflict(doing: str, conflict: UndoConflict) -> Problem:
    first = conflict.conflicts[0]
    hint = " Undo with cascade=true to take the dependent batches too." if doing == "undo" else ""
    return Problem(
        409,
        f"Cannot {doing}: {len(conflict.conflicts)} later event(s) would no longer hold, the first at position "
        f"{first.position} ({first.type}): {first.reason} Nothing was written.{hint}",
        kind="undo-conflict",
        conflicts=[{"position": c.position, "type": c.type, "reason": c.reason} for c in conflict.conflicts],
    )


async def _marked(request: Request, campaign: str, doing: str, body_type: type, act: Any) -> Response:
    """Undo and redo alike: authorise, decode, append the marker through the store, answer what it names."""
    campaign_id = campaign_id_of(campaign)
    store = store_of(request)
    who = await member(request, store, campaign_id)
    require(who, ROLES_THAT_APPEND, doing)
    body = await _body(request, body_type)
    try:
        done = await act(store, campaign_id, body, actor=str(who.id), only_own=who.role != "owner")
    except CampaignNotFound:
        raise not_found(campaign_id) from None
    except UndoRefused as refused:
        raise Problem(refused.status, refused.reason, kind=f"{doing}-refused") from None
    except UndoConflict as conflict:
        raise _conflict(doing, conflict) from None
    targets = msgspec.json.decode(done.events[0].data)["targets"]
    return Response({f"{doing}ne": targets, "position": done.last_position, **appended_body(done)}, status_code=201)


@post("/v1/campaigns/{campaign:str}/undo", summary="Undo a batch (the latest effective one by default)",
      status_code=201, operation_class=body(UndoRequest))
async def undo(request: Request, campaign: FromPath[str]) -> Response:
    return await _marked(request, campaign, "undo", UndoRequest, lambda store, campaign_id, body, **who: store.undo(
        campaign_id, batch=body.batch, cascade=body.cascade, reason=body.reason, **who))


@post("/v1/campaigns/{campaign:str}/redo", summary="Redo the most recently undone batch (or a named one)",
      status_code=201, operation_class=body(RedoRequest))
async def redo(request: Request, campaign: FromPath[str]) -> Response:
    return await _marked(request, campaign, "redo", RedoRequest, lambda store, campaign_id, body, **who: store.redo(
        campaign_id, batch=body.batch, reason=body.reason, **who))


ROUTES = [undo, redo]
