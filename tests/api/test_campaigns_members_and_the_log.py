"""The foundation's HTTP API: campaigns, members, tokens, appending and reading the log, bad input."""

from __future__ import annotations

import uuid

import pytest

NOTE = {"type": "note.added", "data": {"text": "We misread the Raker Shoals rule here."}}


def positions(api, campaign) -> list[int]:
    answer = api.get(campaign, "/events", limit=1000)
    assert answer.status_code == 200, answer.text
    return [e["position"] for e in answer.json()["events"]]


def test_creating_a_campaign_answers_the_owner_token_once_and_records_its_start(api):
    campaign = api.new_campaign(name="Wormwood")
    summary = api.get(campaign, "")
    assert summary.status_code == 200
    body = summary.json()
    assert body["name"] == "Wormwood" and body["game"] == "pacg-skull-and-shackles" and body["position"] == 2
    assert [(m["name"], m["role"]) for m in body["members"]] == [("Owner", "owner")]
    assert "token" not in summary.text
    log = api.get(campaign, "/events").json()["events"]
    assert [e["type"] for e in log] == ["campaign.started", "member.joined"]
    assert log[1]["data"] == {"member_id": campaign.member_id, "name": "Owner", "role": "owner"}
    assert campaign.token not in str(log)


def test_appending_a_note_records_it_with_its_envelope(api):
    campaign = api.new_campaign()
    answer = api.append(campaign, [{**NOTE, "occurred_at": "2026-11-29T20:15:00Z"}], expected_position=2)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (body["first_position"], body["last_position"]) == (3, 3)
    event = body["events"][0]
    assert event["type"] == "note.added" and event["data"] == NOTE["data"]
    assert event["actor"] == campaign.member_id and event["batch"] == body["batch"]
    assert event["occurred_at"].startswith("2026-11-29T20:15:00") and event["recorded_at"]


def test_a_stale_expected_position_is_refused_with_409_and_the_current_position(api):
    campaign = api.new_campaign()
    answer = api.append(campaign, [NOTE], expected_position=1)
    assert answer.status_code == 409
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["position"] == 2
    assert "you expected position 1, but the campaign is at 2" in answer.json()["detail"]
    assert positions(api, campaign) == [1, 2]


def test_a_retried_batch_answers_the_recorded_events_and_writes_nothing(api):
    campaign = api.new_campaign()
    batch = [{**NOTE, "id": str(uuid.uuid4())}, {**NOTE, "id": str(uuid.uuid4())}]
    first = api.append(campaign, batch)
    again = api.append(campaign, batch)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["events"] == first.json()["events"]
    assert positions(api, campaign) == [1, 2, 3, 4]


def test_history_pages_by_position_and_filters_by_type(api):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE] * 5)
    first = api.get(campaign, "/events", limit=3).json()
    assert [e["position"] for e in first["events"]] == [1, 2, 3] and first["next"] == 3
    second = api.get(campaign, "/events", after=3, limit=3).json()
    assert [e["position"] for e in second["events"]] == [4, 5, 6] and second["next"] == 6
    last = api.get(campaign, "/events", after=6, limit=3).json()
    assert [e["position"] for e in last["events"]] == [7] and last["next"] is None
    notes = api.get(campaign, "/events", type="note.added").json()["events"]
    assert {e["type"] for e in notes} == {"note.added"} and len(notes) == 5


def test_history_filters_by_member(api):
    campaign = api.new_campaign()
    player = api.add_member(campaign, "player", "Anne")
    api.append(campaign, [NOTE], token=player)
    api.append(campaign, [NOTE])
    player_id = api.get(campaign, "").json()["members"][1]["member_id"]
    mine = api.get(campaign, "/events", member=player_id).json()["events"]
    assert [e["position"] for e in mine] == [4]


# -- authorisation ----------------------------------------------------------------------------------------------

MERISIEL = {"type": "character.joined", "data": {"character_id": "merisiel", "player": "Anne"}}

# Every endpoint that needs a token: (method, path under the campaign, body, what it takes).
ENDPOINTS = {
    "read campaign": ("GET", "", None, "read"),
    "read events": ("GET", "/events", None, "read"),
    "read state": ("GET", "/state", None, "read"),
    "read a named view": ("GET", "/views/vault", None, "read"),
    "read a character": ("GET", "/characters/merisiel", None, "read"),
    "read the fleet": ("GET", "/fleet", None, "read"),
    "read the vault": ("GET", "/vault", None, "read"),
    "read the scenario": ("GET", "/scenario", None, "read"),
    "read dice statistics": ("GET", "/stats/dice", None, "read"),
    "export": ("GET", "/export", None, "read"),
    "append": ("POST", "/events", {"events": [NOTE]}, "write"),
    "roll": ("POST", "/rolls", {"expression": "1d6"}, "write"),
    "undo": ("POST", "/undo", {}, "write"),
    "redo": ("POST", "/redo", {}, "write"),
    "add member": ("POST", "/members", {"name": "Jack", "role": "player"}, "own"),
}
SUCCESS = {"GET": 200, "POST": 201}

# What each kind of caller may do.
ALLOWED = {"owner": {"read", "write", "own"}, "player": {"read", "write"}, "viewer": {"read"}, "display": {"read"}}


def expected(caller: str, endpoint: str) -> int:
    method, _, _, takes = ENDPOINTS[endpoint]
    if caller in ("no token", "bad token"):
        return 401
    if caller == "another campaign's owner":
        return 404
    return SUCCESS[method] if takes in ALLOWED[caller] else 403


CALLERS = ["owner", "player", "viewer", "display", "no token", "bad token", "another campaign's owner"]


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_authorisation_matrix(api, caller, endpoint):
    campaign = api.new_campaign()
    player = api.add_member(campaign, "player", "Anne")
    tokens = {
        "owner": campaign.token,
        "player": player,
        "viewer": api.add_member(campaign, "viewer"),
        "display": api.add_member(campaign, "display"),
        "no token": None,
        "bad token": f"qm_{uuid.uuid4().hex}_not-a-real-secret",
        "another campaign's owner": api.new_campaign().token,
    }
    # The player's own batch last, so a player may undo it; for redo, the player has undone it already.
    assert api.append(campaign, [MERISIEL], token=player).status_code == 201
    if endpoint == "redo":
        assert (
            api.client.post(
                f"/v1/campaigns/{campaign.id}/undo", headers={"Authorization": f"Bearer {player}"}
            ).status_code
            == 201
        )
    method, path, body, _ = ENDPOINTS[endpoint]
    auth = {"Authorization": f"Bearer {tokens[caller]}"} if tokens[caller] else {}
    before = api.get(campaign, "").json()["position"]
    answer = api.client.request(method, f"/v1/campaigns/{campaign.id}{path}", json=body, headers=auth)
    assert answer.status_code == expected(caller, endpoint), answer.text
    if answer.status_code >= 400:
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert answer.json()["detail"]
        assert api.get(campaign, "").json()["position"] == before  # nothing was written


def test_a_token_already_used_on_its_own_campaign_is_still_refused_on_another(api):
    ours, theirs = api.new_campaign(), api.new_campaign()
    assert api.append(theirs, [MERISIEL]).status_code == 201  # their token, matched once and kept
    before = api.get(ours, "").json()["position"]

    answer = api.client.post(
        f"/v1/campaigns/{ours.id}/events",
        json={"events": [MERISIEL]},
        headers={"Authorization": f"Bearer {theirs.token}"},
    )

    assert answer.status_code == 404, answer.text
    assert api.get(ours, "").json()["position"] == before


@pytest.mark.parametrize(
    ("caller", "status"), [("no token", 401), ("bad token", 401), ("another campaign's owner", 404)]
)
def test_the_live_stream_refuses_callers_without_a_token_of_the_campaign(api, caller, status):
    campaign = api.new_campaign()
    tokens = {
        "no token": None,
        "bad token": f"qm_{uuid.uuid4().hex}_nope",
        "another campaign's owner": api.new_campaign().token,
    }
    auth = {"Authorization": f"Bearer {tokens[caller]}"} if tokens[caller] else {}
    answer = api.client.get(f"/v1/campaigns/{campaign.id}/stream", headers=auth)
    assert answer.status_code == status and answer.json()["detail"]


def test_the_public_endpoints_need_no_token(api):
    assert api.client.get("/v1/catalog/pacg-skull-and-shackles").status_code == 200
    assert api.client.get("/v1/catalog/skull-tales-full-sail").status_code == 200
    unknown = api.client.get("/v1/catalog/monopoly")
    assert unknown.status_code == 404 and "does not know the game 'monopoly'" in unknown.json()["detail"]


def test_a_campaign_that_does_not_exist_answers_exactly_like_a_foreign_one(api):
    mine = api.new_campaign()
    other = api.new_campaign()
    missing = str(uuid.uuid4())
    foreign = api.client.get(f"/v1/campaigns/{other.id}", headers=mine.headers)
    absent = api.client.get(f"/v1/campaigns/{missing}", headers=mine.headers)
    assert foreign.status_code == absent.status_code == 404
    assert foreign.json()["detail"].replace(other.id, "X") == absent.json()["detail"].replace(missing, "X")


def test_tokens_are_stored_only_as_hashes(api, database_url):
    import psycopg

    campaign = api.new_campaign()
    with psycopg.connect(database_url) as conn:
        stored = conn.execute("SELECT token_hash FROM members WHERE campaign_id = %s", (campaign.id,)).fetchone()[0]
    secret = campaign.token.rsplit("_", 1)[1]
    assert secret.encode() not in bytes(stored) and len(bytes(stored)) == 32


# -- bad input: a clear answer, and nothing written --------------------------------------------------------------

BAD_APPENDS = [
    ("malformed JSON", b'{"events": [', 400, "not valid JSON"),
    ("empty body", b"", 400, "no body"),
    ("events missing", b"{}", 422, "The request needs the events."),
    ("events not a list", b'{"events": 3}', 422, "The events must be a list, not a whole number."),
    ("empty batch", b'{"events": []}', 422, "The events must have at least 1 entry."),
    (
        "expected_position a string",
        b'{"events": [{"type": "note.added", "data": {"text": "x"}}], "expected_position": "2"}',
        422,
        "The expected position must be a whole number, not a name or text.",
    ),
    (
        "negative expected_position",
        b'{"events": [{"type": "note.added", "data": {"text": "x"}}], "expected_position": -1}',
        422,
        "The expected position must be at least 0.",
    ),
    (
        "unknown field",
        b'{"events": [{"type": "note.added", "data": {"text": "x"}}], "evnts": 1}',
        422,
        "The request has no field evnts; did you mean events?",
    ),
    (
        "unknown event type",
        b'{"events": [{"type": "kraken.summoned", "data": {}}]}',
        422,
        "This game has no event called 'kraken.summoned'.",
    ),
    (
        "missing data field",
        b'{"events": [{"type": "note.added", "data": {}}]}',
        422,
        "This entry needs the text. Nothing was written.",
    ),
    (
        "wrong data type",
        b'{"events": [{"type": "note.added", "data": {"text": 5}}]}',
        422,
        "The text must be a name or text, not a whole number.",
    ),
    (
        "note too long",
        b'{"events": [{"type": "note.added", "data": {"text": "' + b"x" * 5000 + b'"}}]}',
        422,
        "The text must have at most 4000 characters.",
    ),
    (
        "bad event id",
        b'{"events": [{"id": "nope", "type": "note.added", "data": {"text": "x"}}]}',
        422,
        "The id of events, entry 1 is not an event id.",
    ),
    (
        "reserved type",
        b'{"events": [{"type": "campaign.started", "data": {"name": "x", "game": "y"}}]}',
        422,
        "a campaign starts when it is created",
    ),
    ("undo marker", b'{"events": [{"type": "event.undone", "data": {"targets": [1]}}]}', 422, "undo through POST"),
    (
        "one good one bad",
        b'{"events": [{"type": "note.added", "data": {"text": "fine"}}, {"type": "note.added", "data": {}}]}',
        422,
        "Entry 2: This entry needs the text. Nothing was written.",
    ),
    (
        "body over the limit",
        b'{"events": [{"type": "note.added", "data": {"text": "' + b"x" * 300_000 + b'"}}]}',
        413,
        "larger than this server accepts",
    ),
]


@pytest.mark.parametrize(("case", "body", "status", "says"), BAD_APPENDS, ids=[c[0] for c in BAD_APPENDS])
def test_bad_appends_get_a_clear_problem_and_write_nothing(api, case, body, status, says):
    campaign = api.new_campaign()
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/events",
        content=body,
        headers={**campaign.headers, "content-type": "application/json"},
    )
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    problem = answer.json()
    assert says in problem["detail"] + str(problem.get("errors", "")), problem
    assert problem["status"] == status and problem["title"]
    assert positions(api, campaign) == [1, 2]


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"limit": 0}, "`limit` must be between 1 and 1000; 0 is not."),
        ({"limit": 5000}, "`limit` must be between 1 and 1000; 5000 is not."),
        ({"after": -4}, "`after` must be a position, 0 or more; -4 is not."),
        ({"after": "abc"}, "`after`"),
        ({"limit": "ten"}, "`limit`"),
    ],
)
def test_bad_history_cursors_get_a_clear_problem(api, params, says):
    campaign = api.new_campaign()
    answer = api.get(campaign, "/events", **params)
    assert answer.status_code in (400, 422), answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert says in answer.json()["detail"]


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"name": "x", "game": "monopoly"}, 422, "does not know the game 'monopoly'"),
        ({"game": "pacg-skull-and-shackles"}, 422, "The request needs the name."),
        ({"name": "", "game": "pacg-skull-and-shackles"}, 422, "The name must have at least 1 character."),
    ],
)
def test_bad_campaigns_are_refused_and_nothing_is_created(api, database_url, body, status, says):
    import psycopg

    with psycopg.connect(database_url) as conn:
        before = conn.execute("SELECT count(*) FROM campaigns").fetchone()[0]
    answer = api.client.post("/v1/campaigns", json=body)
    assert answer.status_code == status and says in answer.json()["detail"], answer.text
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM campaigns").fetchone()[0] == before


def test_adding_a_member_with_an_unknown_role_is_refused(api):
    campaign = api.new_campaign()
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/members", json={"name": "Jack", "role": "captain"}, headers=campaign.headers
    )
    assert (
        answer.status_code == 422
        and "The role cannot be 'captain'. Choose one of: display, owner, player, viewer." == answer.json()["detail"]
    )
    assert len(api.get(campaign, "").json()["members"]) == 1


def test_health_and_readiness(api):
    assert api.client.get("/healthz").json() == {"status": "ok"}
    assert api.client.get("/readyz").json() == {"status": "ready"}


def test_unknown_paths_answer_problem_json(api):
    answer = api.client.get("/v1/nowhere")
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert "There is nothing at /v1/nowhere" in answer.json()["detail"]


def test_the_openapi_document_is_served(api):
    answer = api.client.get("/schema/openapi.json")
    assert answer.status_code == 200
    paths = answer.json()["paths"]
    schemas = answer.json()["components"]["schemas"]
    append = paths["/v1/campaigns/{campaign}/events"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    for branch in append["anyOf"]:  # one batch per game
        batch = schemas[branch["$ref"].rsplit("/", 1)[1]]
        assert batch["required"] == ["events"] and "expected_position" in batch["properties"]
    for path in (
        "/v1/campaigns",
        "/v1/campaigns/{campaign}/members",
        "/v1/campaigns/{campaign}/undo",
        "/v1/campaigns/{campaign}/redo",
        "/v1/campaigns/{campaign}/rolls",
    ):
        body = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert schemas[body["$ref"].rsplit("/", 1)[1]]["properties"], path


def test_an_append_answers_each_event_as_the_log_reads_it_back_on_the_fast_path_and_the_locking_path(api):
    note = {"type": "note.added", "data": {"text": "As the log reads it."}}
    campaign = api.new_campaign()
    assert api.append(campaign, [note]).status_code == 201  # the campaign's state is now this process's: fast path
    fast = api.append(campaign, [note]).json()["events"][0]
    # An Idempotency-Key sends an append down the locking path (psycopg's pipeline, under the campaign's write lock).
    locked = api.client.post(
        f"/v1/campaigns/{campaign.id}/events",
        json={"events": [note]},
        headers={**campaign.headers, "Idempotency-Key": str(uuid.uuid4())},
    ).json()["events"][0]

    logged = {e["position"]: e for e in api.get(campaign, "/events", after=fast["position"] - 1).json()["events"]}

    for answered in (fast, locked):
        read = logged[answered["position"]]
        assert {k: read[k] for k in answered} == answered
