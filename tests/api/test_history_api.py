"""History, undo and redo, time travel, dice, live updates, export and import, over HTTP on real PostgreSQL."""

from __future__ import annotations

import json

import msgspec
import pytest

GAME = "pacg-skull-and-shackles"


def note(text: str) -> dict:
    return {"type": "note.added", "data": {"text": text}}


def notes_at(api, campaign, **params) -> list[str]:
    """The texts of the effective notes, from the history."""
    events = api.get(campaign, "/events", type="note.added", limit=1000).json()["events"]
    return [e["data"]["text"] for e in events if e["undone_by"] is None]


# -- undo and redo ----------------------------------------------------------------------------------------------


def test_undo_without_a_target_undoes_the_latest_batch_and_marks_it_in_the_history(api):
    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("first")])
    api.append(campaign, [note("second a"), note("second b")])
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/undo", json={"reason": "wrong scenario"}, headers=campaign.headers
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["undone"] == [4, 5] and answer.json()["position"] == 6
    history = api.get(campaign, "/events").json()["events"]
    assert [(e["position"], e["undone_by"]) for e in history] == [
        (1, None),
        (2, None),
        (3, None),
        (4, 6),
        (5, 6),
        (6, None),
    ]
    assert history[-1]["type"] == "event.undone"
    assert history[-1]["data"] == {"targets": [4, 5], "reason": "wrong scenario"}


def test_redo_brings_back_the_most_recently_undone_batch(api):
    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("keep")])
    api.append(campaign, [note("oops")])
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    assert notes_at(api, campaign) == ["keep"]
    answer = api.client.post(f"/v1/campaigns/{campaign.id}/redo", headers=campaign.headers)
    assert answer.status_code == 201, answer.text
    assert answer.json()["redone"] == [4]
    assert notes_at(api, campaign) == ["keep", "oops"]


def test_undo_twice_undoes_the_two_latest_effective_batches(api):
    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("a")])
    api.append(campaign, [note("b")])
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    assert notes_at(api, campaign) == []


def test_nothing_left_to_undo_or_redo_is_a_clear_409(api):
    campaign = api.new_campaign(GAME)
    undo = api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    assert undo.status_code == 409
    assert "started the campaign or added a member; that cannot be undone" in undo.json()["detail"]
    redo = api.client.post(f"/v1/campaigns/{campaign.id}/redo", headers=campaign.headers)
    assert redo.status_code == 409 and "There is nothing to redo" in redo.json()["detail"]


def test_undoing_an_unknown_batch_is_404_and_writes_nothing(api):
    campaign = api.new_campaign(GAME)
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/undo",
        json={"batch": "00000000-0000-4000-8000-000000000000"},
        headers=campaign.headers,
    )
    assert answer.status_code == 404 and "has no batch" in answer.json()["detail"]
    assert api.get(campaign, "").json()["position"] == 2


@pytest.mark.parametrize(
    ("undoer", "author", "status"),
    [
        ("owner", "owner", 201),
        ("owner", "player", 201),
        ("player", "player", 201),
        ("player", "owner", 403),
        ("player", "other player", 403),
        ("viewer", "owner", 403),
        ("viewer", "player", 403),
    ],
)
def test_undo_and_redo_permissions(api, undoer, author, status):
    campaign = api.new_campaign(GAME)
    tokens = {
        "owner": campaign.token,
        "player": api.add_member(campaign, "player", "Anne"),
        "other player": api.add_member(campaign, "player", "Jack"),
        "viewer": api.add_member(campaign, "viewer"),
    }
    batch = api.append(campaign, [note("by " + author)], token=tokens[author]).json()["batch"]
    undo = api.client.post(
        f"/v1/campaigns/{campaign.id}/undo",
        json={"batch": batch},
        headers={"Authorization": f"Bearer {tokens[undoer]}"},
    )
    assert undo.status_code == status, undo.text
    if status == 201:
        redo = api.client.post(
            f"/v1/campaigns/{campaign.id}/redo",
            json={"batch": batch},
            headers={"Authorization": f"Bearer {tokens[undoer]}"},
        )
        assert redo.status_code == 201, redo.text
    else:
        assert undo.json()["detail"]
        # The owner can still undo it: nothing was written by the refused attempt.
        assert api.get(campaign, "").json()["position"] == 6


def test_a_player_cannot_redo_what_someone_else_recorded(api):
    campaign = api.new_campaign(GAME)
    player = api.add_member(campaign, "player", "Anne")
    batch = api.append(campaign, [note("by the owner")]).json()["batch"]
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", json={"batch": batch}, headers=campaign.headers)
    redo = api.client.post(f"/v1/campaigns/{campaign.id}/redo", headers={"Authorization": f"Bearer {player}"})
    assert redo.status_code == 403 and "only redo what they recorded themselves" in redo.json()["detail"]


# -- state at any point -----------------------------------------------------------------------------------------


def test_state_at_a_position_is_the_state_as_the_log_stood_then(api):
    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("a")])
    now = api.get(campaign, "/state").json()
    at_two = api.get(campaign, "/state", at=2).json()
    assert now["position"] == 3 and at_two["position"] == 2
    assert api.get(campaign, "/state", at=99).json() == now
    bad = api.get(campaign, "/state", at=-1)
    assert bad.status_code == 422 and "`at` must be a position" in bad.json()["detail"]


# -- dice -------------------------------------------------------------------------------------------------------


def test_the_server_rolls_an_expression_and_records_every_face(api):
    campaign = api.new_campaign(GAME)
    joined = api.append(
        campaign, [{"type": "character.joined", "data": {"character_id": "merisiel", "player": "Anne"}}]
    )
    assert joined.status_code == 201, joined.text
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls",
        json={
            "expression": "1d12+1d6+2",
            "character_id": "merisiel",
            "skill": "Acrobatics",
            "purpose": "check",
            "difficulty": 8,
        },
        headers=campaign.headers,
    )
    assert answer.status_code == 201, answer.text
    roll = answer.json()["roll"]
    assert roll["type"] == "dice.rolled" and roll["position"] == 4
    data = roll["data"]
    assert [d["sides"] for d in data["dice"]] == [12, 6]
    assert data["total"] == sum(d["face"] for d in data["dice"]) + 2
    assert data["source"] == "server" and data["success"] == (data["total"] >= 8)


def test_a_roll_made_at_the_table_is_logged_with_its_faces(api):
    campaign = api.new_campaign(GAME)
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json={"expression": "2d6+1", "faces": [6, 3]}, headers=campaign.headers
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["roll"]["data"]["total"] == 10
    assert answer.json()["roll"]["data"]["source"] == "table"


def test_an_invalid_expression_gets_a_422_that_points_where_it_went_wrong(api):
    campaign = api.new_campaign(GAME)
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json={"expression": "1d12+x"}, headers=campaign.headers
    )
    assert answer.status_code == 422
    problem = answer.json()
    assert problem["column"] == 6 and problem["caret"] == "1d12+x\n     ^"
    assert "does not parse" in problem["detail"]
    assert api.get(campaign, "").json()["position"] == 2


def test_faces_that_do_not_fit_the_expression_are_refused(api):
    campaign = api.new_campaign(GAME)
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json={"expression": "1d6", "faces": [7]}, headers=campaign.headers
    )
    assert answer.status_code == 422 and "its face is from 1 to 6, not 7" in answer.json()["detail"]


def test_dice_statistics_count_faces_and_leave_out_undone_rolls(api):
    campaign = api.new_campaign(GAME)
    for faces in ([1], [6], [6]):
        api.client.post(
            f"/v1/campaigns/{campaign.id}/rolls", json={"expression": "1d6", "faces": faces}, headers=campaign.headers
        )
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    stats = api.get(campaign, "/stats/dice").json()
    d6 = next(s for s in stats["sizes"] if s["sides"] == 6)
    assert d6["faces"] == [1, 0, 0, 0, 0, 1] and d6["rolls"] == 2
    assert 0 <= d6["p_value"] <= 1 and d6["note"]


# -- live updates -----------------------------------------------------------------------------------------------


def read_sse(response, count: int) -> list[dict]:
    """The first `count` events of an SSE response."""
    events, current = [], {}
    for line in response.iter_lines():
        if not line:
            if "data" in current:
                events.append(current)
                if len(events) == count:
                    return events
            current = {}
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        current[field] = value.removeprefix(" ")
    return events


@pytest.fixture(scope="module")
def live_server(database_url, app_settings):
    """The app served by uvicorn on a free loopback port, for clients that really stream."""
    import socket
    import threading
    import time

    import uvicorn

    from quartermaster.service.app import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(app_settings, database_url), host="127.0.0.1", port=port, log_level="warning", lifespan="on"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def test_an_sse_client_that_reconnects_with_last_event_id_misses_nothing(api, live_server):
    import httpx

    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("one")])
    with httpx.Client(base_url=live_server, timeout=10) as client:
        url = f"/v1/campaigns/{campaign.id}/stream"
        with client.stream("GET", url, headers=campaign.headers) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            first = read_sse(response, 3)
        assert [int(e["id"]) for e in first] == [1, 2, 3]
        # Away from the table for a while: two more batches are recorded.
        api.append(campaign, [note("two")])
        api.append(campaign, [note("three"), note("four")])
        with client.stream("GET", url, headers={**campaign.headers, "Last-Event-ID": first[-1]["id"]}) as response:
            resumed = read_sse(response, 3)
        assert [int(e["id"]) for e in resumed] == [4, 5, 6]
        assert [json.loads(e["data"])["data"]["text"] for e in resumed] == ["two", "three", "four"]


def test_a_following_client_is_woken_by_a_new_append(api, live_server):
    import threading

    import httpx

    campaign = api.new_campaign(GAME)
    with httpx.Client(base_url=live_server, timeout=10) as client:
        with client.stream(
            "GET", f"/v1/campaigns/{campaign.id}/stream", params={"after": 2}, headers=campaign.headers
        ) as response:
            # Append once the stream is open and waiting; the wake-up comes well before the heartbeat.
            threading.Timer(0.3, lambda: api.append(campaign, [note("live")])).start()
            (event,) = read_sse(response, 1)
    assert int(event["id"]) == 3 and json.loads(event["data"])["data"]["text"] == "live"


# -- export and import ------------------------------------------------------------------------------------------


def test_export_then_import_gives_the_same_state_and_history(api):
    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("a"), note("b")])
    api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json={"expression": "1d20", "faces": [17]}, headers=campaign.headers
    )
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    exported = api.client.get(f"/v1/campaigns/{campaign.id}/export", headers=campaign.headers)
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/x-ndjson")
    lines = exported.content.splitlines()
    assert len(lines) == 1 + 6
    imported = api.client.post(
        "/v1/campaigns/import", content=exported.content, headers={"content-type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    copy_headers = {"Authorization": f"Bearer {copy['token']}"}
    assert copy["position"] == 6 and copy["id"] != campaign.id
    original_state = api.get(campaign, "/state").json()
    copied_state = api.client.get(f"/v1/campaigns/{copy['id']}/state", headers=copy_headers).json()
    assert copied_state == original_state
    strip = lambda events: [{k: v for k, v in e.items()} for e in events]  # noqa: E731
    original_log = api.get(campaign, "/events").json()["events"]
    copied_log = api.client.get(f"/v1/campaigns/{copy['id']}/events", headers=copy_headers).json()["events"]
    assert strip(copied_log) == strip(original_log)


def test_an_import_with_a_tampered_line_is_refused_with_the_line_and_nothing_is_created(api, database_url):
    import psycopg

    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("the treasure is on Devil's Elbow")])
    lines = api.client.get(f"/v1/campaigns/{campaign.id}/export", headers=campaign.headers).content.splitlines()
    lines[3] = lines[3].replace(b"Devil's Elbow", b"Tidewater Rock")
    with psycopg.connect(database_url) as conn:
        before = conn.execute("SELECT count(*) FROM campaigns").fetchone()[0]
    answer = api.client.post("/v1/campaigns/import", content=b"\n".join(lines) + b"\n")
    assert answer.status_code == 422 and answer.json()["line"] == 4
    assert answer.json()["detail"].startswith("Line 4:") and "Nothing was imported" in answer.json()["detail"]
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM campaigns").fetchone()[0] == before


def test_an_import_whose_batch_is_split_by_another_is_refused_at_the_line_that_resumes_it(api):
    # The store reads a batch as the run of its id (undo, redo, a retried key), so an import may not split one.
    from quartermaster.service.application.export import EventRow, ExportHeader, export_lines

    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("a"), note("b")])
    api.append(campaign, [note("c")])
    lines = api.client.get(f"/v1/campaigns/{campaign.id}/export", headers=campaign.headers).content.splitlines()
    header = msgspec.json.decode(lines[0], type=ExportHeader)
    rows = [msgspec.json.decode(line, type=EventRow) for line in lines[1:]]
    assert [r.batch for r in rows[2:]] == [rows[2].batch, rows[2].batch, rows[4].batch]
    # Positions 3 and 5 in one batch, 4 in another: the two batches' second events swap batches.
    rows[3], rows[4] = (
        msgspec.structs.replace(rows[3], batch=rows[4].batch),
        msgspec.structs.replace(rows[4], batch=rows[2].batch),
    )
    answer = api.client.post("/v1/campaigns/import", content=b"".join(export_lines(header, rows)))
    assert answer.status_code == 422 and answer.json()["line"] == 6, answer.text
    assert "a batch's events follow each other" in answer.json()["detail"]


def test_an_import_that_is_not_an_export_is_refused_at_line_1(api):
    answer = api.client.post("/v1/campaigns/import", content=b"hello\n")
    assert answer.status_code == 422 and answer.json()["line"] == 1


# -- verify and rebuild -----------------------------------------------------------------------------------------


def test_verify_finds_no_drift_and_rebuild_restores_a_damaged_projection(api, database_url, capsys):
    import psycopg

    from quartermaster.service.cli import main

    campaign = api.new_campaign(GAME)
    api.append(campaign, [note("a")])
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    cli = ["--campaign", campaign.id, "--quiet", "--database-url", database_url]
    assert main(["verify", *cli]) == 0
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE projections SET position = 1 WHERE campaign_id = %s", (campaign.id,))
    assert main(["verify", *cli]) == 1
    assert "differs from the fold of the log" in capsys.readouterr().out
    assert main(["rebuild", *cli]) == 0
    assert main(["verify", *cli]) == 0
