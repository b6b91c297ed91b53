"""The request metrics the fast lane counts in plain floats (service.fastlane.request_metrics.Requests) scrape exactly
as prometheus_client's own Counter, Histogram and Gauge (service.fastlane.request_metrics.Shared) do, given the same
requests."""

from __future__ import annotations

import time

import pytest
from prometheus_client import CollectorRegistry, generate_latest, metrics as prometheus_metrics
from prometheus_client.openmetrics.exposition import generate_latest as generate_openmetrics

from quartermaster.service.http.fastlane.request_metrics import Requests, Shared

EVENTS = "/v1/campaigns/{campaign}/events"
ROLLS = "/v1/campaigns/{campaign}/rolls"
# (method, path, status, seconds): statuses a route and no route give, an unexpected error, and times in the first
# bucket, on a bucket's bound, just past it, in a later bucket and past the last one.
ANSWERS = [
    ("POST", EVENTS, 201, 0.000412),
    ("GET", "unrouted", 404, 0.000051),
    ("POST", EVENTS, 201, 0.005),
    ("POST", ROLLS, 201, 0.0050000001),
    ("POST", EVENTS, 409, 0.3),
    ("GET", "/explode", 500, 0.07),
    ("POST", EVENTS, 201, 12.5),
    ("OTHER", "unrouted", 405, 0.0),
    ("GET", "/explode", 500, 2.5),
    ("POST", EVENTS, 503, 0.1),
]


def scrape(make: type[Requests] | type[Shared]) -> tuple[bytes, bytes]:
    registry = CollectorRegistry()
    if make is Requests:
        requests: Requests | Shared = Requests()
        registry.register(requests)
    else:
        requests = Shared(registry)
    for method, path, status, seconds in ANSWERS:
        requests.answered(requests.running(method, path), method, path, status, seconds)
    requests.running("POST", EVENTS)  # still being served when scraped
    return generate_latest(registry), generate_openmetrics(registry)


@pytest.mark.parametrize("created", [True, False], ids=["with created times", "without"])
def test_request_metrics_in_plain_floats_scrape_as_prometheus_clients_own(monkeypatch, created):
    monkeypatch.setattr(time, "time", lambda: 1_796_100_000.125)  # both take the time their label set was first seen
    monkeypatch.setattr(prometheus_metrics, "_use_created", created)
    plain, shared = scrape(Requests), scrape(Shared)
    assert plain == shared
    text = plain[0].decode()
    assert 'quartermaster_requests_in_progress{app_name="quartermaster",method="POST",path="' + EVENTS in text
    assert ("quartermaster_requests_created" in text) is created
