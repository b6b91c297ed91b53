"""The fast lane answers what the app Litestar's documentation builds answers (`both_ways`: the same request to an
app with the lane and one without, on one database): the routes it calls directly (service.fastlane.direct) every
status, problem body and header, for each way a request can go wrong, and for an append or a roll sent again; and
the Front's routing (service.fastlane.front), for a request of every route family, both games, and the answers the
router gives itself."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from litestar import Request, Response, post
from litestar.middleware import DefineMiddleware
from litestar.middleware._internal.exceptions.middleware import ExceptionHandlerMiddleware
from litestar.plugins.prometheus import PrometheusMiddleware
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.http.auth import Asking, CampaignId, EventStore, may
from quartermaster.service.http.fastlane.direct import DIRECT, Direct, callable_directly
from quartermaster.service.http.fastlane.front import Front

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


def test_the_app_without_the_lane_is_litestars_own_handler_and_middleware(lanes):
    on, off = lanes.on.app, lanes.off.app
    # Each inside the layer that serves HEAD (service/http/conventions.py).
    assert isinstance(on.asgi_handler.app, Front) and not on.middleware and not on.before_send
    assert type(off.asgi_handler.app) is ExceptionHandlerMiddleware and off.asgi_handler.app.app is off.asgi_router
    assert [m.middleware for m in off.middleware if isinstance(m, DefineMiddleware)] == [PrometheusMiddleware]


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


# -- the Front's routing, for a request of every route family ------------------------------------------------------
# Each request goes to the app with the lane and to the app without it, one after the other on the same database, and
# both answers must be the same: status, body and every header but the date and the request id. Left out: /metrics,
# whose counts move with every request, and the live stream, which does not end (tests/api/test_history_api.py reads
# it). A write answers with its own batch, positions and ids, so two writes are held to the same kind of answer.

SS, ST = "pacg-skull-and-shackles", "skull-tales-full-sail"
# What the scene sends once, so that sending it again is a retry.
FIRST = ("an append", "a roll by the server", "a roll at the table", "an undo")


@pytest.fixture(scope="module")
def scene(api: Any) -> dict[str, Any]:
    """A campaign of each game with an event logged, a viewer, and a batch, a roll of each kind and an undo already
    sent with their keys (a retry of each is answered from the log)."""
    ss, st = api.new_campaign(SS), api.new_campaign(ST)
    for campaign in (ss, st):
        assert api.append(campaign, [NOTE, NOTE]).status_code == 201
    keys = {name: str(uuid.uuid4()) for name in ("event", "server roll", "table roll", "undo")}
    first = {
        "an append": ("events", {"events": [{**NOTE, "id": keys["event"]}]}, {}),
        "a roll by the server": ("rolls", {"expression": "2d6+1"}, {"Idempotency-Key": keys["server roll"]}),
        "a roll at the table": (
            "rolls",
            {"expression": "2d6>4", "faces": [5, 2]},
            {"Idempotency-Key": keys["table roll"]},
        ),
        "an undo": ("undo", {}, {"Idempotency-Key": keys["undo"]}),
    }
    assert tuple(first) == FIRST
    for route, body, headers in first.values():
        sent = api.client.post(f"/v1/campaigns/{ss.id}/{route}", json=body, headers={**ss.headers, **headers})
        assert sent.status_code == 201, sent.text
    return {"ss": ss, "st": st, "viewer": api.add_member(ss, "viewer"), "first": first}


def _campaign(scene: dict[str, Any], game: str) -> Any:
    return scene["ss"] if game == SS else scene["st"]


def _reads(game: str) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """(method, path under the campaign, request) of what a member reads, for a campaign of this game."""
    views = ("fleet", "vault", "scenario") if game == SS else ("pirates", "ship", "chapter")
    return {
        "the campaign": ("GET", "", {}),
        "the log": ("GET", "/events", {"params": {"limit": 5}}),
        "the log of one type": ("GET", "/events", {"params": {"type": "note.added"}}),
        "a cursor the log refuses": ("GET", "/events", {"params": {"after": -1}}),
        "the state": ("GET", "/state", {}),
        "the state at a position": ("GET", "/state", {"params": {"at": 2}}),
        **{f"the {view}": ("GET", f"/{view}", {}) for view in views},
        "a view of no such name": ("GET", "/views/nothing", {}),
        "the dice": ("GET", "/stats/dice", {}),
        "the export": ("GET", "/export", {}),
        "the scenarios played": ("GET", "/scenarios", {}),
        "the recap": ("GET", "/recap", {}),
        "the report of an episode not played": ("GET", "/report", {"params": {"scenario": "99"}}),
        "a diff of two positions": ("GET", "/diff", {"params": {"from": 1, "to": 2}}),
        "the table page": ("GET", "PAGE", {}),
    }


READS = [(game, name) for game in (SS, ST) for name in _reads(game)]


@pytest.mark.parametrize(("game", "name"), READS, ids=[f"{g.split('-')[0]}: {n}" for g, n in READS])
def test_a_read_of_every_family_answers_the_same_both_ways(lanes, scene, game, name):
    method, path, request = _reads(game)[name]
    campaign = _campaign(scene, game)
    where = f"/c/{campaign.id}" if path == "PAGE" else f"/v1/campaigns/{campaign.id}{path}"
    first, second = both_ways(lanes, where, method, headers=campaign.headers, **request)
    if name == "the export":  # it says when it was exported, and its hash chain starts there: the rest agrees
        same_answer(*(_without_export_time(a) for a in (first, second)), unique=UNIQUE | {"content-length"})
        return
    same_answer(first, second)


def _without_export_time(answer: Any) -> Any:
    lines = [json.loads(line) for line in answer.content.splitlines()]
    assert lines[0].pop("exported_at") and all(line.pop("hash") for line in lines)  # the chain starts at the time
    for line in lines[1:]:
        assert line.pop("prev")
    return SimpleNamespace(status_code=answer.status_code, text=answer.text, content=lines, headers=answer.headers)


# (method, path, request) of what anyone may ask, and of the answers the router gives itself.
ANYONE: dict[str, tuple[str, str, dict[str, Any]]] = {
    "liveness": ("GET", "/healthz", {}),
    "readiness": ("GET", "/readyz", {}),
    "the games": ("GET", "/v1/games", {}),
    "Skull & Shackles' event types": ("GET", f"/v1/games/{SS}/event-types", {}),
    "Skull Tales' event types": ("GET", f"/v1/games/{ST}/event-types", {}),
    "Skull & Shackles' catalogue": ("GET", f"/v1/catalog/{SS}", {}),
    "Skull Tales' catalogue": ("GET", f"/v1/catalog/{ST}", {}),
    "a game of no such name": ("GET", "/v1/catalog/chess", {}),
    "the home page": ("GET", "/", {}),
    "the join page": ("GET", "/join", {}),
    "the service worker": ("GET", "/sw.js", {}),
    "a module of the page": ("GET", "/static/app.js", {}),
    "a module of the page, HEAD": ("HEAD", "/static/app.js", {}),
    "the page's style": ("GET", "/static/style.css", {}),
    "a static file that is not there": ("GET", "/static/nothing.js", {}),
    "the session of a browser that has none": ("GET", "/session", {}),
    "the page's addresses": ("GET", "/page/addresses", {}),
    "the API document": ("GET", "/schema/openapi.json", {}),
    "the API documentation page": ("GET", "/schema", {}),
    "a page of the documentation that is not there": ("GET", "/schema/nothing", {}),
    "an unknown path": ("GET", "/v1/nowhere", {}),
    "an unknown path under a campaign": ("GET", f"/v1/campaigns/{uuid.uuid4()}/nowhere", {}),
    "a campaign that is not there": ("GET", f"/v1/campaigns/{uuid.uuid4()}", {}),
    "a trailing slash": ("GET", "/healthz/", {}),
    "a wrong method": ("DELETE", "/healthz", {}),
    "a method HTTP does not define": ("BREW", "/healthz", {}),
    "HEAD on a route that only GETs": ("HEAD", "/healthz", {}),
    "OPTIONS": ("OPTIONS", "/healthz", {}),
    "an invalid Host": ("GET", "/healthz", {"headers": {"host": "bad host/with a space"}}),
    "a NUL in the query": ("GET", "/healthz", {"params": {"x": "\x00"}}),
    "a NUL in a path no route takes": ("GET", "/v1/no%00where", {}),
    "a NUL in an address with an invalid Host": ("GET", "/v1/no%00where", {"headers": {"host": "bad host"}}),
    "a caller's own request id": ("GET", "/healthz", {"headers": {"x-request-id": "proxy-7f3a.42"}}),
    "bad JSON to start a campaign": ("POST", "/v1/campaigns", {"content": b"{not json"}),
    "a campaign of no such game": ("POST", "/v1/campaigns", {"json": {"name": "Chess", "game": "chess"}}),
}


@pytest.mark.parametrize("name", ANYONE)
def test_what_anyone_may_ask_and_what_the_router_answers_itself_answer_the_same_both_ways(lanes, name):
    method, path, request = ANYONE[name]
    first, second = both_ways(lanes, path, method, **request)
    # A caller's own id comes back both ways.
    same_answer(first, second, unique={"date"} if name == "a caller's own request id" else UNIQUE)
    assert first.headers["x-content-type-options"] == "nosniff"
    assert ("x-frame-options" in first.headers) is path.startswith("/schema")


def _member_asks(scene: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    ss, viewer = scene["ss"], scene["viewer"]
    cookie = {"Cookie": f"qm_{uuid.UUID(ss.id).hex}={ss.token}"}
    return {
        "no token": ("GET", "/events", {}),
        "a viewer's append": ("POST", "/events", {"json": {"events": [NOTE]}, "headers": bearer(viewer)}),
        "a viewer's roll": ("POST", "/rolls", {"json": {"expression": "1d6"}, "headers": bearer(viewer)}),
        "a viewer's undo": ("POST", "/undo", {"json": {}, "headers": bearer(viewer)}),
        "bad JSON": ("POST", "/events", {"content": b'{"events": [', "headers": ss.headers}),
        "bad JSON to roll": ("POST", "/rolls", {"content": b"{", "headers": ss.headers}),
        "an event the rules refuse": ("POST", "/events", {"json": {"events": [REFUSED]}, "headers": ss.headers}),
        "a stale position": (
            "POST",
            "/events",
            {"json": {"events": [NOTE], "expected_position": 1}, "headers": ss.headers},
        ),
        "a page read with its cookie": ("GET", "/events", {"headers": cookie}),
        "a page write without its header": ("POST", "/events", {"json": {"events": [NOTE]}, "headers": cookie}),
        "a wrong method on a campaign's route": ("PUT", "/events", {"headers": ss.headers}),
        **{
            f"{name}, sent again": ("POST", f"/{route}", {"json": body, "headers": {**ss.headers, **headers}})
            for name, (route, body, headers) in scene["first"].items()
        },
    }


def _names(asks: Any) -> list[str]:
    """The names of the requests a builder makes, read off a scene of stand-ins."""
    stand_in = SimpleNamespace(id=str(uuid.UUID(int=0)), token="", headers={})
    return list(asks({"ss": stand_in, "st": stand_in, "viewer": "", "first": dict.fromkeys(FIRST, ("", {}, {}))}))


MEMBER_ASKS = _names(_member_asks)


@pytest.mark.parametrize("name", MEMBER_ASKS)
def test_a_problem_and_a_retry_answer_the_same_both_ways(lanes, scene, name):
    method, path, request = _member_asks(scene)[name]
    first, second = both_ways(lanes, f"/v1/campaigns/{scene['ss'].id}{path}", method, **request)
    same_answer(first, second)
    if name.endswith("sent again"):
        assert first.status_code == 200, first.text  # answered from the log: nothing written either time


def _writes(scene: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    ss, st = scene["ss"], scene["st"]
    return {
        "an append to Skull & Shackles": (f"{ss.id}/events", {"json": {"events": [NOTE]}, "headers": ss.headers}),
        "an append to Skull Tales": (f"{st.id}/events", {"json": {"events": [NOTE]}, "headers": st.headers}),
        "a roll by the server": (f"{ss.id}/rolls", {"json": {"expression": "1d8+1d4"}, "headers": ss.headers}),
        "a roll at the table": (f"{ss.id}/rolls", {"json": {"expression": "1d6", "faces": [4]}, "headers": ss.headers}),
        "a Skull Tales pool by the server": (
            f"{st.id}/rolls",
            {"json": {"expression": "4d6>4", "required": 2}, "headers": st.headers},
        ),
        "a Skull Tales pool at the table": (
            f"{st.id}/rolls",
            {"json": {"expression": "3d6>4", "faces": [5, 6, 1], "required": 2}, "headers": st.headers},
        ),
        "an undo": (f"{st.id}/undo", {"json": {}, "headers": st.headers}),
        "a new member": (f"{ss.id}/members", {"json": {"name": "Jack", "role": "player"}, "headers": ss.headers}),
        "a new campaign": ("", {"json": {"name": "Another voyage", "game": SS}}),
    }


WRITES = _names(_writes)


@pytest.mark.parametrize("name", WRITES)
def test_a_write_answers_in_kind_both_ways(lanes, scene, name):
    path, request = _writes(scene)[name]
    first, second = both_ways(lanes, f"/v1/campaigns/{path}".rstrip("/"), **request)
    same_kind_of_answer(first, second)
    assert first.status_code == 201, first.text
