"""The request metrics with the lane on: what Litestar's Prometheus middleware records, counted by the Front in plain
floats (`Requests`), or in prometheus_client's own Counter, Histogram and Gauge where several processes share their
values (`Shared`).

The families, help texts and labels are the ones Litestar's PrometheusMiddleware makes from service.metrics'
PROMETHEUS configuration (its prefix, app name and buckets), which counts the requests with the lane off; a process
serves one way, so only one of them fills the scrape. tests/unit/test_request_metrics.py compares the two here
sample for sample.
"""

from __future__ import annotations

import os
import time
from bisect import bisect_left
from collections.abc import Iterator
from functools import cache
from typing import Any

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, metrics as prometheus_metrics
from prometheus_client.core import Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from quartermaster.service.platform.metrics import APP_NAME, BUCKETS, PREFIX

__all__ = ["Answers", "Requests", "Shared", "requests"]

_LABELS = ("method", "path", "status_code", "app_name")
# Each bucket's `le` label, as prometheus_client writes it (its floatToGoString has no annotations).
_BOUNDS = [floatToGoString(bound) for bound in BUCKETS]  # type: ignore[no-untyped-call]
# As PrometheusMiddleware names and describes them (litestar.plugins.prometheus.middleware).
_REQUESTS = (f"{PREFIX}_requests_total", "Total requests")
_DURATION = (f"{PREFIX}_request_duration_seconds", "Request duration, in seconds")
_ERRORS = (f"{PREFIX}_requests_error_total", "Total errors in requests")
_IN_PROGRESS = (f"{PREFIX}_requests_in_progress", "Total requests currently in progress")


class Requests(Collector):
    """Requests counted and timed by route and status, and those in progress, in plain floats read at each scrape.

    Every request counts here, so the counting is a few additions, where prometheus_client's labelled children take
    three to four Python calls and a lock per figure. The scrape shows what its Counter, Histogram and Gauge
    (`Shared`) show: the same families, help, samples, values, labels and order (children in the order their labels
    were first seen), with `_created` times while prometheus_client writes them. Requests and scrapes run on the
    event loop's thread only."""

    def __init__(self) -> None:
        self.gauges: dict[tuple[str, str], list[float]] = {}
        self.answers: dict[tuple[str, str, int], Answers] = {}

    def describe(self) -> list[Metric]:
        # No names claimed in the registry: a process that also builds an app with the lane off (the tests do)
        # registers Litestar's middleware's Counters under the same names, which would otherwise be refused.
        return []

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
        # The first bucket it fits (the first bound at or above it), as Histogram.observe finds it, found in C.
        answers.buckets[bisect_left(BUCKETS, seconds)] += 1

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
            for bound, count in zip(_BOUNDS, answers.buckets, strict=True):
                total += count
                duration.add_sample(f"{duration.name}_bucket", {**labels, "le": bound}, total)
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
        yield from (requests, duration, errors, running)


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
        self.duration = Histogram(*_DURATION, _LABELS, registry=registry, buckets=BUCKETS)
        self.errors = Counter(*_ERRORS, _LABELS, registry=registry)
        # As Litestar's middleware labels it: the status is not known yet while a request runs, so it is always 200.
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


@cache
def requests() -> Requests | Shared:
    """This process's request metrics, made and registered at the first request an app with the lane on serves (not
    at import, nor when such an app is built: with the lane off, Litestar's middleware registers these names)."""
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ or "prometheus_multiproc_dir" in os.environ:  # as the controller asks
        return Shared(REGISTRY)
    made = Requests()
    REGISTRY.register(made)
    return made
