"""Several workers' metrics added up into one scrape: sums per series, families in order, the text format kept."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from quartermaster.service.platform.workers import added_up

ONE = """# HELP qm_requests_total Requests.
# TYPE qm_requests_total counter
qm_requests_total{path="/a",status="200"} 3.0
qm_requests_total{path="/b",status="200"} 1.0
qm_requests_created{path="/a",status="200"} 1.7e9
# HELP qm_seconds Time.
# TYPE qm_seconds histogram
qm_seconds_bucket{le="0.1"} 2.0
qm_seconds_bucket{le="+Inf"} 3.0
qm_seconds_count 3.0
qm_seconds_sum 0.25
# HELP qm_pool_size Connections open.
# TYPE qm_pool_size gauge
qm_pool_size 4.0
"""
TWO = """# HELP qm_requests_total Requests.
# TYPE qm_requests_total counter
qm_requests_total{path="/a",status="200"} 2.0
# HELP qm_pool_size Connections open.
# TYPE qm_pool_size gauge
qm_pool_size 2.0
"""


def _values(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_each_series_is_the_sum_of_the_workers_and_creation_times_are_left_out():
    both = added_up([ONE, TWO]).decode()
    values = _values(both)
    assert values[("qm_requests_total", (("path", "/a"), ("status", "200")))] == 5.0
    assert values[("qm_requests_total", (("path", "/b"), ("status", "200")))] == 1.0
    assert values[("qm_seconds_bucket", (("le", "+Inf"),))] == 3.0
    assert values[("qm_pool_size", ())] == 6.0
    assert "created" not in both
    assert "# TYPE qm_requests_total counter" in both and "# TYPE qm_seconds histogram" in both


def test_one_worker_alone_reads_back_as_it_was_written():
    assert {k: v for k, v in _values(ONE).items() if not k[0].endswith("_created")} == _values(added_up([ONE]).decode())


def test_the_collectors_longest_pause_is_the_longest_of_any_worker_not_their_sum():
    def longest(seconds: float) -> str:
        return (
            "# HELP quartermaster_gc_longest_pause_seconds The longest pass.\n"
            "# TYPE quartermaster_gc_longest_pause_seconds gauge\n"
            f"quartermaster_gc_longest_pause_seconds {seconds}\n"
        )

    both = _values(added_up([longest(0.04), longest(0.25), longest(0.1)]).decode())
    assert both[("quartermaster_gc_longest_pause_seconds", ())] == 0.25
