"""CPU per request of the app itself, called as an ASGI app in this process: no sockets, no uvicorn, no client.

    .venv/bin/python benchmarks/asgi_cpu.py [append|health|batch] [--requests N] [--profile PATH] [--rate-limit R]
    .venv/bin/python benchmarks/asgi_cpu.py append --instructions      # under valgrind: instructions per request
    .venv/bin/python benchmarks/asgi_cpu.py append --bytecodes --requests 100       # Python bytecodes per request

The HTTP figures of store.py include uvicorn, the kernel's loopback and the client, which a change to the app does not
move and which swing with the machine. This script leaves them out: it creates a campaign through the API, then sends
N requests straight into `create_app(...)` and prints the process CPU time per request (time.process_time, which
excludes time spent waiting for PostgreSQL). With --profile it records them under cProfile, timed by CPU, writes the
stats to PATH and prints the cost per package, which is where a profile of the append path starts.

CPU time per request still swings with the machine (one-note appends read 270 to 410 µs in six runs of the same code
on a shared host). With --instructions the script runs itself twice under valgrind's callgrind, with 100 and 600
requests, and prints the instructions per request from the difference (start-up, the campaign and the warm-up cancel
out): the same count for the same code, whatever else the machine is doing, which is what an A/B of two versions
wants. It takes a few minutes; valgrind must be installed. The count is not exact: what the process does while it
waits for PostgreSQL (whether the answer is already there when it looks, the event loop's timers, which fire at the
clock's pace while the program runs fifty times slower) moves it by several thousand instructions with the machine's
load, so compare runs made side by side, more than once. With --bytecodes it counts instead the Python bytecodes each
request executes (sys.settrace, a hundred times slower), by function: nearly the same count every run, and where a
change to the Python code shows first.

Kinds: `append` posts one note per request, `batch` 1,000 notes per request, `health` GETs /healthz. Like store.py it
creates a database `qm_asgi_<random>` on --database-url (else $BENCH_DATABASE_URL, else the local server) and drops it.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import logging
import os
import pstats
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from quartermaster.service.app import create_app  # noqa: E402
from quartermaster.service.platform.migrate import migrate  # noqa: E402
from quartermaster.service.platform.settings import Settings  # noqa: E402

try:
    import uvloop
except ImportError:  # Windows: uvicorn runs on asyncio's own loop there
    uvloop = None  # type: ignore[assignment]

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
NOTE = {"type": "note.added", "data": {"text": "The Raker Shoals rule, read aloud once more."}}
WARMUP = 200

Send = Callable[[dict[str, Any]], Awaitable[None]]


async def call(app: Any, method: str, path: str, body: bytes = b"", headers: tuple[tuple[bytes, bytes], ...] = ()):
    """One HTTP request through the ASGI app: its status and body."""
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    await app(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


def _counting(counts: Counter[tuple[str, str]]) -> Any:
    """A sys.settrace tracer counting the bytecodes each function executes."""

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        key = (frame.f_code.co_filename, frame.f_code.co_name)

        def opcode(frame: Any, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[key] += 1
            return opcode

        return opcode

    return tracer


async def measure(
    url: str,
    kind: str,
    requests: int,
    profile: Path | None,
    rate_limit: str,
    bytecodes: Counter[tuple[str, str]] | None,
) -> float:
    # Every setting the default but the rate limit.
    app = create_app(Settings(rate_limit=rate_limit), url)
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    await inbox.put({"type": "lifespan.startup"})
    lifespan = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, inbox.get, outbox.put)
    )
    started = await outbox.get()
    if started["type"] != "lifespan.startup.complete":
        raise RuntimeError(f"The app did not start: {started}")
    # The request log stays on, as in production, but goes nowhere rather than onto the terminal.
    for handler in logging.getLogger("quartermaster").handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(open(os.devnull, "w"))  # noqa: SIM115 (lives as long as the process)
    try:
        status, answer = await call(
            app,
            "POST",
            "/v1/campaigns",
            json.dumps({"name": "Profiled voyage", "game": "pacg-skull-and-shackles"}).encode(),
        )
        if status != 201:
            raise RuntimeError(f"Starting a campaign answered {status}: {answer[:300]!r}")
        campaign = json.loads(answer)
        auth = ((b"authorization", f"Bearer {campaign['token']}".encode()),)
        events_path = f"/v1/campaigns/{campaign['id']}/events"
        one = json.dumps({"events": [NOTE]}).encode()
        thousand = json.dumps({"events": [{**NOTE, "data": {"text": f"note {i}"}} for i in range(1000)]}).encode()

        async def request() -> None:
            if kind == "health":
                status, answer = await call(app, "GET", "/healthz")
                expected = 200
            else:
                status, answer = await call(app, "POST", events_path, one if kind == "append" else thousand, auth)
                expected = 201
            if status != expected:
                raise RuntimeError(f"{kind} answered {status}: {answer[:300]!r}")

        for _ in range(WARMUP if kind != "batch" else 3):
            await request()
        profiler = cProfile.Profile(time.process_time) if profile else None
        cpu = time.process_time()
        if profiler:
            profiler.enable()
        tracing = bytecodes is not None and sys.gettrace() is None
        if tracing and bytecodes is not None:
            sys.settrace(_counting(bytecodes))
        for _ in range(requests):
            await request()
        if tracing:
            sys.settrace(None)
        if profiler:
            profiler.disable()
        spent = (time.process_time() - cpu) / requests
        if profiler and profile:
            profiler.dump_stats(profile)
        return spent
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        await outbox.get()
        await lifespan


def by_package(path: Path, requests: int, top: int = 15) -> str:
    """The profile's own time per package (or per module of this project), per request."""
    spent: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for (filename, _, name), (_, calls, own, _, _) in pstats.Stats(str(path)).stats.items():  # type: ignore[attr-defined]
        if "site-packages/" in filename:
            key = filename.split("site-packages/")[1].split("/")[0]
        elif filename.startswith(str(ROOT)):
            key = "/".join(Path(filename).relative_to(ROOT).parts[:2])
        elif "python3" in filename:
            key = "stdlib " + Path(filename).stem
        else:
            key = name
        spent[key][0] += calls
        spent[key][1] += own
    rows = sorted(spent.items(), key=lambda item: -item[1][1])[:top]
    return "\n".join(
        f"{key:45} {calls / requests:7.0f} calls {own / requests * 1e6:8.0f} µs" for key, (calls, own) in rows
    )


def count_instructions(kind: str, database_url: str, rate_limit: str) -> int:
    """Instructions per request: this script under callgrind with `low` and `high` requests, the difference."""
    low, high = (2, 12) if kind == "batch" else (100, 600)
    totals = []
    with tempfile.TemporaryDirectory() as scratch:
        for requests in (low, high):
            out = Path(scratch) / f"callgrind.{requests}"
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__, kind]
            command += ["--requests", str(requests), "--database-url", database_url, "--rate-limit", rate_limit]
            subprocess.run(command, check=True, capture_output=True)
            # callgrind's own summary line: "summary: <instructions>"
            summary = next(line for line in out.read_text().splitlines() if line.startswith("summary:"))
            totals.append(int(summary.split()[1]))
    per_request = (totals[1] - totals[0]) / (high - low)
    print(f"{kind}: {per_request:,.0f} instructions per request (callgrind, {low} and {high})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["append", "health", "batch"], nargs="?", default="append")
    parser.add_argument("--requests", type=int, help="requests timed (default 3,000; 30 for batch)")
    parser.add_argument("--profile", type=Path, help="write cProfile stats (CPU-timed) here and print them by package")
    parser.add_argument("--rate-limit", default=Settings.rate_limit, help='the app\'s rate limit, or "off"')
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER)
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions per request under valgrind's callgrind"
    )
    parser.add_argument("--bytecodes", action="store_true", help="count the Python bytecodes each request executes")
    args = parser.parse_args()
    if args.instructions:
        return count_instructions(args.kind, args.database_url, args.rate_limit)
    requests = args.requests or (30 if args.kind == "batch" else 3000)

    name = f"qm_asgi_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(args.database_url, dbname=name)
    try:
        migrate(url)
        counts: Counter[tuple[str, str]] = Counter()
        run = measure(url, args.kind, requests, args.profile, args.rate_limit, counts if args.bytecodes else None)
        spent = uvloop.run(run) if uvloop is not None else asyncio.run(run)
    finally:
        with psycopg.connect(args.database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    what = "profiled, so inflated" if args.profile else "not profiled"
    print(f"{args.kind}: {requests} requests, {spent * 1e6:,.0f} µs of CPU per request ({what})")
    if args.profile:
        print(f"\nown CPU per request by package (stats in {args.profile}):\n{by_package(args.profile, requests)}")
    if args.bytecodes:
        print(f"\n{sum(counts.values()) / requests:,.0f} Python bytecodes per request; the functions executing most:")
        for (filename, name), count in counts.most_common(25):
            where = filename.replace(str(ROOT) + "/", "").split("site-packages/")[-1]
            print(f"{count / requests:7.0f}  {where}:{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
