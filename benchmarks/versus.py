"""This checkout's server against another commit's, over HTTP in one sitting: server CPU and rate per one-note append.

    .venv/bin/python benchmarks/versus.py REF [--rounds 16] [--per-round 150] [--clients 1] [--ref-env NAME=VALUE]

Absolute CPU figures move with the machine: the same code read 400 µs of server CPU per append on one host and 550 on
another, where the HTTP floor itself (store.py's bare ASGI app doing the same insert) went from 240 to 430. What a
change did shows in one sitting, both versions taking turns on the same machine. This script exports REF with
`git archive` into a temporary directory, gives it and this checkout each a fresh database migrated by its own
code, serves each with the same uvicorn settings beside the HTTP floor, and has store.py's keep-alive client append
single notes to each in turn: `--rounds` rounds, the order drawn at random each round, each turn a settling stretch
and a timed one of `--per-round` requests from each of `--clients` clients at once (one campaign each). It prints,
per server, the median rate, the server CPU per append (the process's user and system time over all timed
stretches) and its ratio to REF's and to the floor's. With one client the server idles between requests, and on a
virtual machine an idle CPU costs the code after it its warmth (waiting.py); with 32 it seldom idles.
`--ref-env NAME=VALUE` (repeatable) adds to REF's server's environment, for a switch an older commit had.

REF runs on this checkout's virtual environment: a commit whose dependencies differ from these needs its own.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))

# store.py sits beside this script, not in a package.
from store import APPEND_ONE, DEFAULT_SERVER, GAME, ROOT, Connection, Server, create_floor_table  # noqa: E402

# REF's code is imported as `quartermaster` from a folder holding only a link of that name to its export, ahead of
# this checkout's editable install (store.SERVE_ANOTHER does the same for its server).
MIGRATE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from quartermaster.service.platform.migrate import migrate; migrate(sys.argv[2])"
)


def export(ref: str, into: Path) -> str:
    """REF's files, as committed, in `into`; its full commit id."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return commit


def fresh_database(server_url: str, root: Path) -> tuple[str, str]:
    """A new database on the server, migrated by `root`'s own code: its name and URL."""
    name = f"qm_versus_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(server_url, dbname=name)
    subprocess.run([sys.executable, "-c", MIGRATE, str(root), url], check=True)
    return name, url


def sides(ref: str | None, folder: Path) -> list[tuple[str, Path]]:
    """The code to measure in one sitting: REF's export (in `folder`) first when given, then this checkout."""
    measured = [("this checkout", ROOT)]
    if ref:
        other = folder / "ref"
        other.mkdir()
        commit = export(ref, other)
        measured.insert(0, (f"{ref} ({commit[:7]})", other))
    return measured


@contextmanager
def side_database(server_url: str, root: Path) -> Iterator[str]:
    """A fresh database migrated by `root`'s own code, for one side of a sitting, dropped afterwards: its URL."""
    database, url = fresh_database(server_url, root)
    try:
        yield url
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def campaign_of(server: Server) -> tuple[str, dict[str, str]]:
    answer = httpx.post(f"{server.base}/v1/campaigns", json={"name": "Versus", "game": GAME, "options": {}})
    answer.raise_for_status()
    body = answer.json()
    return f"/v1/campaigns/{body['id']}/events", {"Authorization": f"Bearer {body['token']}"}


async def turn(server: Server, targets: list[tuple[str, dict[str, str]]], count: int) -> tuple[float, float]:
    """A settling stretch, then a timed one, each of `count` appends from every client at once (one keep-alive
    connection and one campaign per client): the timed stretch's seconds and the server's CPU seconds."""

    async def client(path: str, headers: dict[str, str], connection: Connection) -> None:
        for _ in range(count):
            status, answer = await connection.post(path, APPEND_ONE, headers)
            if status != 201:
                raise RuntimeError(f"{server.base} answered {status}: {answer[:300]!r}")

    connections = [Connection(server.base) for _ in targets]
    for connection in connections:
        await connection.__aenter__()
    try:
        for timed in (False, True):
            cpu, started = server.cpu_seconds(), asyncio.get_running_loop().time()
            await asyncio.gather(*(client(*target, c) for target, c in zip(targets, connections, strict=True)))
            if timed:
                return asyncio.get_running_loop().time() - started, server.cpu_seconds() - cpu
    finally:
        for connection in connections:
            await connection.__aexit__()
    raise AssertionError("unreachable")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the commit to compare with (a hash, a tag, HEAD~3, ...)")
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--per-round", type=int, default=150, help="appends per client in each stretch")
    parser.add_argument("--clients", type=int, default=1, help="clients at once, each on a campaign of its own")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER)
    parser.add_argument(
        "--ref-env", action="append", default=[], metavar="NAME=VALUE", help="more of REF's server's environment"
    )
    args = parser.parse_args()

    databases: list[str] = []
    servers: dict[str, Server] = {}
    with tempfile.TemporaryDirectory(prefix="qm_versus_") as scratch:
        other = Path(scratch) / "ref"
        other.mkdir()
        commit = export(args.ref, other)
        importable = Path(scratch) / "importable"  # `quartermaster` there is REF's export
        importable.mkdir()
        (importable / "quartermaster").symlink_to(other)
        logs = ROOT / "benchmarks" / "results" / "versus"  # git-ignored, as store.py's results
        try:
            targets: dict[str, list[tuple[str, dict[str, str]]]] = {}
            ref_env = dict(item.split("=", 1) for item in args.ref_env)
            measured = [(commit[:10], importable, ref_env, "ref.log"), ("this checkout", ROOT, None, "this.log")]
            for label, root, env, log in measured:
                name, url = fresh_database(args.database_url, root)
                databases.append(name)
                servers[label] = Server(url, logs / log, root=root, env=env)
                targets[label] = [campaign_of(servers[label]) for _ in range(args.clients)]
            create_floor_table(url)
            servers["HTTP floor"] = Server(url, logs / "floor.log", floor=True)
            targets["HTTP floor"] = [("/floor", {})] * args.clients
            print(
                f"{commit[:10]} against this checkout, beside the HTTP floor: {args.rounds} rounds of "
                f"{args.per_round} appends from each of {args.clients} keep-alive clients"
            )
            seconds: dict[str, list[float]] = {label: [] for label in servers}
            cpu: dict[str, float] = dict.fromkeys(servers, 0.0)
            for label in servers:  # warm-up
                asyncio.run(turn(servers[label], targets[label], args.per_round))
            for number in range(args.rounds):
                order = list(servers)
                random.shuffle(order)
                for label in order:
                    took, spent = asyncio.run(turn(servers[label], targets[label], args.per_round))
                    seconds[label].append(took)
                    cpu[label] += spent
                print(f"  round {number + 1}/{args.rounds}", end="\r", flush=True)
        finally:
            for server in servers.values():
                server.stop()
            with psycopg.connect(args.database_url, autocommit=True) as conn:
                for name in databases:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    n = args.rounds * args.per_round * args.clients
    per_append = {label: cpu[label] / n * 1e6 for label in servers}
    base = per_append[commit[:10]]
    print(f"\n{'server':16} {'appends/s':>10} {'CPU µs/append':>14} {'x ' + commit[:10]:>14} {'x floor':>8}")
    for label in servers:
        rate = statistics.median(args.per_round * args.clients / took for took in seconds[label])
        print(
            f"{label:16} {rate:10,.0f} {per_append[label]:14,.0f} {per_append[label] / base:14.2f}"
            f" {per_append[label] / per_append['HTTP floor']:8.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
