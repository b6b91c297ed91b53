"""Logs are one JSON record per line with a request id the answer carries too; /metrics reports appends, refusals,
latency and the pool."""

from __future__ import annotations

import gc
import io
import json
import logging
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from litestar import get
from litestar.testing import TestClient

from quartermaster.service.app import create_app

NOTE = [{"type": "note.added", "data": {"text": "The Wormwood sails at dawn."}}]


@pytest.fixture
def log_lines(api) -> Iterator[io.StringIO]:
    """What the app's configured log handler writes, for one test (the app configures logging when it starts)."""
    handler = logging.getLogger("quartermaster").handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    written = io.StringIO()
    previous = handler.setStream(written)
    yield written
    handler.setStream(previous)


def records(written: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in written.getvalue().splitlines()]


def test_every_answer_carries_the_request_id_of_its_log_record_and_no_token(api, log_lines):
    campaign = api.new_campaign()
    answer = api.append(campaign, NOTE)
    assert answer.status_code == 201
    rid = answer.headers["x-request-id"]
    line = [r for r in records(log_lines) if r.get("request_id") == rid]
    assert len(line) == 1, records(log_lines)
    assert line[0]["level"] == "info" and line[0]["message"] == "request"
    assert line[0]["method"] == "POST" and line[0]["path"] == f"/v1/campaigns/{campaign.id}/events"
    assert line[0]["status"] == 201 and line[0]["ms"] >= 0
    assert campaign.token not in log_lines.getvalue()


def test_an_answer_no_route_gives_has_a_request_id_and_a_log_record_too(api, log_lines):
    answer = api.client.get("/v1/nowhere")
    assert answer.status_code == 404
    line = [r for r in records(log_lines) if r.get("request_id") == answer.headers["x-request-id"]]
    assert [(r["path"], r["status"]) for r in line] == [("/v1/nowhere", 404)]


def test_a_callers_own_request_id_is_kept_and_a_strange_one_is_replaced(api):
    kept = api.client.get("/healthz", headers={"x-request-id": "proxy-7f3a.42"})
    replaced = api.client.get("/healthz", headers={"x-request-id": "two words\ttab"})
    assert kept.headers["x-request-id"] == "proxy-7f3a.42"
    assert replaced.headers["x-request-id"] not in ("", "two words\ttab")
    assert api.client.get("/healthz").headers["x-request-id"] != api.client.get("/healthz").headers["x-request-id"]


def test_an_address_refused_for_a_nul_character_has_a_request_id_and_a_log_record_too(api, log_lines):
    answer = api.client.get("/healthz?x=%00")
    assert answer.status_code == 400 and answer.json()["type"].endswith("/nul-character")
    line = [r for r in records(log_lines) if r.get("request_id") == answer.headers["x-request-id"]]
    assert [(r["path"], r["status"]) for r in line] == [("/healthz", 400)]


def test_the_request_line_carries_its_time_as_every_record_does_in_utc_to_the_millisecond(api, log_lines):
    before = datetime.now(UTC) - timedelta(milliseconds=1)
    answer = api.client.get("/healthz")
    after = datetime.now(UTC)
    line = [r for r in records(log_lines) if r.get("request_id") == answer.headers["x-request-id"]]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", line[0]["at"])
    assert before <= datetime.fromisoformat(line[0]["at"]) <= after


def test_the_request_line_goes_through_logging_to_a_handler_with_another_formatter(api, log_lines):
    handler = logging.getLogger("quartermaster").handlers[0]
    previous = handler.formatter
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s %(method)s %(path)s %(status)s"))
    try:
        api.client.get("/healthz")
    finally:
        handler.setFormatter(previous)
    assert log_lines.getvalue().splitlines()[-1] == "INFO request GET /healthz 200"


class OnlyErrors(logging.Filter):
    """Keeps the request records of 5xx answers, and remembers every record it was shown."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[logging.LogRecord] = []

    def filter(self, record: logging.LogRecord) -> bool:
        self.seen.append(record)
        return getattr(record, "status", 500) >= 500


def test_a_filter_on_the_request_records_sees_every_request_and_decides_what_is_written(api, log_lines):
    requests = logging.getLogger("quartermaster.requests")
    only_errors = OnlyErrors()
    requests.addFilter(only_errors)
    try:
        api.client.get("/healthz")
    finally:
        requests.removeFilter(only_errors)
    assert [(r.getMessage(), vars(r)["path"], vars(r)["status"]) for r in only_errors.seen] == [
        ("request", "/healthz", 200)
    ]
    assert log_lines.getvalue() == ""


def test_the_request_line_is_not_written_when_the_logger_is_above_info(api, log_lines):
    requests = logging.getLogger("quartermaster.requests")
    requests.setLevel(logging.WARNING)
    try:
        api.client.get("/healthz")
    finally:
        requests.setLevel(logging.NOTSET)
    assert log_lines.getvalue() == ""


def test_an_unexpected_error_is_one_error_record_with_its_traceback_and_the_answers_request_id(
    database_url, app_settings, log_lines
):
    @get("/explode", include_in_schema=False)
    async def explode() -> None:
        raise RuntimeError("the powder magazine caught fire")

    app = create_app(app_settings, database_url)
    app.register(explode)
    with TestClient(app) as client:
        handler = logging.getLogger("quartermaster").handlers[0]
        handler.setStream(log_lines)  # the new app configured logging again
        answer = client.get("/explode")
    assert answer.status_code == 500
    rid = answer.headers["x-request-id"]
    mine = [r for r in records(log_lines) if r.get("request_id") == rid]
    errors = [r for r in mine if r["level"] == "error"]
    assert len(errors) == 1, mine
    assert "RuntimeError: the powder magazine caught fire" in errors[0]["traceback"]
    assert errors[0]["traceback"].startswith("Traceback (most recent call last)")
    assert [r["status"] for r in mine if r["message"] == "request"] == [500]
    route = {"method": "GET", "path": "/explode", "app_name": "quartermaster", "status_code": "500"}
    assert metric(client.get("/metrics").text, "quartermaster_requests_error_total", **route) >= 1


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample in Prometheus's text format (0 when absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        sample, _, value = line.rpartition(" ")
        metric_name, _, rest = sample.partition("{")
        got = ",".join(sorted(rest.rstrip("}").split(","))) if rest else ""
        if metric_name == name and got == wanted:
            return float(value)
    return 0.0


def test_metrics_count_appended_events_refusals_by_reason_latency_and_the_pool(api):
    campaign = api.new_campaign()
    before = api.client.get("/metrics").text
    assert api.append(campaign, NOTE * 3).status_code == 201
    assert api.append(campaign, NOTE, expected_position=0).status_code == 409
    after = api.client.get("/metrics")
    assert after.status_code == 200 and after.headers["content-type"].startswith("text/plain")
    text = after.text
    assert (
        metric(text, "quartermaster_events_appended_total") - metric(before, "quartermaster_events_appended_total") == 3
    )
    assert (
        metric(text, "quartermaster_batches_appended_total") - metric(before, "quartermaster_batches_appended_total")
        == 1
    )
    assert (
        metric(text, "quartermaster_refusals_total", status="409", reason="stale-position")
        - metric(before, "quartermaster_refusals_total", status="409", reason="stale-position")
        == 1
    )
    route = {"method": "POST", "path": "/v1/campaigns/{campaign}/events", "app_name": "quartermaster"}
    appends = metric(text, "quartermaster_request_duration_seconds_count", **route, status_code="201")
    assert appends - metric(before, "quartermaster_request_duration_seconds_count", **route, status_code="201") == 1
    assert metric(text, "quartermaster_pool_max") >= 8
    assert 1 <= metric(text, "quartermaster_pool_size") <= metric(text, "quartermaster_pool_max")


def test_a_full_pass_of_the_garbage_collector_is_counted_and_timed(api):
    before = api.client.get("/metrics").text
    gc.collect()
    text = api.client.get("/metrics").text
    full = {"generation": "2"}
    assert metric(text, "quartermaster_gc_passes_total", **full) > metric(
        before, "quartermaster_gc_passes_total", **full
    )
    spent = metric(text, "quartermaster_gc_pause_seconds_total", **full)
    assert spent > metric(before, "quartermaster_gc_pause_seconds_total", **full)
    assert 0 < metric(text, "quartermaster_gc_longest_pause_seconds") <= spent
    passes = sum(metric(text, "quartermaster_gc_passes_total", generation=str(g)) for g in range(3))
    assert metric(text, "quartermaster_gc_pass_seconds_count") == passes
    assert metric(text, "quartermaster_gc_pass_seconds_bucket", le="+Inf") == passes
    assert metric(text, "quartermaster_gc_pass_seconds_bucket", le="1.0") <= passes


def test_an_address_no_route_takes_is_counted_under_one_label_and_scrapes_are_not_counted(api):
    stray = f"/v1/campaigns/{uuid.uuid4()}/nowhere"
    before = api.client.get("/metrics").text
    assert api.client.get(stray).status_code == 404
    assert api.client.request("BREW", "/healthz").status_code == 405
    text = api.client.get("/metrics").text
    unrouted = {"path": "unrouted", "app_name": "quartermaster"}
    for method, status in (("GET", "404"), ("OTHER", "405")):
        count = "quartermaster_requests_total"
        labels = {**unrouted, "method": method, "status_code": status}
        assert metric(text, count, **labels) - metric(before, count, **labels) == 1
    assert stray.split("/")[3] not in text
    assert "BREW" not in text and 'path="/metrics"' not in text
