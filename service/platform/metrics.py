"""Prometheus metrics, served at `/metrics` by Litestar's Prometheus controller.

Requests are counted and timed by route (`quartermaster_requests_total`, `quartermaster_request_duration_seconds`,
`quartermaster_requests_in_progress`, `quartermaster_requests_error_total`) by Litestar's Prometheus middleware,
configured here (`PROMETHEUS`). The path label is the route's path template, never a campaign id, and
`UNROUTED` for a request no route takes. The rest is what only the service knows: batches and events appended,
refusals by reason, each process's connection pools, and the pauses of its garbage collector.
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import time
from collections.abc import Iterator
from typing import Any

from litestar import Response, get
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from quartermaster.service.platform import workers


class Appends(Collector):
    """Batches and events committed, counted in plain integers and read at each scrape.

    Every append counts here, so the counting is two additions, where two prometheus_client Counters take about a
    dozen Python calls per append (a lock, checks). Appends run on the event loop's thread only."""

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
    "Connections refused because the server reached is a former primary (service/platform/lineage.py).",
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


# The bounds of the passes' histogram (seconds): a young pass takes well under a millisecond; 50 ms is where a
# stall starts to show in a live update.
PASS_BOUNDS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class CollectorPauses(Collector):
    """The garbage collector's passes in this process, timed through `gc.callbacks`: passes by generation, the time
    spent in them, the longest one since the process started, and how long each took (a histogram, so that the
    longest of any stretch of time can be told from two readings).

    A full pass over every object a process tracks stops every request and every live stream for as long as it
    lasts; this is where such a stall shows, apart from the database's."""

    def __init__(self) -> None:
        self.started = 0.0
        self.passes = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.longest = 0.0
        self.counts = [0] * (len(PASS_BOUNDS) + 1)  # passes by the first bound they fit under; the last, over all

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        pause = time.perf_counter() - self.started
        generation = info["generation"]
        self.passes[generation] += 1
        self.seconds[generation] += pause
        self.longest = max(self.longest, pause)
        self.counts[bisect.bisect_left(PASS_BOUNDS, pause)] += 1

    def collect(self) -> Iterator[Metric]:
        # One reading of all three, so that a pass during the scrape cannot make them disagree.
        passes_now, seconds_now, counts_now = tuple(self.passes), tuple(self.seconds), tuple(self.counts)
        passes = CounterMetricFamily(
            "quartermaster_gc_passes", "Passes of the garbage collector, by generation.", labels=["generation"]
        )
        seconds = CounterMetricFamily(
            "quartermaster_gc_pause_seconds",
            "Time spent in passes of the garbage collector, by generation.",
            labels=["generation"],
        )
        for generation in range(3):
            passes.add_metric([str(generation)], passes_now[generation])
            seconds.add_metric([str(generation)], seconds_now[generation])
        yield passes
        yield seconds
        yield GaugeMetricFamily(
            "quartermaster_gc_longest_pause_seconds",
            "The longest pass of the garbage collector since the process started.",
            value=self.longest,
        )
        cumulative, buckets = 0, []
        for bound, count in zip((*(str(b) for b in PASS_BOUNDS), "+Inf"), counts_now, strict=True):
            cumulative += count
            buckets.append((bound, cumulative))
        yield HistogramMetricFamily(
            "quartermaster_gc_pass_seconds",
            "How long each pass of the garbage collector took, every generation.",
            buckets=buckets,
            sum_value=sum(seconds_now),
        )


PAUSES = CollectorPauses()
REGISTRY.register(PAUSES)
gc.callbacks.append(PAUSES)


class Scrape(PrometheusController):
    """/metrics: this process's registry, or with several workers, every worker's added up
    (service/platform/workers.py)."""

    @get()
    async def get(self) -> Response[bytes]:
        shared = workers.folder()
        text = generate_latest(REGISTRY) if shared is None else await asyncio.to_thread(workers.gathered, shared)
        return Response(text, status_code=200, headers={"Content-Type": CONTENT_TYPE_LATEST})


ROUTES = [Scrape]
# Scrapes are not requests worth counting (as with Litestar's middleware, configured to leave them out).
SCRAPES = Scrape.path

APP_NAME = "quartermaster"
# The path label of a request no route takes (404, 405): a fixed word, so an id in a wrong address never becomes a
# label. Its method label is one of the methods HTTP defines, or OTHER, for the same reason.
UNROUTED = "unrouted"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"})
BUCKETS = Histogram.DEFAULT_BUCKETS
PREFIX = "quartermaster"

# Litestar's Prometheus middleware, counting requests. What it cannot see, because the router answers it before any
# middleware runs (Litestar's "Middlewares and Exceptions"), is a request no route takes: service/http/edge.py counts
# those in the same families from the app's exception handler. The differences that leaves, which no setting of
# Litestar's removes: no in-progress gauge for such a request, and every request timed from where Litestar's layers
# first see it (after the router's look-up, or from its refusal).
PROMETHEUS = PrometheusConfig(
    app_name=APP_NAME,
    prefix=PREFIX,
    group_path=True,  # the path label is the route's template
    buckets=list(BUCKETS),
    exclude=[f"^{SCRAPES}$"],
)


def method_label(method: str) -> str:
    """The method label of a request no route takes: its method if HTTP defines it, else OTHER."""
    return method if method in METHODS else "OTHER"
