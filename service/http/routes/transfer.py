"""Export a campaign's whole log as NDJSON with a hash chain; import one as a new campaign after re-checking it."""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from litestar import Response, get, post
from litestar.response import Stream

from quartermaster.projections.registry import UnknownGame, event_types, game as game_by_id
from quartermaster.service.application.export import (
    EventRow,
    ExportError,
    ExportHeader,
    copied,
    export_lines,
    read_export,
)
from quartermaster.service.application.refold import CHUNK, Founding, RefoldError, Row, new_campaign_from_log, row_of
from quartermaster.service.http import limits
from quartermaster.service.http.auth import Asking, CampaignId, EventStore
from quartermaster.service.http.hostile import refuse_nul_and_depth, unstorable_time
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import MAX_NAME, AnyRequest, unknown_fields
from quartermaster.service.platform import tokens
from quartermaster.service.store import Recorded, Store

MEDIA_TYPE = "application/x-ndjson"
# An export of a long campaign is large; imports get a limit of their own.
MAX_IMPORT_BYTES = 512 * 1024 * 1024
# The schema versions of an event's data this Quartermaster writes and reads: an append records 1.
SCHEMA_VERSIONS = frozenset({1})
# How far ahead of this server's clock an imported recorded_at may be: the clocks of two servers differ a little.
CLOCK_SKEW = timedelta(minutes=5)


def _row(recorded: Recorded) -> EventRow:
    return copied(recorded, EventRow, data=msgspec.json.decode(recorded.data))


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
async def import_campaign(request: AnyRequest, store: EventStore) -> Response[Any]:
    body = await request.body()
    refuse_nul_and_depth(body, "The import")
    # One line at a time, never a list of them: the import's memory is the body and the lines in flight.
    limit = request.app.request_max_body_size
    lines = _lines(body, limit if isinstance(limit, int) and limit else MAX_IMPORT_BYTES)
    try:
        header, records = read_export(lines)
    except ExportError as error:
        raise _bad_line(error) from None
    try:
        game = game_by_id(header.game)
    except UnknownGame as error:
        raise Problem(422, f"Line 1: {error}", kind="bad-export", line=1) from None
    if not 1 <= len(header.campaign) <= MAX_NAME:
        raise Problem(
            422,
            f"Line 1: the campaign's name is {len(header.campaign)} characters long; a campaign's name is 1 to "
            f"{MAX_NAME} characters, as when it is started. Nothing was imported.",
            kind="bad-export",
            line=1,
        )
    campaign_id, owner_id = uuid.uuid4(), uuid.uuid4()
    token, token_hash = tokens.new_token(owner_id)
    name = header.campaign
    new = Founding(campaign_id=campaign_id, name=name, owner_id=owner_id, owner_name="Importer", token_hash=token_hash)
    try:
        position = await new_campaign_from_log(store, game=game, rows=_rows(records, game.id), **new)
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


def _lines(body: bytes, longest: int) -> Iterator[bytes]:
    """The body's lines, each with its newline, one at a time; a line longer than `longest` (the largest request an
    append accepts, so longer than any event an append could have recorded) is refused before it is decoded."""
    start = 0
    number = 0
    while start < len(body):
        number += 1
        end = body.find(b"\n", start)
        end = len(body) if end < 0 else end + 1
        if end - start > longest:
            raise Problem(
                422,
                f"Line {number} is {end - start} bytes long; no event this server records is longer than "
                f"{longest} bytes (its largest request). Nothing was imported.",
                kind="bad-export",
                line=number,
            )
        yield body[start:end]
        start = end


def refusal(r: EventRow, now: datetime, game_id: str) -> str | None:
    """Why an imported event could not have been recorded by an append (None when it could): the checks an append
    makes of what it records, on what an export carries."""
    if r.schema_version not in SCHEMA_VERSIONS:
        known = ", ".join(str(v) for v in sorted(SCHEMA_VERSIONS))
        return f"its schema_version is {r.schema_version}; this Quartermaster records schema version {known} only."
    if not r.actor.strip():
        return "its actor is empty; every recorded event names the member who recorded it."
    if len(r.actor) > MAX_NAME:
        return f"its actor is {len(r.actor)} characters long; a member is named in at most {MAX_NAME}."
    if r.recorded_at > now + CLOCK_SKEW:
        return f"it was recorded at {r.recorded_at.isoformat()}, later than now ({now.isoformat()}): no log holds that."
    event_type = event_types(game_id).get(r.type)
    if event_type is not None:
        unknown = unknown_fields(event_type, r.data)
        if unknown:
            where, field, hint = unknown[0]
            return f"{where}: unknown field `{field}`{hint}"
    return None


async def _rows(records: Iterator[EventRow], game_id: str) -> AsyncIterator[list[Row]]:
    chunk: list[Row] = []
    now = datetime.now(UTC)
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
        reason = refusal(r, now, game_id)
        if reason is not None:
            # The header is line 1, so position N is line N + 1.
            raise Problem(
                422,
                f"Line {r.position + 1}: the event at position {r.position} ({r.type}, id {r.id}) cannot be "
                f"imported: {reason} Nothing was imported.",
                kind="bad-export",
                line=r.position + 1,
            )
        chunk.append(row_of(r, r.position, msgspec.json.encode(r.data)))
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
