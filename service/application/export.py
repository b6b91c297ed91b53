"""The campaign export: NDJSON with a hash chain, written and verified as a stream.

Line 1 is the header; each following line is one recorded event, in position order, with every field the log
keeps. Every line carries `hash`, the SHA-256 (hex) of the line's canonical encoding without `hash`; each event
line also carries `prev`, the hash of the line before it (the header's, for position 1). Canonical means msgspec
JSON with keys sorted at every level (`order="sorted"`) and no spaces, exactly as the writer emits it.

The reader refuses a line whose bytes differ from that canonical form even when its content hashes correctly,
so no single changed byte anywhere in an export goes unnoticed. Nothing here touches the database: the service
feeds rows in and stores what comes out.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Generator, Iterable, Iterator, Mapping
from datetime import datetime
from functools import cache
from typing import Annotated, Any, TypeVar

import msgspec

from quartermaster.service.store.records import Override

FORMAT = "quartermaster-campaign-export"
VERSION = 1

AwareDatetime = Annotated[datetime, msgspec.Meta(tz=True)]


class ExportError(Exception):
    """The first line of an export that cannot be trusted, and why."""

    def __init__(self, line_number: int, reason: str) -> None:
        super().__init__(f"line {line_number}: {reason}")
        self.line_number = line_number
        self.reason = reason


class ExportHeader(msgspec.Struct, frozen=True, kw_only=True):
    """What the first line says about the campaign and the export."""

    campaign: str
    game: str
    exported_at: AwareDatetime
    events: Annotated[int, msgspec.Meta(ge=0)]
    format: str = FORMAT
    version: int = VERSION


class EventRow(msgspec.Struct, frozen=True, kw_only=True):
    """One recorded event with every field the log keeps."""

    position: Annotated[int, msgspec.Meta(ge=1)]
    id: uuid.UUID
    batch: uuid.UUID
    type: str
    schema_version: Annotated[int, msgspec.Meta(ge=1)]
    data: dict[str, Any]
    actor: str
    recorded_at: AwareDatetime
    occurred_at: AwareDatetime | None
    # The table's reason for logging it against a rule of the game; left out of the line when there is none, so
    # exports written before overrides existed read and hash as they did.
    override: Override | None = None


# On the wire. Only `hash` has a default, and `omit_defaults` leaves it out while it is "", so encoding a line
# with an empty hash gives exactly the canonical bytes "without `hash`" that the hash is taken over.
class _HeaderLine(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    format: str
    version: int
    campaign: str
    game: str
    exported_at: AwareDatetime
    events: Annotated[int, msgspec.Meta(ge=0)]
    hash: str = ""


class _EventLine(EventRow, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    prev: str
    hash: str = ""


S = TypeVar("S", bound=msgspec.Struct)


def copied(source: msgspec.Struct, into: type[S], **given: Any) -> S:
    """A struct of type `into`: the `given` fields, and each other field of `into` that `source` has too (an event
    line from a row, a row from a recorded event or from a decoded line)."""
    names = _shared(type(source), into)
    return into(**{name: getattr(source, name) for name in names if name not in given}, **given)


@cache
def _shared(source: type[msgspec.Struct], into: type[msgspec.Struct]) -> tuple[str, ...]:
    return tuple(name for name in into.__struct_fields__ if name in source.__struct_fields__)


_encoder = msgspec.json.Encoder(order="sorted")
_event_line_decoder = msgspec.json.Decoder(_EventLine)
_any_decoder = msgspec.json.Decoder()


def _hash(unsealed: msgspec.Struct) -> str:
    return hashlib.sha256(_encoder.encode(unsealed)).hexdigest()


def _seal(line: _HeaderLine | _EventLine) -> tuple[str, bytes]:
    digest = _hash(line)
    return digest, _encoder.encode(msgspec.structs.replace(line, hash=digest)) + b"\n"


def _as_row(row: EventRow | Mapping[str, Any]) -> EventRow:
    if isinstance(row, EventRow):
        return row
    try:
        return msgspec.convert(row, EventRow, from_attributes=True)
    except msgspec.ValidationError as error:
        raise ValueError(f"A row handed to the export is not a recorded event: {error}.") from None


def export_lines(header: ExportHeader, rows: Iterable[EventRow | Mapping[str, Any]]) -> Generator[bytes, None, None]:
    """Stream an export: the header line, then one line per row, each ending in a newline.

    Rows are `EventRow`s or mappings with the same keys (a psycopg `dict_row` fits), in position order from 1.
    One row is held at a time, so the whole log is never in memory.
    """
    previous, line = _seal(copied(header, _HeaderLine))
    yield line
    count = 0
    for given in rows:
        row = _as_row(given)
        count += 1
        if row.position != count:
            raise ValueError(
                f"The log handed to the export gave position {row.position} where {count} was expected; "
                "an export holds every position from 1 in order."
            )
        previous, line = _seal(copied(row, _EventLine, prev=previous))
        yield line
    if count != header.events:
        raise ValueError(f"The header promises {header.events} events, but the log handed to the export held {count}.")


def _body(line: bytes) -> bytes:
    # Exactly one trailing newline is the separator; anything else (a carriage return, a space) is a changed byte.
    return line[:-1] if line.endswith(b"\n") else line


def _check_sealed(number: int, raw: bytes, line: _HeaderLine | _EventLine, what: str) -> str:
    """Check a decoded line's hash and canonical form; answer its hash."""
    if not line.hash:
        raise ExportError(number, f"{what} has no `hash`, so nothing proves it is what was exported.")
    sealed = msgspec.structs.replace(line, hash="")
    if _hash(sealed) != line.hash:
        raise ExportError(number, f"{what} does not match its hash: it was changed after the export was written.")
    if _encoder.encode(line) != raw:
        raise ExportError(
            number,
            f"{what} matches its hash but is not written the way the exporter writes it (keys sorted, no spaces, "
            "one line): it was reformatted or a byte was changed.",
        )
    return line.hash


def _read_header(raw: bytes) -> tuple[ExportHeader, str]:
    try:
        decoded = _any_decoder.decode(raw)
    except msgspec.DecodeError as error:
        raise ExportError(1, f"the header is not valid JSON ({error}).") from None
    if not isinstance(decoded, dict):
        raise ExportError(1, "the first line should be the export's header, a JSON object.")
    if decoded.get("format") != FORMAT:
        named = f"names the format {decoded['format']!r}" if "format" in decoded else "names no format"
        raise ExportError(1, f"this is not a Quartermaster campaign export: its header {named}.")
    if decoded.get("version") != VERSION:
        raise ExportError(
            1,
            f"the export is format version {decoded.get('version')!r}, and this Quartermaster reads version "
            f"{VERSION} only.",
        )
    try:
        line = msgspec.convert(decoded, _HeaderLine)
    except msgspec.ValidationError as error:
        raise ExportError(1, f"the header is incomplete or malformed: {error}.") from None
    digest = _check_sealed(1, raw, line, "the header")
    return copied(line, ExportHeader), digest


def _records(lines: Iterator[bytes], header: ExportHeader, header_hash: str) -> Iterator[EventRow]:
    previous = header_hash
    position = 0
    number = 1
    blank_at: int | None = None
    for number, line in enumerate(lines, start=2):
        raw = _body(line)
        if not raw.strip():
            # A blank line is allowed only at the very end (a trailing newline split off by the caller).
            blank_at = blank_at or number
            continue
        if blank_at is not None:
            raise ExportError(blank_at, "the line is blank, but events follow it; an export has no blank lines.")
        try:
            decoded = _event_line_decoder.decode(raw)
        except msgspec.ValidationError as error:
            raise ExportError(number, f"the line is not an event as the exporter writes it: {error}.") from None
        except msgspec.DecodeError as error:
            raise ExportError(number, f"the line is not valid JSON ({error}).") from None
        position += 1
        if decoded.position != position:
            raise ExportError(
                number,
                f"the line holds position {decoded.position} where position {position} was expected; "
                "positions run 1, 2, 3... without gaps.",
            )
        if position > header.events:
            raise ExportError(
                number, f"the header promises {header.events} events, but this line holds event {position}."
            )
        if decoded.prev != previous:
            raise ExportError(
                number,
                f"its `prev` is not the hash of line {number - 1}: a line before it was removed, reordered or changed.",
            )
        previous = _check_sealed(number, raw, decoded, "the line")
        yield copied(decoded, EventRow)
    if position < header.events:
        raise ExportError(
            blank_at or number + 1,
            f"the export ends after {position} of the {header.events} events its header promises; it was cut short.",
        )


def read_export(lines: Iterable[bytes]) -> tuple[ExportHeader, Iterator[EventRow]]:
    """Read and verify an export as a stream: the header now, then each event as it is verified.

    Lines are bytes, with or without their trailing newline (iterating a binary file fits). The header is checked
    before this returns; the iterator raises `ExportError` at the first line that cannot be trusted, including a
    missing tail, so an importer must consume it to the end before committing anything.
    """
    iterator = iter(lines)
    first = next(iterator, None)
    if first is None or not _body(first).strip():
        raise ExportError(1, "the export is empty; its first line should be the header.")
    header, digest = _read_header(_body(first))
    return header, _records(iterator, header, digest)
