"""Prometheus metrics, served at `/metrics` by Litestar's Prometheus controller.

Requests are counted and timed by route (`quartermaster_requests_total`, `quartermaster_request_duration_seconds`,
`quartermaster_requests_in_progress`, `quartermaster_requests_error_total`), with the names and labels Litestar's
Prometheus middleware gave them; `service.front` records them, through children made once per label set. The path
label is the route's path template, never a campaign id, and `UNROUTED` for a request no route takes. The rest is
what only the service knows: batches and events appended, refusals by reason, and each process's connection pools.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from litestar.plugins.prometheus import PrometheusController
from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector


class Appends(Collector):
    """Batches and events committed, counted in plain integers and read at each scrape.

    Every append counts here, so the counting is a fraction of a microsecond: two prometheus_client Counters took
    about a dozen Python calls per append (a lock, checks) on a path whose whole client CPU is ~150 µs. Appends run on
    the event loop's thread only."""

    def __init__(self) -> None:
        self.batches = 0
        self.events = 0

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily(
            "quartermaster_batches_appended",
            "Batches committed to campaign logs (a retry answered from the log is not counted).",
            value=self.batches,
        )
        yield CounterMetricFamily(
            "quartermaster_events_appended", "Events committed to campaign logs.", value=self.events
        )


APPENDS = Appends()
REGISTRY.register(APPENDS)
REFUSALS = Counter(
    "quartermaster_refusals",
    "Requests answered with a problem, by status and reason (the problem's "
    "type, e.g. rejected, stale-position, forbidden).",
    ["status", "reason"],
)


def appended(events: int) -> None:
    APPENDS.batches += 1
    APPENDS.events += events


def refused(status: int, reason: str) -> None:
    REFUSALS.labels(status=str(status), reason=reason).inc()


class PoolUse(Collector):
    """The connection pools of this process, read at each scrape: connections open, idle, in use, and waiting."""

    def __init__(self) -> None:
        self.pools: list[Any] = []

    def collect(self) -> Iterator[Metric]:
        stats = [pool.get_stats() for pool in self.pools]
        for name, key, text in (
            ("quartermaster_pool_max", "pool_max", "Connections the pool may open."),
            ("quartermaster_pool_size", "pool_size", "Connections open now, idle or lent."),
            ("quartermaster_pool_idle", "pool_available", "Open connections waiting to be lent."),
            ("quartermaster_pool_waiting", "requests_waiting", "Requests waiting for a connection now."),
        ):
            yield GaugeMetricFamily(name, text, value=sum(s.get(key, 0) for s in stats))


POOLS = PoolUse()
REGISTRY.register(POOLS)

ROUTES = [PrometheusController]
# Scrapes are not requests worth counting (as with Litestar's middleware, configured to leave them out).
SCRAPES = PrometheusController.path

APP_NAME = "quartermaster"
# The path label of a request no route takes (404, 405): a fixed word, so an id in a wrong address never becomes a
# label. Its method label is one of the methods HTTP defines, or OTHER, for the same reason.
UNROUTED = "unrouted"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"})

_LABELS = ["method", "path", "status_code", "app_name"]
REQUESTS = Counter("quartermaster_requests_total", "Total requests", _LABELS)
DURATION = Histogram("quartermaster_request_duration_seconds", "Request duration, in seconds", _LABELS)
ERRORS = Counter("quartermaster_requests_error_total", "Total errors in requests", _LABELS)
# As Litestar's middleware labelled it: the status is not known yet while a request runs, so it is always 200.
IN_PROGRESS = Gauge(
    "quartermaster_requests_in_progress", "Total requests currently in progress", _LABELS, multiprocess_mode="livesum"
)

_running: dict[tuple[str, str], Any] = {}
_answered: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}


def running(method: str, path: str) -> Any:
    """The in-progress gauge of a route (made once, then a dict lookup)."""
    gauge = _running.get((method, path))
    if gauge is None:
        gauge = _running[method, path] = IN_PROGRESS.labels(method, path, "200", APP_NAME)
    return gauge


def answered(method: str, path: str, status: int, seconds: float) -> None:
    """Count one answer of a route and record how long it took."""
    children = _answered.get((method, path, status))
    if children is None:
        labels = (method, path, str(status), APP_NAME)
        children = _answered[method, path, status] = (
            REQUESTS.labels(*labels),
            DURATION.labels(*labels),
            ERRORS.labels(*labels) if status >= 500 else None,
        )
    count, duration, errors = children
    count.inc()
    duration.observe(seconds)
    if errors is not None:
        errors.inc()
