"""Big campaigns over HTTP: a 200,000-event Skull & Shackles campaign beside a 20,000-event one.

    .venv/bin/python benchmarks/big.py [--ref REF] [--events 200000] [--small 20000] [--repeat 15]

Not a test: it never fails on time. For this checkout's server (and, with `--ref`, another commit's, exported with
`git archive` as versus.py does, each on a fresh database migrated by its own code, in the same sitting), it builds
two campaigns through the HTTP API, 1,000 events a request, each one long scenario of the rulebook's Example of Play
played turn after turn (benchmarks/audit.py's `turn`: card moves with a check rolled every tenth event), then times,
with httpx against a uvicorn serving the app (store.py's `Server`):

- history's latest page: `GET /events?after=N-100&limit=100`, and the table page's own first read, the last 300;
- state at N: `GET /state?at=N` at positions drawn at random;
- the diff over the whole range (`/diff?from=0`: every view's changes, and the first page of the events told), and
  the scenario's report (every check of the whole campaign);
- cold start: `quartermaster serve` on the database holding both campaigns, from its start to `/readyz` answering.

Each figure is the median of `--repeat` requests (the report and the diff of 5, the cold start of 3), the two
campaigns taking turns.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audit import CYCLING, TURNS, turn  # noqa: E402
from store import DEFAULT_SERVER, ROOT, Server, free_port  # noqa: E402
from versus import side_database, sides  # noqa: E402

from tests.unit.pacg.example_of_play import OPTIONS, SETTING_UP  # noqa: E402


def build(client: httpx.Client, total: int) -> tuple[str, dict[str, str], int]:
    """A campaign of about `total` events in one scenario: its id, headers and position."""
    created = client.post(
        "/v1/campaigns", json={"name": f"{total:,} events", "game": "pacg-skull-and-shackles", "options": OPTIONS}
    ).json()
    campaign, headers = created["id"], {"Authorization": f"Bearer {created['token']}"}

    def post(events: list[dict[str, Any]]) -> None:
        for start in range(0, len(events), 1000):
            answer = client.post(
                f"/v1/campaigns/{campaign}/events", json={"events": events[start : start + 1000]}, headers=headers
            )
            assert answer.status_code == 201, answer.text[:500]

    post(SETTING_UP)
    position = 2 + len(SETTING_UP)
    length = (total - position) // TURNS
    order = list(CYCLING)
    for number in range(TURNS):
        events = turn(order[number % 3], min(length, total - position), position + 1)
        post(events)
        position += len(events)
        print(f"  built {position:,} events", end="\r", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return campaign, headers, position


def timed(client: httpx.Client, path: str, headers: dict[str, str], params: dict[str, Any]) -> tuple[float, int]:
    started = time.perf_counter()
    answer = client.get(path, params=params, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status_code == 200, answer.text[:300]
    return elapsed, len(answer.content)


def cold_start(root: Path, url: str) -> float:
    """Seconds from starting `quartermaster serve` to its first ready answer."""
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "quartermaster.service.cli", "serve", "--port", str(port), "--database-url", url],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                    return time.perf_counter() - started
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.perf_counter() - started > 120:
                raise RuntimeError("the server did not become ready")
            time.sleep(0.02)
    finally:
        process.terminate()
        process.wait(30)


def measure(url: str, root: Path, log: Path, sizes: list[int], repeat: int) -> dict[str, Any]:
    server = Server(url, log, root=root)
    figures: dict[str, Any] = {}
    try:
        with httpx.Client(base_url=server.base, timeout=120) as client:
            campaigns = {size: build(client, size) for size in sizes}
            samples: dict[tuple[int, str], list[float]] = {}
            sizes_of: dict[tuple[int, str], int] = {}
            for round_ in range(repeat):
                for size, (campaign, headers, position) in campaigns.items():
                    base = f"/v1/campaigns/{campaign}"
                    asks = [
                        ("latest page (100)", "/events", {"after": position - 100, "limit": 100}),
                        ("the page's first read (300)", "/events", {"after": position - 300, "limit": 1000}),
                        ("state at N", "/state", {"at": random.randint(1, position)}),
                    ]
                    if round_ < 5:
                        asks += [
                            ("diff over the whole range", "/diff", {"from": 0, "to": position}),
                            ("report of the whole scenario", "/report", {"scenario": "Dangerous Waters"}),
                        ]
                    for what, path, params in asks:
                        ms, length = timed(client, base + path, headers, params)
                        samples.setdefault((size, what), []).append(ms)
                        sizes_of[(size, what)] = length
            for (size, what), values in samples.items():
                figures.setdefault(what, {})[size] = {
                    "p50_ms": statistics.median(values),
                    "bytes": sizes_of[(size, what)],
                }
            figures["positions"] = {size: c[2] for size, c in campaigns.items()}
    finally:
        server.stop()
    figures["cold start to ready"] = {"s": statistics.median(cold_start(root, url) for _ in range(3))}
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER)
    parser.add_argument("--ref", help="also measure this commit's server, in the same sitting")
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--small", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "big.json")
    args = parser.parse_args()
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        version = conn.execute("SHOW server_version").fetchone()[0]
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, root in sides(args.ref, Path(folder)):
            with side_database(args.database_url, root) as url:
                log = args.json.with_name(f"big-{len(results)}.log")
                results[name] = measure(url, root, log, [args.small, args.events], args.repeat)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    conditions = {
        "postgresql": version,
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "head": head.strip(),
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"conditions": conditions, "results": results}, indent=2))
    print(json.dumps(conditions))
    for name, figures in results.items():
        print(f"\n{name}")
        for what, values in figures.items():
            print(f"  {what:<30} {json.dumps(values)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
