"""The NDJSON export: a header, one line per event, a SHA-256 hash chain, streamed both ways."""

from __future__ import annotations

import hashlib
import io
import uuid
from datetime import UTC, datetime, timedelta, timezone

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from quartermaster.service.application.export import (
    FORMAT,
    VERSION,
    EventRow,
    ExportError,
    ExportHeader,
    export_lines,
    read_export,
)

EXPORTED_AT = datetime(2024, 5, 1, 20, 30, tzinfo=UTC)


def header(events: int) -> ExportHeader:
    return ExportHeader(
        campaign="Wormwood Mutiny", game="pacg-skull-and-shackles", exported_at=EXPORTED_AT, events=events
    )


def row(position: int, **changes) -> EventRow:
    fields = dict(
        position=position,
        id=uuid.UUID(int=position),
        batch=uuid.UUID(int=1000 + (position + 1) // 2),
        type="note.added",
        schema_version=1,
        data={"text": f"note {position}", "z": [1, {"b": 2, "a": 1}]},
        actor="member-ana",
        recorded_at=EXPORTED_AT - timedelta(minutes=60 - position),
        occurred_at=None,
    )
    fields.update(changes)
    return EventRow(**fields)


def export(count: int) -> list[bytes]:
    return list(export_lines(header(count), [row(position) for position in range(1, count + 1)]))


def decode(line: bytes) -> dict:
    return msgspec.json.decode(line)


def sealed(content: dict) -> bytes:
    """Seal a line by the spec, independently of the module: SHA-256 hex of the sorted-key JSON without `hash`."""
    content = {key: value for key, value in content.items() if key != "hash"}
    digest = hashlib.sha256(msgspec.json.encode(content, order="sorted")).hexdigest()
    return msgspec.json.encode({**content, "hash": digest}, order="sorted") + b"\n"


def read_all(lines):
    found, records = read_export(lines)
    return found, list(records)


def refusal(lines) -> ExportError:
    with pytest.raises(ExportError) as caught:
        read_all(lines)
    return caught.value


# Writing


def test_the_first_line_is_a_header_naming_the_format_the_campaign_and_the_event_count():
    first = decode(export(2)[0])

    assert {key: value for key, value in first.items() if key != "hash"} == {
        "format": FORMAT,
        "version": VERSION,
        "campaign": "Wormwood Mutiny",
        "game": "pacg-skull-and-shackles",
        "exported_at": "2024-05-01T20:30:00Z",
        "events": 2,
    }


def test_each_event_line_keeps_every_field_of_the_log_and_chains_to_the_line_before():
    lines = export(3)

    decoded = [decode(line) for line in lines]
    assert decoded[1] == {
        "position": 1,
        "id": "00000000-0000-0000-0000-000000000001",
        "batch": str(uuid.UUID(int=1001)),
        "type": "note.added",
        "schema_version": 1,
        "data": {"text": "note 1", "z": [1, {"a": 1, "b": 2}]},
        "actor": "member-ana",
        "recorded_at": "2024-05-01T19:31:00Z",
        "occurred_at": None,
        "prev": decoded[0]["hash"],
        "hash": decoded[1]["hash"],
    }
    assert [line["prev"] for line in decoded[1:]] == [line["hash"] for line in decoded[:-1]]


def test_every_line_is_the_canonical_sorted_json_of_its_content_and_its_hash_is_taken_without_the_hash():
    for line in export(3):
        assert line == sealed(decode(line))


def test_rows_may_come_as_mappings_like_a_database_cursor_gives_them():
    rows = [msgspec.structs.asdict(row(position)) for position in (1, 2)]
    rows[0]["data"] = {"z": [1, {"b": 2, "a": 1}], "text": "note 1"}

    assert list(export_lines(header(2), rows)) == export(2)


def test_the_writer_streams_one_row_at_a_time():
    taken = []

    def rows():
        for position in range(1, 1_000_001):
            taken.append(position)
            yield row(position)

    lines = export_lines(header(1_000_000), rows())
    next(lines), next(lines)

    assert taken == [1]


def test_a_log_that_skips_a_position_cannot_be_exported():
    with pytest.raises(ValueError) as caught:
        list(export_lines(header(2), [row(1), row(3)]))

    assert str(caught.value) == (
        "The log handed to the export gave position 3 where 2 was expected; "
        "an export holds every position from 1 in order."
    )


def test_a_log_holding_other_than_the_promised_count_cannot_be_exported():
    with pytest.raises(ValueError) as caught:
        list(export_lines(header(3), [row(1), row(2)]))

    assert str(caught.value) == "The header promises 3 events, but the log handed to the export held 2."


def test_a_row_that_is_not_a_recorded_event_cannot_be_exported():
    incomplete = msgspec.structs.asdict(row(1))
    del incomplete["actor"]

    with pytest.raises(ValueError) as caught:
        list(export_lines(header(1), [incomplete]))

    assert str(caught.value) == (
        "A row handed to the export is not a recorded event: Object missing required field `actor`."
    )


# Reading back


def test_reading_an_export_gives_back_the_header_and_every_event():
    found, records = read_all(export(3))

    assert found == header(3)
    assert records == [row(1), row(2), row(3)]


def test_lines_may_come_from_a_binary_file_and_a_trailing_blank_line_is_ignored():
    blob = b"".join(export(2))

    assert read_all(io.BytesIO(blob))[1] == [row(1), row(2)]
    assert read_all(blob.split(b"\n"))[1] == [row(1), row(2)]


def test_an_export_of_a_campaign_without_events_is_just_its_header():
    assert read_all(export(0)) == (header(0), [])


def test_the_reader_yields_trusted_events_before_it_reaches_a_bad_line():
    lines = export(3)
    lines[3] = lines[3].replace(b"note 3", b"note X")

    _, records = read_export(lines)

    assert next(records) == row(1)
    assert next(records) == row(2)
    with pytest.raises(ExportError) as caught:
        next(records)
    assert caught.value.line_number == 4


# Refusals: each names the first bad line and why


def test_an_empty_export_is_refused():
    assert (refusal([]).line_number, refusal([]).reason) == (
        1,
        "the export is empty; its first line should be the header.",
    )
    assert refusal([b"\n"]).reason == "the export is empty; its first line should be the header."


def test_a_header_that_is_not_json_is_refused():
    error = refusal([b"campaign: Wormwood\n"])

    assert error.line_number == 1
    assert error.reason.startswith("the header is not valid JSON (JSON is malformed")


def test_a_header_that_is_not_an_object_is_refused():
    error = refusal([b"[1, 2]\n"])

    assert (error.line_number, error.reason) == (1, "the first line should be the export's header, a JSON object.")


def test_a_file_in_another_format_is_refused_by_name():
    assert refusal([sealed({"format": "eventsourcing-dump", "version": 1})]).reason == (
        "this is not a Quartermaster campaign export: its header names the format 'eventsourcing-dump'."
    )
    assert refusal([sealed({"version": 1})]).reason == (
        "this is not a Quartermaster campaign export: its header names no format."
    )


def test_a_newer_format_version_is_refused():
    content = {**decode(export(0)[0]), "version": 2}

    error = refusal([sealed(content)])

    assert (error.line_number, error.reason) == (
        1,
        "the export is format version 2, and this Quartermaster reads version 1 only.",
    )


def test_a_header_missing_a_field_is_refused():
    content = decode(export(0)[0])
    del content["game"]

    assert refusal([sealed(content)]).reason == (
        "the header is incomplete or malformed: Object missing required field `game`."
    )


def test_a_header_with_an_unknown_field_is_refused():
    assert refusal([sealed({**decode(export(0)[0]), "owner": "ana"})]).reason == (
        "the header is incomplete or malformed: Object contains unknown field `owner`."
    )


def test_a_header_without_a_hash_is_refused():
    content = decode(export(0)[0])
    del content["hash"]

    assert refusal([msgspec.json.encode(content, order="sorted")]).reason == (
        "the header has no `hash`, so nothing proves it is what was exported."
    )


def test_a_renamed_campaign_is_caught_by_the_header_hash():
    lines = export(1)
    lines[0] = lines[0].replace(b"Wormwood Mutiny", b"Wormwood Mutiny!")

    error = refusal(lines)

    assert (error.line_number, error.reason) == (
        1,
        "the header does not match its hash: it was changed after the export was written.",
    )


def test_a_reformatted_header_is_caught_even_though_its_content_is_intact():
    lines = export(1)
    lines[0] = lines[0].replace(b'"events":1', b'"events": 1')

    assert refusal(lines).reason == (
        "the header matches its hash but is not written the way the exporter writes it (keys sorted, no spaces, "
        "one line): it was reformatted or a byte was changed."
    )


def test_an_event_line_that_is_not_json_is_refused_at_its_line():
    garbled = export(2)
    garbled[1] = b'{"actor":"member-ana",,}\n'

    error = refusal(garbled)

    assert error.line_number == 2
    assert error.reason.startswith("the line is not valid JSON (JSON is malformed: ")


def test_a_truncated_event_line_is_refused_at_its_line():
    lines = export(2)
    lines[2] = lines[2][:40] + b"\n"

    error = refusal(lines)

    assert (error.line_number, error.reason) == (3, "the line is not valid JSON (Input data was truncated).")


def test_an_event_line_missing_a_field_is_refused():
    content = decode(export(1)[1])
    del content["prev"]
    lines = export(1)
    lines[1] = sealed(content)

    error = refusal(lines)

    assert (error.line_number, error.reason) == (
        2,
        "the line is not an event as the exporter writes it: Object missing required field `prev`.",
    )


def test_an_event_line_with_a_field_of_the_wrong_kind_is_refused():
    lines = export(1)
    lines[1] = sealed({**decode(lines[1]), "position": "one"})

    assert refusal(lines).reason == (
        "the line is not an event as the exporter writes it: Expected `int`, got `str` - at `$.position`."
    )


def test_an_event_line_without_a_hash_is_refused():
    lines = export(1)
    content = decode(lines[1])
    del content["hash"]
    lines[1] = msgspec.json.encode(content, order="sorted")

    assert refusal(lines).reason == "the line has no `hash`, so nothing proves it is what was exported."


def test_positions_must_start_at_one():
    lines = export(1)
    lines[1] = sealed({**decode(lines[1]), "position": 2})

    error = refusal(lines)

    assert (error.line_number, error.reason) == (
        2,
        "the line holds position 2 where position 1 was expected; positions run 1, 2, 3... without gaps.",
    )


def test_a_removed_line_is_caught_by_the_gap_in_positions():
    lines = export(3)
    del lines[2]

    error = refusal(lines)

    assert (error.line_number, error.reason) == (
        3,
        "the line holds position 3 where position 2 was expected; positions run 1, 2, 3... without gaps.",
    )


def test_a_line_not_chained_to_the_one_before_is_refused():
    lines = export(3)
    # Renumbered and re-hashed by someone who did not know the chain: position and hash are fine, prev is not.
    lines[2] = sealed({**decode(lines[2]), "prev": "0" * 64})

    error = refusal(lines)

    assert (error.line_number, error.reason) == (
        3,
        "its `prev` is not the hash of line 2: a line before it was removed, reordered or changed.",
    )


def test_an_event_changed_after_export_is_caught_by_its_hash():
    lines = export(2)
    lines[1] = lines[1].replace(b'"actor":"member-ana"', b'"actor":"member-bob"')

    error = refusal(lines)

    assert (error.line_number, error.reason) == (
        2,
        "the line does not match its hash: it was changed after the export was written.",
    )


def test_windows_line_endings_are_refused_as_reformatting():
    lines = [line[:-1] + b"\r\n" for line in export(1)]
    lines[0] = export(1)[0]

    error = refusal(lines)

    assert error.line_number == 2
    assert error.reason.startswith("the line matches its hash but is not written the way the exporter writes it")


def test_more_events_than_the_header_promises_are_refused():
    longer = export(3)
    lines = [export(2)[0], *longer[1:]]
    # The header of a 2-event export with lines 1 and 2 chained to it: re-chain line 1 onto that header.
    lines[1] = sealed({**decode(lines[1]), "prev": decode(lines[0])["hash"]})
    lines[2] = sealed({**decode(lines[2]), "prev": decode(lines[1])["hash"]})
    lines[3] = sealed({**decode(lines[3]), "prev": decode(lines[2])["hash"]})

    error = refusal(lines)

    assert (error.line_number, error.reason) == (4, "the header promises 2 events, but this line holds event 3.")


def test_an_export_cut_short_is_refused_at_the_line_that_is_missing():
    lines = export(3)[:3]

    error = refusal(lines)

    assert (error.line_number, error.reason) == (
        4,
        "the export ends after 2 of the 3 events its header promises; it was cut short.",
    )


def test_a_blank_line_between_events_is_refused():
    lines = export(2)
    lines.insert(2, b"\n")

    error = refusal(lines)

    assert (error.line_number, error.reason) == (
        3,
        "the line is blank, but events follow it; an export has no blank lines.",
    )


def test_the_error_reads_as_a_sentence_with_its_line():
    lines = export(1)[:1]
    lines[0] = lines[0].replace(b"Wormwood", b"Wyrmwood")

    assert str(refusal(lines)) == (
        "line 1: the header does not match its hash: it was changed after the export was written."
    )


# Laws

json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)
offsets = st.integers(-14 * 60, 14 * 60).map(lambda minutes: timezone(timedelta(minutes=minutes)))
aware = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=offsets)


@st.composite
def logs(draw):
    count = draw(st.integers(0, 6))
    rows = [
        EventRow(
            position=position,
            id=draw(st.uuids()),
            batch=draw(st.uuids()),
            type=draw(st.sampled_from(["note.added", "card.moved", "dice.rolled", "fame.changed"])),
            schema_version=draw(st.integers(1, 3)),
            data=draw(st.dictionaries(st.text(max_size=8), json_values, max_size=5)),
            actor=draw(st.text(max_size=10)),
            recorded_at=draw(aware),
            occurred_at=draw(st.none() | aware),
        )
        for position in range(1, count + 1)
    ]
    found = ExportHeader(
        campaign=draw(st.text(max_size=20)), game=draw(st.text(max_size=20)), exported_at=draw(aware), events=count
    )
    return found, rows


@given(logs())
def test_reading_an_export_gives_back_exactly_what_was_exported(log):
    found, rows = log

    assert read_all(export_lines(found, rows)) == (found, rows)


@settings(max_examples=300)
@given(logs(), st.data())
def test_changing_any_single_byte_of_an_export_is_caught(log, data):
    blob = bytearray(b"".join(export_lines(*log)))
    at = data.draw(st.integers(0, len(blob) - 1), label="byte")
    blob[at] = data.draw(st.integers(0, 255).filter(lambda value: value != blob[at]), label="new value")

    with pytest.raises(ExportError):
        read_all(io.BytesIO(bytes(blob)))
