"""Prometheus metrics, served at `/metrics` by Litestar's Prometheus controller.

Requests are counted and timed by route (`quartermaster_requests_total`, `quartermaster_request_duration_seconds`,
`quartermaster_requests_in_progress`, `quartermaster_requests_error_total`), with the names and labels Litestar's
Prometheus middleware gave them; `service.front` records them in plain floats (`Requests`). The path
label is the route's path template, never a campaign id, and `UNROUTED` for a request no route takes. The rest is
what only the service knows: batches and events appended, refusals by reason, and each process's connection pools.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

from litestar.plugins.prometheus import PrometheusController
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, metrics as prometheus_metrics
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString


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


FORGOTTEN = Counter(
    "quartermaster_caches_forgotten",
    "Times this process dropped every cached state because the database's log was not the one it had read "
    "(a failover, a log behind what it had seen committed, an older copy restored).",
)
SERVERS_REFUSED = Counter(
    "quartermaster_servers_refused",
    "Connections refused because the server reached is a former primary (service/lineage.py).",
)


def forgotten() -> None:
    FORGOTTEN.inc()


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

_LABELS = ("method", "path", "status_code", "app_name")
BUCKETS = Histogram.DEFAULT_BUCKETS
_REQUESTS = ("quartermaster_requests_total", "Total requests")
_DURATION = ("quartermaster_request_duration_seconds", "Request duration, in seconds")
_ERRORS = ("quartermaster_requests_error_total", "Total errors in requests")
_IN_PROGRESS = ("quartermaster_requests_in_progress", "Total requests currently in progress")


class Requests(Collector):
    """Requests counted and timed by route and status, and those in progress, in plain floats read at each scrape.

    Every request counts here, so the counting is a few additions: prometheus_client's labelled children took three
    to four Python calls and a lock per figure, about 25,000 of a one-note append's 593,000 instructions (callgrind;
    this takes about 4,000). The scrape shows what its Counter, Histogram and Gauge (`Shared`) show: the same
    families, help, samples, values, labels and order (children in the order their labels were first seen), with
    `_created` times while prometheus_client writes them (tests/unit/test_request_metrics.py compares the two).
    Requests and scrapes run on the event loop's thread only."""

    def __init__(self) -> None:
        self.gauges: dict[tuple[str, str], list[float]] = {}
        self.answers: dict[tuple[str, str, int], Answers] = {}

    def running(self, method: str, path: str) -> list[float]:
        """Count a request of a route as in progress; its gauge, a one-item list, goes to `answered`."""
        gauge = self.gauges.get((method, path))
        if gauge is None:
            gauge = self.gauges[method, path] = [0.0]
        gauge[0] += 1
        return gauge

    def answered(self, gauge: list[float], method: str, path: str, status: int, seconds: float) -> None:
        """A request of a route is answered: no longer in progress, counted and timed."""
        gauge[0] -= 1
        answers = self.answers.get((method, path, status))
        if answers is None:
            answers = self.answers[method, path, status] = Answers()
        answers.count += 1
        answers.seconds += seconds
        for i, bound in enumerate(BUCKETS):  # the first bucket it fits, as Histogram.observe finds it
            if seconds <= bound:
                answers.buckets[i] += 1
                break

    def collect(self) -> Iterator[Metric]:
        created = prometheus_metrics._use_created  # prometheus_client's switch (PROMETHEUS_DISABLE_CREATED_SERIES)
        requests = Metric(_REQUESTS[0].removesuffix("_total"), _REQUESTS[1], "counter")
        duration = Metric(*_DURATION, "histogram")
        errors = Metric(_ERRORS[0].removesuffix("_total"), _ERRORS[1], "counter")
        for (method, path, status), answers in list(self.answers.items()):
            labels = dict(zip(_LABELS, (method, path, str(status), APP_NAME), strict=True))
            requests.add_sample(f"{requests.name}_total", labels, answers.count)
            if created:
                requests.add_sample(f"{requests.name}_created", labels, answers.created)
            total = 0.0
            for bound, count in zip(BUCKETS, answers.buckets, strict=True):
                total += count
                duration.add_sample(f"{duration.name}_bucket", {**labels, "le": floatToGoString(bound)}, total)
            duration.add_sample(f"{duration.name}_count", labels, total)
            duration.add_sample(f"{duration.name}_sum", labels, answers.seconds)
            if created:
                duration.add_sample(f"{duration.name}_created", labels, answers.created)
            if status >= 500:
                errors.add_sample(f"{errors.name}_total", labels, answers.count)
                if created:
                    errors.add_sample(f"{errors.name}_created", labels, answers.created)
        running = Metric(*_IN_PROGRESS, "gauge")
        for (method, path), gauge in list(self.gauges.items()):
            running.add_sample(running.name, dict(zip(_LABELS, (method, path, "200", APP_NAME), strict=True)), gauge[0])
        return [requests, duration, errors, running]


class Answers:
    """The answers of one route with one status: how many, their seconds in all, and how many in each bucket."""

    __slots__ = ("count", "seconds", "buckets", "created")

    def __init__(self) -> None:
        self.count = 0.0
        self.seconds = 0.0
        self.buckets = [0.0] * len(BUCKETS)
        self.created = time.time()


class Shared:
    """The same figures in prometheus_client's own Counter, Histogram and Gauge, for a process whose values it keeps
    in files that several processes share (PROMETHEUS_MULTIPROC_DIR): a scrape then reads those files, and no
    collector of this process."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.requests = Counter(*_REQUESTS, _LABELS, registry=registry)
        self.duration = Histogram(*_DURATION, _LABELS, registry=registry)
        self.errors = Counter(*_ERRORS, _LABELS, registry=registry)
        # As Litestar's middleware labelled it: the status is not known yet while a request runs, so it is always 200.
        self.in_progress = Gauge(*_IN_PROGRESS, _LABELS, multiprocess_mode="livesum", registry=registry)
        self.gauges: dict[tuple[str, str], Any] = {}
        self.children: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}

    def running(self, method: str, path: str) -> Any:
        gauge = self.gauges.get((method, path))
        if gauge is None:
            gauge = self.gauges[method, path] = self.in_progress.labels(method, path, "200", APP_NAME)
        gauge.inc()
        return gauge

    def answered(self, gauge: Any, method: str, path: str, status: int, seconds: float) -> None:
        gauge.dec()
        children = self.children.get((method, path, status))
        if children is None:
            labels = (method, path, str(status), APP_NAME)
            children = self.children[method, path, status] = (
                self.requests.labels(*labels),
                self.duration.labels(*labels),
                self.errors.labels(*labels) if status >= 500 else None,
            )
        count, duration, errors = children
        count.inc()
        duration.observe(seconds)
        if errors is not None:
            errors.inc()


def _requests() -> Requests | Shared:
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ or "prometheus_multiproc_dir" in os.environ:  # as the controller asks
        return Shared(REGISTRY)
    requests = Requests()
    REGISTRY.register(requests)
    return requests


REQUESTS = _requests()
running = REQUESTS.running
answered = REQUESTS.answered
