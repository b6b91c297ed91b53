"""What the live path did, counted for `/metrics`: events told and read back, notifications heard, streams open
and campaigns followed in this process (service/application/live.py keeps the counts)."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import REGISTRY
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector


class Counts(Collector):
    """What the live path did, read at each scrape: events told, streams open, campaigns followed."""

    def __init__(self) -> None:
        self.told = 0
        self.read = 0
        self.streams = 0
        self.feeds = 0
        self.notified = 0

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily(
            "quartermaster_live_events_told", "Events read and told once for this process's followers.", self.told
        )
        yield CounterMetricFamily(
            "quartermaster_live_events_read",
            "Events the feeds read back from the log: other processes' commits, and any the commits did not hand over.",
            self.read,
        )
        yield CounterMetricFamily(
            "quartermaster_live_notifications", "Commits of other processes heard through LISTEN.", self.notified
        )
        yield GaugeMetricFamily("quartermaster_live_streams", "Live streams open in this process.", self.streams)
        yield GaugeMetricFamily("quartermaster_live_feeds", "Campaigns this process follows.", self.feeds)


COUNTS = Counts()
REGISTRY.register(COUNTS)
