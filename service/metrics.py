"""Prometheus metrics, served at `/metrics` by Litestar's Prometheus plugin.

The plugin's middleware counts requests and times them by route (`quartermaster_requests_total`,
`quartermaster_request_duration_seconds`, `quartermaster_requests_in_progress`, `quartermaster_requests_error_total`,
labelled with the route's path template, never a campaign id). This module adds what only the service knows: batches
and events appended, refusals by reason, and the use of each process's connection pool.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from prometheus_client import REGISTRY, Counter
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

BATCHES = Counter(
    "quartermaster_batches_appended",
    "Batches committed to campaign logs (a retry answered from the log is not counted).",
)
EVENTS = Counter("quartermaster_events_appended", "Events committed to campaign logs.")
REFUSALS = Counter(
    "quartermaster_refusals",
    "Requests answered with a problem, by status and reason (the problem's "
    "type, e.g. rejected, stale-position, forbidden).",
    ["status", "reason"],
)


def appended(events: int) -> None:
    BATCHES.inc()
    EVENTS.inc(events)


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

CONFIG = PrometheusConfig(app_name="quartermaster", prefix="quartermaster", group_path=True, exclude=["/metrics"])
ROUTES = [PrometheusController]
