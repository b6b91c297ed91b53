"""The fast lane answers what the app Litestar's documentation builds answers (`both_ways`: the same request to an
app with the lane and one without, on one database): the routes it calls directly (service.fastlane.direct) every
status, problem body and header, for each way a request can go wrong, and for an append or a roll sent again; and
the Front's routing (service.fastlane.front), for a request of every route family, both games, and the answers the
router gives itself."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

import pytest
from litestar import Request, Response, post
from litestar.testing import TestClient

from service.app import create_app
from service.auth import Asking, CampaignId, EventStore, may
from service.fastlane.direct import DIRECT, Direct, callable_directly

NOTE = {"type": "note.added", "data": {"text": "The Wormwood sails at dawn."}}
REFUSED = {  # the fold refuses it: nobody of that name is at the table
    "type": "card.moved",
    "data": {
        "card": "Pistol",
        "verb": "discard",
        "from": {"zone": "hand", "character_id": "nobody"},
        "to": {"zone": "discard", "character_id": "nobody"},
    },
}


def direct_of(client: TestClient, path: str) -> Direct:
    found = client.app.asgi_router.handle_routing(path=path, method="POST")[0]
    assert isinstance(found, Direct) and found.direct is not False
    return found


def both_ways(lanes: Any, path: str, method: str = "POST", **request: Any) -> tuple[Any, Any]:
    """The same request to the app with the fast lane, then to the app without it (Litestar's dependency injection,
    its router, its middleware), on the same database."""
    return lanes.on.request(method, path, **request), lanes.off.request(method, path, **request)


UNIQUE = {"x-request-id", "date"}


def same_answer(first: Any, second: Any, unique: set[str] = UNIQUE) -> None:
    assert first.status_code == second.status_code, (first.text, second.text)
    assert first.content == second.content
    assert [(k, v) for k, v in first.headers.multi_items() if k not in unique] == [
        (k, v) for k, v in second.headers.multi_items() if k not in unique
    ]


def same_kind_of_answer(first: Any, second: Any) -> None:
    """Two answers of two writes (each its own batch, position and ids): the same status, fields and headers."""
    assert first.status_code == second.status_code, (first.text, second.text)
    assert set(first.json()) == set(second.json())
    # The bodies differ (a batch id, a position), so their lengths may: every other header is the same.
    unique = UNIQUE | {"content-length"}
    assert [(k, v) for k, v in first.headers.multi_items() if k not in unique] == [
        (k, v) for k, v in second.headers.multi_items() if k not in unique
    ]
    assert [int(a.headers["content-length"]) for a in (first, second)] == [len(a.content) for a in (first, second)]


@pytest.fixture
def table(api: Any) -> dict[str, Any]:
    campaign = api.new_campaign()
    viewer = api.add_member(campaign, "viewer")
    other = api.new_campaign()
    return {"campaign": campaign, "viewer": viewer, "stranger": other.token, "event_id": uuid.uuid4()}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def owner(t: dict[str, Any]) -> dict[str, str]:
    return bearer(t["campaign"].token)


# What goes wrong: the status it answers, and the request.
CASES = {
    "no token": (401, lambda t: {"json": {"events": [NOTE]}}),
    "a token never issued": (401, lambda t: {"json": {"events": [NOTE]}, "headers": bearer("qm_x_y")}),
    "another campaign's token": (404, lambda t: {"json": {"events": [NOTE]}, "headers": bearer(t["stranger"])}),
    "a viewer": (403, lambda t: {"json": {"events": [NOTE]}, "headers": bearer(t["viewer"])}),
    "a page write without its header": (
        403,
        lambda t: {
            "json": {"events": [NOTE]},
            "headers": {"Cookie": f"qm_{uuid.UUID(t['campaign'].id).hex}={t['campaign'].token}"},
        },
    ),
    "no body": (400, lambda t: {"content": b"", "headers": owner(t)}),
    "malformed JSON": (400, lambda t: {"content": b'{"events": [', "headers": owner(t)}),
    "the wrong shape": (422, lambda t: {"content": b'{"events": 3}', "headers": owner(t)}),
    "an unknown event type": (422, lambda t: {"json": {"events": [{"type": "note.add"}]}, "headers": owner(t)}),
    "an event the rules refuse": (422, lambda t: {"json": {"events": [REFUSED]}, "headers": owner(t)}),
    "a stale position": (409, lambda t: {"json": {"events": [NOTE], "expected_position": 0}, "headers": owner(t)}),
    "a body too large": (413, lambda t: {"content": b" " * (300 * 1024), "headers": owner(t)}),
    "a body longer than its content-length says": (
        413,
        lambda t: {"content": b" " * (300 * 1024), "headers": {**owner(t), "content-length": "20"}},
    ),
    "a content-length longer than any body may be": (
        413,
        lambda t: {"json": {"events": [NOTE]}, "headers": {**owner(t), "content-length": str(300 * 1024)}},
    ),
    "a content-length that is not a number": (
        400,
        lambda t: {"content": b'{"events": []}', "headers": {**owner(t), "content-length": "fourteen"}},
    ),
    "a batch sent again": (
        200,
        lambda t: {"json": {"events": [{**NOTE, "id": str(t["event_id"])}]}, "headers": owner(t)},
    ),
}


def test_the_lane_calls_the_append_and_the_roll_directly_and_the_app_without_it_does_not(lanes):
    path = f"/v1/campaigns/{uuid.uuid4()}/"
    for route in ("events", "rolls"):
        direct_of(lanes.on, path + route)
        assert not isinstance(lanes.off.app.asgi_router.handle_routing(path=path + route, method="POST")[0], Direct)


@pytest.mark.parametrize("case", CASES)
def test_an_append_answers_the_same_through_the_direct_call_as_through_litestars(api, lanes, table, case):
    status, request = CASES[case]
    path = f"/v1/campaigns/{table['campaign'].id}/events"
    if case == "a batch sent again":
        assert api.client.post(path, **request(table)).status_code == 201
    first, second = both_ways(lanes, path, **request(table))
    same_answer(first, second)
    assert first.status_code == status, first.text


@pytest.mark.parametrize(
    "campaign", ["not-a-uuid", "6f1c3c2e-6a8a-4a57-9d51-3f1b2f3e7a10"], ids=["not a uuid", "no such campaign"]
)
def test_an_append_to_a_campaign_that_is_not_there_answers_the_same_both_ways(lanes, table, campaign):
    first, second = both_ways(
        lanes, f"/v1/campaigns/{campaign}/events", json={"events": [NOTE]}, headers=table["campaign"].headers
    )
    same_answer(first, second)
    assert first.status_code == 404


@pytest.mark.parametrize(
    "body",
    [{"expression": "1d7x"}, {"expression": "2d6", "faces": [1]}, {"expression": "1d6", "purpose": ""}],
    ids=["a bad expression", "faces that do not fit", "an empty purpose"],
)
def test_a_refused_roll_answers_the_same_both_ways(lanes, table, body):
    first, second = both_ways(
        lanes, f"/v1/campaigns/{table['campaign'].id}/rolls", json=body, headers=table["campaign"].headers
    )
    same_answer(first, second)
    assert first.status_code == 422


def test_a_roll_sent_again_with_its_idempotency_key_answers_the_same_both_ways(api, lanes, table):
    path = f"/v1/campaigns/{table['campaign'].id}/rolls"
    headers = {**table["campaign"].headers, "Idempotency-Key": str(uuid.uuid4())}
    assert api.client.post(path, json={"expression": "2d6"}, headers=headers).status_code == 201
    first, second = both_ways(lanes, path, json={"expression": "2d6"}, headers=headers)
    same_answer(first, second)
    assert first.status_code == 200


def test_an_append_and_a_roll_succeed_with_the_same_headers_both_ways(lanes, table):
    for path, body in (("events", {"events": [NOTE]}), ("rolls", {"expression": "1d6"})):
        first, second = both_ways(
            lanes, f"/v1/campaigns/{table['campaign'].id}/{path}", json=body, headers=table["campaign"].headers
        )
        assert first.status_code == second.status_code == 201
        same_kind_of_answer(first, second)


def test_headers_are_found_whatever_the_case_their_names_were_sent_in(api, table):
    # The direct call reads the token and the body's length from the scope's list of headers, not through Headers.
    path = f"/v1/campaigns/{table['campaign'].id}/events"
    body = b'{"events": [{"type": "note.added", "data": {"text": "Aye."}}]}'
    headers = {"AUTHORIZATION": f"Bearer {table['campaign'].token}", "Content-Length": str(len(body))}
    answer = api.client.post(path, content=body, headers=headers)
    assert answer.status_code == 201, answer.text
    assert answer.json()["events"][0]["data"] == {"text": "Aye."}
    announced = api.client.post(path, content=body, headers={**headers, "Content-Length": str(300 * 1024)})
    assert announced.status_code == 413, announced.text  # refused for the length it announces, before reading


def test_a_route_whose_handler_takes_more_than_the_member_is_served_by_litestars_call(api):
    # Reading the log takes query parameters, which the direct call would leave out: it must not be used there.
    path = f"/v1/campaigns/{uuid.uuid4()}/events"
    router = api.client.app.asgi_router
    assert callable_directly(router.handle_routing(path=path, method="POST")[1])
    assert not callable_directly(router.handle_routing(path=path, method="GET")[1])


def test_an_answer_with_headers_of_its_route_keeps_them_through_the_direct_call(database_url, app_settings):
    # Only a bare JSON answer is sent by the direct call itself; one its route adds to goes through Litestar.
    @post(
        "/v1/campaigns/{campaign:str}/signals",
        middleware=[DIRECT],
        response_headers={"x-signal": "lantern"},
        opt=may("signal"),
    )
    async def signal(request: Request, store: EventStore, campaign_id: CampaignId, member: Asking) -> Response:
        return Response(b'{"seen":true}', status_code=201)

    app = create_app(replace(app_settings, fast_lane=True), database_url)
    app.register(signal)
    with TestClient(app) as client:
        campaign = client.post("/v1/campaigns", json={"name": "Signals", "game": "pacg-skull-and-shackles"}).json()
        answer = client.post(f"/v1/campaigns/{campaign['id']}/signals", headers=bearer(campaign["token"]))
        routed = app.asgi_router.handle_routing(path=f"/v1/campaigns/{campaign['id']}/signals", method="POST")[0]
    assert routed.direct is True and routed.plain is False
    assert answer.status_code == 201 and answer.json() == {"seen": True}
    assert answer.headers["x-signal"] == "lantern"


def test_a_route_with_a_request_class_of_its_own_is_served_by_litestars_call(database_url, app_settings):
    # The direct call makes its own request (DirectRequest), which would leave out the route's.
    class Lantern(Request):
        pass

    @post("/v1/campaigns/{campaign:str}/lanterns", middleware=[DIRECT], request_class=Lantern, opt=may("light"))
    async def light(request: Request, store: EventStore, campaign_id: CampaignId, member: Asking) -> Response:
        return Response(b'{"lit":true}', status_code=201)

    app = create_app(replace(app_settings, fast_lane=True), database_url)
    app.register(light)
    path = f"/v1/campaigns/{uuid.uuid4()}/"
    assert not callable_directly(app.asgi_router.handle_routing(path=path + "lanterns", method="POST")[1])
    assert callable_directly(app.asgi_router.handle_routing(path=path + "events", method="POST")[1])
