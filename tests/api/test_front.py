"""service/http/fastlane/front.py routes each request once and calls the route as Litestar's router would: the same
answers, the same refusals, through the same exception handlers. With the lane off, the app's handler is Litestar's
own, and these answers are its router's."""

from __future__ import annotations

from litestar.middleware._internal.exceptions.middleware import ExceptionHandlerMiddleware

from quartermaster.service.http.fastlane.front import Front

NOTE = {"type": "note.added", "data": {"text": "Routed once."}}


def test_the_app_routes_each_request_itself_rather_than_through_the_router_again(api, app_settings):
    front = api.client.app.asgi_handler.app  # inside the layer that serves HEAD (service/http/conventions.py)
    if not app_settings.fast_lane:  # Litestar's own handler, left alone: its router inside its exception middleware
        assert type(front) is ExceptionHandlerMiddleware and front.app is api.client.app.asgi_router
        return
    assert isinstance(front, Front)
    assert front.routes_itself  # Litestar's handler is still its router inside the exception middleware, nothing else


def test_a_request_routed_by_front_reaches_its_handler_with_the_path_parameters(api):
    campaign = api.new_campaign()

    answer = api.append(campaign, [NOTE])

    assert answer.status_code == 201, answer.text
    assert api.get(campaign, "").json()["id"] == campaign.id


def test_a_problem_raised_in_a_route_front_called_is_answered_by_the_app_exception_handlers(api):
    campaign = api.new_campaign()

    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/events", content=b"{not json", headers={**campaign.headers, "x-request-id": "abc"}
    )

    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["detail"]


def test_a_host_header_the_router_refuses_is_still_refused(api):
    answer = api.client.get("/healthz", headers={"host": "bad host/with a space"})

    assert answer.status_code == 400, answer.text


def test_an_address_no_route_takes_is_still_404_and_a_wrong_method_405(api):
    assert api.client.get("/v1/no-such-thing").status_code == 404
    assert api.client.delete("/healthz").status_code == 405
