"""/metrics for `serve --workers N`: every worker's metrics added up, whichever worker a scrape reaches.

Each worker writes what its own registry holds, in Prometheus's text format, to a file of its own in a folder the
serving command made (`QUARTERMASTER_METRICS_DIR`), every two seconds and at each scrape it answers; a scrape reads
every live worker's file and answers the sums (counters, histograms' buckets, counts and sums, and gauges: the
pools' connections of all the workers), but for the gauges that are a longest time, which answer the longest of any
worker (`LONGEST`). prometheus_client's multiprocess mode was not used: it counts only its own
metric objects, and the service counts appends, pools and (with the fast lane) requests in collectors of its own
that it would leave out. What another worker counted in its last two seconds may be missing from a scrape; the next
one has it.
"""

from __future__ import annotations

import asyncio
import math
import os
from collections.abc import Iterable
from pathlib import Path

from prometheus_client import REGISTRY, generate_latest
from prometheus_client.parser import text_string_to_metric_families

VARIABLE = "QUARTERMASTER_METRICS_DIR"
# Seconds between a worker's writes of its own file: each write costs about 0.9 ms of CPU (a 17 kB text), so an
# idle worker spends about 0.45 ms a second on it (benchmarks/README.md).
EVERY = 2.0


def folder() -> Path | None:
    """The shared folder, when this process is one of several workers."""
    value = os.environ.get(VARIABLE)
    return Path(value) if value else None


def publish(where: Path) -> None:
    """This worker's metrics into its file, replaced whole (a reader never sees half of it)."""
    own = where / f"{os.getpid()}.prom"
    partial = own.with_suffix(".partial")
    partial.write_bytes(generate_latest(REGISTRY))
    partial.replace(own)


def forget(where: Path) -> None:
    """A stopping worker's file goes with it: what it counted is no longer in any worker's."""
    (where / f"{os.getpid()}.prom").unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def gathered(where: Path) -> bytes:
    """Every live worker's metrics added up, in Prometheus's text format."""
    publish(where)
    texts = []
    for file in sorted(where.glob("*.prom")):
        if file.stem.isdigit() and _alive(int(file.stem)):
            try:
                texts.append(file.read_text())
            except FileNotFoundError:  # its worker stopped meanwhile
                continue
    return added_up(texts)


# Gauges whose samples are a longest time in one worker: across workers, the longest of theirs, not their sum.
LONGEST = frozenset({"quartermaster_gc_longest_pause_seconds"})


def added_up(texts: Iterable[str]) -> bytes:
    """Several exposition texts as one, each sample's values added up across them, families in their first order."""
    families: dict[str, tuple[str, str]] = {}
    samples: dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]] = {}
    for text in texts:
        for family in text_string_to_metric_families(text):
            families.setdefault(family.name, (family.type, family.documentation))
            into = samples.setdefault(family.name, {})
            for sample in family.samples:
                if sample.name.endswith("_created"):  # when a series began, in one worker: not a thing to add
                    continue
                key = (sample.name, tuple(sorted(sample.labels.items())))
                if family.name in LONGEST:
                    into[key] = max(into.get(key, sample.value), sample.value)
                else:
                    into[key] = into.get(key, 0.0) + sample.value
    lines = []
    for name, (kind, documentation) in families.items():
        if not samples[name]:  # only creation times (the text format's parser reads them as a family of their own)
            continue
        help_text = documentation.replace("\\", "\\\\").replace("\n", "\\n")
        # As prometheus_client writes them: a counter's family is named with its samples' `_total`.
        named = name + {"counter": "_total", "info": "_info"}.get(kind, "")
        lines += [f"# HELP {named} {help_text}", f"# TYPE {named} {kind}"]
        for (sample_name, labels), value in samples[name].items():
            shown = ",".join(f'{k}="{_escaped(v)}"' for k, v in labels)
            number = _number(value)
            lines.append(f"{sample_name}{{{shown}}} {number}" if shown else f"{sample_name} {number}")
    return ("\n".join(lines) + "\n").encode()


def _escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    """A sample's value as the text format writes it: +Inf, -Inf, NaN, or the float."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value))


async def publishing(where: Path) -> None:
    """Write this worker's file every EVERY seconds until cancelled, then remove it."""
    try:
        while True:
            await asyncio.to_thread(publish, where)
            await asyncio.sleep(EVERY)
    finally:
        forget(where)
