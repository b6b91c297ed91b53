"""Export a campaign's whole log as NDJSON with a hash chain; import one as a new campaign after re-checking it."""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime

import msgspec
from litestar import Request, Response, get, post
from litestar.response import Stream

from projections.registry import UnknownGame, game as game_by_id
from service import limits, tokens
from service.auth import Asking, CampaignId, EventStore
from service.export import EventRow, ExportError, ExportHeader, export_lines, read_export
from service.hostile import refuse_nul_and_depth, unstorable_time
from service.problems import Problem
from service.refold import CHUNK, RefoldError, Row, new_campaign_from_log
from service.store import Recorded, Store

MEDIA_TYPE = "application/x-ndjson"
# An export of a long campaign is large; imports get a limit of their own.
MAX_IMPORT_BYTES = 512 * 1024 * 1024


def _row(recorded: Recorded) -> EventRow:
    return EventRow(
        position=recorded.position,
        id=recorded.id,
        batch=recorded.batch,
        type=recorded.type,
        schema_version=recorded.schema_version,
        data=msgspec.json.decode(recorded.data),
        actor=recorded.actor,
        recorded_at=recorded.recorded_at,
        occurred_at=recorded.occurred_at,
        override=recorded.override,
    )


async def _export(store: Store, campaign_id: uuid.UUID, header: ExportHeader) -> AsyncIterator[bytes]:
    # export_lines is a plain generator that seals each line with the previous line's hash; feed it one row at a
    # time from the database so the whole log is never held.
    waiting: deque[EventRow] = deque()

    def feed() -> Iterator[EventRow]:
        while True:
            yield waiting.popleft()

    lines = export_lines(header, feed())
    yield next(lines)
    async for recorded in store.rows(campaign_id, header.events):
        waiting.append(_row(recorded))
        yield next(lines)
    lines.close()


@get("/v1/campaigns/{campaign:str}/export", summary="The whole log as NDJSON with a hash chain")
async def export(store: EventStore, campaign_id: CampaignId, member: Asking) -> Stream:
    found = await store.campaign(campaign_id)
    header = ExportHeader(campaign=found.name, game=found.game, exported_at=datetime.now(UTC), events=found.position)
    return Stream(
        _export(store, campaign_id, header),
        media_type=MEDIA_TYPE,
        headers={"content-disposition": f'attachment; filename="campaign-{campaign_id}.ndjson"'},
    )


@post(
    "/v1/campaigns/import",
    summary="Import an export as a new campaign (the importer becomes its owner)",
    request_max_body_size=MAX_IMPORT_BYTES,
    status_code=201,
    middleware=[limits.PER_CLIENT],
)
async def import_campaign(request: Request, store: EventStore) -> Response:
    body = await request.body()
    refuse_nul_and_depth(body, "The import")
    lines = body.splitlines()
    try:
        header, records = read_export(lines)
    except ExportError as error:
        raise _bad_line(error) from None
    try:
        game = game_by_id(header.game)
    except UnknownGame as error:
        raise Problem(422, f"Line 1: {error}", kind="bad-export", line=1) from None
    campaign_id, owner_id = uuid.uuid4(), uuid.uuid4()
    token, token_hash = tokens.new_token(owner_id)
    name = header.campaign
    try:
        position = await new_campaign_from_log(
            store,
            campaign_id=campaign_id,
            game=game,
            name=name,
            owner_id=owner_id,
            owner_name="Importer",
            token_hash=token_hash,
            rows=_rows(records),
        )
    except ExportError as error:
        raise _bad_line(error) from None
    except RefoldError as error:
        # The header is line 1, so position N is line N + 1.
        raise Problem(
            422,
            f"Line {error.position + 1}: the event at position {error.position} is refused by the "
            f"rules: {error.reason} Nothing was imported.",
            kind="bad-export",
            line=error.position + 1,
        ) from None
    return Response(
        {
            "id": str(campaign_id),
            "name": name,
            "game": game.id,
            "position": position,
            "member_id": str(owner_id),
            "token": token,
        },
        status_code=201,
    )


async def _rows(records: Iterator[EventRow]) -> AsyncIterator[list[Row]]:
    chunk: list[Row] = []
    for r in records:
        for name, moment in (("recorded_at", r.recorded_at), ("occurred_at", r.occurred_at)):
            unstorable = unstorable_time(moment)
            if unstorable:
                # The header is line 1, so position N is line N + 1.
                raise Problem(
                    422,
                    f"Line {r.position + 1}: {name}: {unstorable} Nothing was imported.",
                    kind="bad-export",
                    line=r.position + 1,
                )
        chunk.append(
            Row(
                r.position,
                r.id,
                r.batch,
                r.type,
                r.schema_version,
                msgspec.json.encode(r.data),
                r.actor,
                r.recorded_at,
                r.occurred_at,
                r.override.reason if r.override is not None else None,
            )
        )
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _bad_line(error: ExportError) -> Problem:
    return Problem(
        422,
        f"Line {error.line_number}: {error.reason} Nothing was imported.",
        kind="bad-export",
        line=error.line_number,
    )


ROUTES = [export, import_campaign]
