"""Conditional reads: what a phone's reread of the state costs with and without If-None-Match, over HTTP.

Not a test: it never fails on time. A real `quartermaster serve` on a fresh database; a Skull &
Shackles campaign set up as the rulebook's example of play sets it up (the base set in the vault, four characters,
their decks, a scenario started). Then, in rounds taking turns, `GET .../state` read in full (200, with its body)
and read again with the ETag the first read answered (304, no body): the client's latency per read (median and
95th percentile over the round's reads), the bytes a read carries, and the server's CPU per read. The server reads
the state from the log either way and hashes the answer's bytes for its ETag; what a 304 saves is the transfer
and the phone's decoding and redraw.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.unit.pacg.example_of_play import OPTIONS, SETTING_UP  # noqa: E402

DEFAULT_SERVER = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


@contextmanager
def served(server_url: str, folder: Path) -> Iterator[tuple[str, int]]:
    """`quartermaster serve` on a fresh database (dropped afterwards): its base URL and its process id."""
    name = f"qm_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [str(Path(sys.executable).with_name("quartermaster")), "serve", "--port", str(port), "--database-url"]
    command.append(psycopg.conninfo.make_conninfo(server_url, dbname=name))
    environment = {**os.environ, "QUARTERMASTER_DATA_DIR": str(folder), "QUARTERMASTER_RATE_LIMIT": "off"}
    with (folder / "server.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(30)
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def cpu_seconds(pid: int) -> float:
    """The server's CPU so far, from the scheduler's nanosecond count of each of its threads."""
    tasks = Path(f"/proc/{pid}/task").iterdir()
    return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks) / 1e9


def reads(client: httpx.Client, path: str, headers: dict[str, str], count: int) -> tuple[list[float], int, int]:
    """`count` reads: each one's seconds, the last one's status and its body's bytes."""
    seconds = []
    answer = None
    for _ in range(count):
        started = time.perf_counter()
        answer = client.get(path, headers=headers)
        seconds.append(time.perf_counter() - started)
    assert answer is not None
    return seconds, answer.status_code, len(answer.content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_SERVER)
    parser.add_argument("--reads", type=int, default=200, help="reads of each kind per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qm-conditional-") as folder:
        with served(args.database_url, Path(folder)) as (base, pid), httpx.Client(base_url=base, timeout=30) as client:
            created = client.post(
                "/v1/campaigns", json={"name": "Conditional", "game": "pacg-skull-and-shackles", "options": OPTIONS}
            ).json()
            auth = {"Authorization": f"Bearer {created['token']}"}
            path = f"/v1/campaigns/{created['id']}/state"
            answer = client.post(f"/v1/campaigns/{created['id']}/events", json={"events": SETTING_UP}, headers=auth)
            answer.raise_for_status()
            etag = client.get(path, headers=auth).headers["etag"]
            kinds = {"full read (200)": auth, "reread, unchanged (304)": {**auth, "If-None-Match": etag}}
            found: dict[str, list[tuple[list[float], float, int, int]]] = {kind: [] for kind in kinds}
            reads(client, path, auth, 50)  # settle
            for _ in range(args.rounds):
                for kind, headers in kinds.items():
                    cpu = cpu_seconds(pid)
                    seconds, status, size = reads(client, path, headers, args.reads)
                    found[kind].append((seconds, cpu_seconds(pid) - cpu, status, size))
    print(f"GET /state of the example of play's campaign, {args.rounds} rounds of {args.reads} reads of each kind")
    print(f"{'read':<26} {'status':>6} {'body bytes':>10} {'median ms':>10} {'p95 ms':>8} {'server CPU µs':>14}")
    for kind, rounds in found.items():
        every = [s for seconds, _, _, _ in rounds for s in seconds]
        median = statistics.median(every) * 1000
        p95 = statistics.quantiles(every, n=20)[-1] * 1000
        cpu = statistics.median(c / args.reads for _, c, _, _ in rounds) * 1e6
        status, size = rounds[-1][2], rounds[-1][3]
        print(f"{kind:<26} {status:>6} {size:>10} {median:>10.2f} {p95:>8.2f} {cpu:>14.0f}")


if __name__ == "__main__":
    main()
