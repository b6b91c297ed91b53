"""Capacity: how many tables one `quartermaster serve` process holds at the latency goals, this checkout against the
code before it, in one run.

    .venv/bin/python benchmarks/capacity.py --before /work/wt/before [--levels 400,600,800,...] [--seconds 60]

Not a test: it never fails on time. A table is a Skull & Shackles campaign set up as the rulebook's Example of Play
(three characters, a scenario with its locations, the vault), followed by four phones, each holding the table page's
live stream open (`/stream?views=true`, raw HTTP/1.1 over asyncio streams in this process) and making the page's own
reads after each event: 150 ms after the last event it heard (the page's own delay before it redraws), each phone
shows its open tab (the state, the scenario, a character, the fleet), from what the stream sent when it sent that view
as of that position, else with a GET, as the page does. One of the table's phones logs an event every 10 s on average
(waits drawn from an exponential distribution: a check rolled, or a note, over a keep-alive connection of its own).

Each side (`--before`: a checkout of the code before, with its own `.venv`, its `quartermaster serve` whatever its
package names; and this checkout) gets a fresh database on `--database` and one `serve` process, loopback only. The
tables are added level by level (`--levels`), the load running all along; at each level, after `--settle` seconds,
a window of `--seconds` seconds counts:

- every append sent in it: its latency (p50, p99) and anything but a 201;
- every follower's delivery of each of those events: from the append's request to the phone reading the event
  (p50, p99), and any event a phone has not read `--grace` seconds after the window (missed);
- a stream that ended or answered other than 200 (an error: the phone follows again from its last event), and a
  page read that answered other than 200;
- `/healthz` asked every 100 ms on a connection of its own: its longest answer is the longest stall a request met;
- the server's CPU (its process), this load generator's own (so it is never the hidden limit), the machine's load
  average; and, where the server says it on `/metrics`, the collector's longest pause: in the window (the bound of
  its passes' histogram the longest fitted under) and since the server started.

A level holds when append p99 < 100 ms, delivery p99 < 250 ms, and nothing failed or was missed; a side stops at
its first level that does not hold, and its capacity is the largest level that held. Both sides run in turn, the code
before first, each on a machine as quiet as it is: the load average is printed beside each level, since other work on
the machine moves every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.unit.pacg.example_of_play import OPTIONS, SETTING_UP  # noqa: E402

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
GAME = "pacg-skull-and-shackles"
APPEND_P99_MS = 100.0
LIVE_P99_MS = 250.0
# The page redraws its open tab this long after the last event it heard (service/page/static/app.js, `changed`).
REDRAW = 0.150
PHONES = 4
MEAN_WAIT = 10.0
CHARACTERS = ("lirianne", "seltyiel", "alahazra")
# The tabs a phone may hold open, as the page reads them (each is among the views the stream sends).
TABS = ("/state", "/scenario", "/characters/lirianne", "/characters/seltyiel", "/fleet")

ID = re.compile(rb"^id: (\d+)", re.M)
POSITION = re.compile(rb'"position":(\d+)')
LAST = re.compile(rb'"last_position":(\d+)')
PAUSE = re.compile(rb"^quartermaster_gc_longest_pause_seconds(?:\{[^}]*\})? ([0-9.e+-]+)", re.M)
BUCKET = re.compile(rb'^quartermaster_gc_pass_seconds_bucket\{le="([^"]+)"\} ([0-9.e+-]+)', re.M)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- a minimal keep-alive HTTP/1.1 client (httpx spends a millisecond of CPU a request: the load would measure it) --


# What `Http._once` answers for a connection that ended before any byte of an answer.
UNANSWERED = -1


class Http:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[int, bytes]:
        # The server closes a connection left idle past its keep-alive timeout (uvicorn: 5 s), as it may: a browser
        # then opens another, and so does this client. When the close crosses the request on the wire (a reused
        # connection ends before any byte of an answer), a browser sends the request again on a new connection
        # (RFC 9110, section 9.2.2), and so does this client, once: it is no error of the server's.
        reused = not (
            self.writer is None or self.writer.is_closing() or (self.reader is not None and self.reader.at_eof())
        )
        status, answer = await self._once(method, path, body, headers)
        if status == UNANSWERED and reused:
            status, answer = await self._once(method, path, body, headers)
        return max(status, 0), answer

    async def _once(self, method: str, path: str, body: bytes, headers: str) -> tuple[int, bytes]:
        if self.writer is None or self.writer.is_closing() or (self.reader is not None and self.reader.at_eof()):
            self.close()
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        length = f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n" if body else ""
        self.writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{length}{headers}\r\n".encode() + body)
        try:
            try:
                first = await self.reader.readline()
            except ConnectionError:  # reset before any byte of an answer: the same as a close (above)
                first = b""
            if not first:
                self.close()
                return UNANSWERED, b""
            status = int(first.split(b" ", 2)[1])
            size = 0
            chunked = False
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    size = int(value)
                elif name == b"transfer-encoding" and b"chunked" in value.lower():
                    chunked = True
            if not chunked:
                return status, await self.reader.readexactly(size)
            parts = []
            while (chunk := int((await self.reader.readline()).strip(), 16)) > 0:
                parts.append(await self.reader.readexactly(chunk + 2))
            await self.reader.readline()
            return status, b"".join(p[:-2] for p in parts)
        except (IndexError, ValueError, asyncio.IncompleteReadError, ConnectionError):
            self.close()
            return 0, b""

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


# -- the simulated tables ------------------------------------------------------------------------------------------


@dataclass
class Window:
    """What one level's measured window saw."""

    start: float
    end: float = 0.0
    append_ms: list[float] = field(default_factory=list)
    append_errors: int = 0
    append_failures: dict[int, int] = field(default_factory=dict)  # by status (0: no answer at all)
    sent: dict[tuple[int, int], float] = field(default_factory=dict)  # (table, position) -> time the append was sent
    stream_errors: int = 0
    read_errors: int = 0
    reads: int = 0
    redraws: int = 0
    events_seen: int = 0

    def open(self, now: float) -> bool:
        return self.start <= now and (not self.end or now <= self.end)


class Load:
    """Every table's phones and writer, and the window being measured."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.tables: list[Table] = []
        self.window: Window | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.stopping = False


class Phone:
    def __init__(self, table: Table, number: int) -> None:
        self.table = table
        self.tab = TABS[(table.number + number) % len(TABS)]
        self.last = table.position
        self.views_at = -1
        self.received: dict[int, float] = {}
        self.redraw: asyncio.TimerHandle | None = None
        self.reading: Http | None = None
        self.opened = asyncio.Event()

    async def follow(self, load: Load) -> None:
        table = self.table
        headers = f"Authorization: Bearer {table.token}\r\nAccept: text/event-stream\r\n"
        while not load.stopping:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", load.port)
                writer.write(
                    f"GET /v1/campaigns/{table.id}/stream?after={self.last}&views=true HTTP/1.1\r\n"
                    f"Host: 127.0.0.1\r\n{headers}Last-Event-ID: {self.last}\r\n\r\n".encode()
                )
                status = await reader.readline()
                if b" 200 " not in status:
                    raise ConnectionError(status)
                while await reader.readline() not in (b"\r\n", b""):
                    pass
                self.opened.set()
                tail = b""
                while True:
                    chunk = await reader.read(262144)
                    if not chunk:
                        break
                    now = time.perf_counter()
                    messages = (tail + chunk).split(b"\r\n\r\n")
                    tail = messages.pop()
                    for text in messages:
                        self.heard(load, text, now)
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            if load.stopping:
                return
            window = load.window
            if window is not None and window.open(time.perf_counter()):
                window.stream_errors += 1
            await asyncio.sleep(0.5)

    def heard(self, load: Load, text: bytes, now: float) -> None:
        # Each message's data is one line; the chunked framing of the answer sits between messages, where a line of
        # its own (a chunk's size) is no field of a message.
        if b"event: views" in text:
            found = POSITION.search(text)
            if found:
                self.views_at = max(self.views_at, int(found.group(1)))
            return
        if b"event: closing" in text:
            return
        found = ID.search(text)
        if found is None or b"event: event" not in text:
            return
        position = int(found.group(1))
        if position <= self.last:
            return
        self.last = position
        self.received[position] = now
        window = load.window
        if window is not None:
            window.events_seen += 1
        if self.redraw is not None:
            self.redraw.cancel()
        self.redraw = asyncio.get_running_loop().call_later(REDRAW, self.redraw_tab, load)

    def redraw_tab(self, load: Load) -> None:
        self.redraw = None
        window = load.window
        if window is not None:
            window.redraws += 1
        if self.views_at >= self.last:
            return  # the stream sent the open tab's answer as of this position: no request
        load.tasks.append(asyncio.create_task(self.read_tab(load)))

    async def read_tab(self, load: Load) -> None:
        if self.reading is None:
            self.reading = Http(load.port)
        status, _ = await self.reading.request(
            "GET", f"/v1/campaigns/{self.table.id}{self.tab}", headers=f"Authorization: Bearer {self.table.token}\r\n"
        )
        window = load.window
        if window is not None and window.open(time.perf_counter()):
            window.reads += 1
            if status != 200:
                window.read_errors += 1


class Table:
    def __init__(self, number: int, campaign_id: str, token: str, position: int) -> None:
        self.number = number
        self.id = campaign_id
        self.token = token
        self.position = position
        self.phones = [Phone(self, n) for n in range(PHONES)]
        self.rolls = 0

    def event(self) -> bytes:
        self.rolls += 1
        who = CHARACTERS[self.rolls % len(CHARACTERS)]
        if self.rolls % 4 == 0:
            return json.dumps({"events": [{"type": "note.added", "data": {"text": f"{who} hums a shanty."}}]}).encode()
        face = 1 + self.rolls % 8
        roll = {
            "character_id": who,
            "purpose": "check",
            "skill": "Dexterity",
            "difficulty": 6,
            "dice": [{"sides": 8, "face": face}],
            "total": face,
            "success": face >= 6,
        }
        return json.dumps({"events": [{"type": "dice.rolled", "data": roll}]}).encode()

    async def write(self, load: Load) -> None:
        http = Http(load.port)
        path = f"/v1/campaigns/{self.id}/events"
        headers = f"Authorization: Bearer {self.token}\r\n"
        await asyncio.sleep(random.uniform(0, MEAN_WAIT))
        while not load.stopping:
            body = self.event()
            begun = time.perf_counter()
            status, answer = await http.request("POST", path, body, headers)
            done = time.perf_counter()
            window = load.window
            counted = window is not None and window.open(begun)
            if status == 201:
                found = LAST.search(answer)
                if found is not None:
                    self.position = int(found.group(1))
                    if counted:
                        assert window is not None
                        window.sent[(self.number, self.position)] = begun
            if counted:
                assert window is not None
                window.append_ms.append((done - begun) * 1000)
                if status != 201:
                    window.append_errors += 1
                    window.append_failures[status] = window.append_failures.get(status, 0) + 1
            await asyncio.sleep(random.expovariate(1 / MEAN_WAIT))
        http.close()


async def new_table(http: Http, number: int) -> Table:
    status, answer = await http.request(
        "POST", "/v1/campaigns", json.dumps({"name": f"Table {number}", "game": GAME, "options": OPTIONS}).encode()
    )
    if status != 201:
        raise RuntimeError(f"creating a campaign answered {status}: {answer[:300]!r}")
    created = json.loads(answer)
    headers = f"Authorization: Bearer {created['token']}\r\n"
    status, answer = await http.request(
        "POST", f"/v1/campaigns/{created['id']}/events", json.dumps({"events": SETTING_UP}).encode(), headers
    )
    if status != 201:
        raise RuntimeError(f"setting up a table answered {status}: {answer[:300]!r}")
    return Table(number, created["id"], created["token"], json.loads(answer)["last_position"])


async def add_tables(load: Load, count: int) -> None:
    """`count` more tables, each set up and followed by its phones, its writer started."""
    numbers = iter(range(len(load.tables), len(load.tables) + count))
    made: list[Table] = []

    async def maker() -> None:
        http = Http(load.port)
        for number in numbers:
            made.append(await new_table(http, number))
        http.close()

    await asyncio.gather(*(maker() for _ in range(4)))
    made.sort(key=lambda table: table.number)  # load.tables[n] is table n
    for table in made:
        for phone in table.phones:
            load.tasks.append(asyncio.create_task(phone.follow(load)))
    await asyncio.gather(*(asyncio.wait_for(p.opened.wait(), 60) for t in made for p in t.phones))
    for table in made:
        load.tasks.append(asyncio.create_task(table.write(load)))
    load.tables.extend(made)


async def probe(load: Load, stalls: list[float]) -> None:
    """`/healthz` every 100 ms: how long a request that does nothing waited."""
    http = Http(load.port)
    while not load.stopping:
        begun = time.perf_counter()
        await http.request("GET", "/healthz")
        stalls.append((time.perf_counter() - begun) * 1000)
        await asyncio.sleep(0.1)
    http.close()


# -- a side: one server, its levels ---------------------------------------------------------------------------------


@dataclass
class Level:
    tables: int
    append_p50: float
    append_p99: float
    live_p50: float
    live_p99: float
    appends: int
    deliveries: int
    missed: int
    errors: int
    reads_per_event: float
    longest_stall_ms: float
    server_cpu: float  # share of one core
    client_cpu: float
    load_average: float
    gc_pause_ms: float | None  # the longest pass since the server started
    window_pause_ms: float | None  # the bound the window's longest pass fitted under (inf: over the last bound)

    @property
    def holds(self) -> bool:
        return self.append_p99 < APPEND_P99_MS and self.live_p99 < LIVE_P99_MS and self.missed == 0 and self.errors == 0


def server_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def pauses(port: int) -> tuple[float | None, dict[float, float]]:
    """The server's longest collector pass since it started (ms), and its passes' histogram (bound: passes under
    it), where `/metrics` says them."""
    http = Http(port)
    status, text = await http.request("GET", "/metrics")
    http.close()
    found = PAUSE.search(text) if status == 200 else None
    buckets = {float(bound): float(count) for bound, count in BUCKET.findall(text)} if status == 200 else {}
    return (float(found.group(1)) * 1000 if found else None), buckets


def longest_between(before: dict[float, float], after: dict[float, float]) -> float | None:
    """The bound (ms) under which the longest pass between two readings of the histogram fitted."""
    if not before or not after:
        return None
    longest = 0.0
    below = 0.0
    for bound in sorted(after):
        passes = after[bound] - before.get(bound, 0.0)
        if passes > below:
            longest = bound * 1000
        below = passes
    return longest


async def measure(load: Load, pid: int, seconds: float, grace: float) -> Level:
    stalls: list[float] = []
    window = load.window = Window(start=time.perf_counter())
    prober = asyncio.create_task(probe(load, stalls))
    cpu, mine = server_cpu_seconds(pid), time.process_time()
    _, histogram = await pauses(load.port)
    await asyncio.sleep(seconds)
    window.end = time.perf_counter()
    server = (server_cpu_seconds(pid) - cpu) / seconds
    client = (time.process_time() - mine) / seconds
    since_start, histogram_after = await pauses(load.port)
    await asyncio.sleep(grace)
    prober.cancel()
    load.window = None
    delays: list[float] = []
    missed = 0
    for (number, position), sent in window.sent.items():
        for phone in load.tables[number].phones:
            seen = phone.received.get(position)
            if seen is None:
                missed += 1
            else:
                delays.append((seen - sent) * 1000)
    for table in load.tables:  # what every phone keeps is only for the window
        for phone in table.phones:
            phone.received.clear()
    if window.append_errors or window.stream_errors or window.read_errors:
        print(
            f"  errors at {len(load.tables)} tables: {window.append_errors} appends {window.append_failures}, "
            f"{window.stream_errors} streams, "
            f"{window.read_errors} page reads",
            file=sys.stderr,
            flush=True,
        )
    return Level(
        tables=len(load.tables),
        append_p50=pct(window.append_ms, 0.5),
        append_p99=pct(window.append_ms, 0.99),
        live_p50=pct(delays, 0.5),
        live_p99=pct(delays, 0.99),
        appends=len(window.append_ms),
        deliveries=len(delays),
        missed=missed,
        errors=window.append_errors + window.stream_errors + window.read_errors,
        reads_per_event=window.reads / max(1, window.events_seen),
        longest_stall_ms=max(stalls, default=float("nan")),
        server_cpu=server,
        client_cpu=client,
        load_average=os.getloadavg()[0],
        gc_pause_ms=since_start,
        window_pause_ms=longest_between(histogram, histogram_after),
    )


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fresh_database(server_url: str) -> str:
    name = f"qm_capacity_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return psycopg.conninfo.make_conninfo(server_url, dbname=name)


def drop_database(server_url: str, url: str) -> None:
    name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_side(name: str, checkout: Path, args: argparse.Namespace, log_dir: Path) -> list[Level]:
    url = fresh_database(args.database)
    port = free_port()
    log = (log_dir / f"{name}.log").open("wb")
    command = [str(checkout / ".venv" / "bin" / "quartermaster"), "serve", "--port", str(port), "--database-url", url]
    env = {**os.environ, "QUARTERMASTER_RATE_LIMIT": "off"}
    env.pop("PYTHONPATH", None)
    server = subprocess.Popen(command, cwd=checkout, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        return asyncio.run(drive(name, server, port, args))
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        drop_database(args.database, url)


async def drive(name: str, server: subprocess.Popen[bytes], port: int, args: argparse.Namespace) -> list[Level]:
    deadline = time.monotonic() + 60
    http = Http(port)
    while True:
        try:
            if (await http.request("GET", "/readyz"))[0] == 200:
                break
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the {name} server did not start (see its log)")
        await asyncio.sleep(0.2)
    http.close()
    load = Load(port)
    levels: list[Level] = []
    ends = time.monotonic() + args.budget
    try:
        for count in args.levels:
            if count > len(load.tables):
                await add_tables(load, count - len(load.tables))
            await asyncio.sleep(args.settle)
            level = await measure(load, server.pid, args.seconds, args.grace)
            levels.append(level)
            print(f"  {name}: {row(level)}", file=sys.stderr, flush=True)
            if not level.holds or time.monotonic() > ends:
                break
    finally:
        load.stopping = True
        for task in load.tasks:
            task.cancel()
        await asyncio.gather(*load.tasks, return_exceptions=True)
    return levels


def row(level: Level) -> str:
    pause = f"{level.gc_pause_ms:,.0f}" if level.gc_pause_ms is not None else "—"
    if level.window_pause_ms is not None:
        pause = f"≤ {level.window_pause_ms:,.0f} ({pause})"
    return (
        f"| {level.tables:,} | {level.append_p50:.0f} / {level.append_p99:.0f} | {level.live_p50:.0f} / "
        f"{level.live_p99:.0f} | {level.appends:,} | {level.deliveries:,} | {level.missed} | {level.errors} | "
        f"{level.reads_per_event:.2f} | {level.longest_stall_ms:,.0f} | {pause} | {level.server_cpu:.0%} | "
        f"{level.client_cpu:.0%} | {level.load_average:.1f} | {'holds' if level.holds else 'breaks'} |"
    )


HEADER = (
    "| tables | append p50 / p99 ms | live p50 / p99 ms | appends | deliveries | missed | errors | page reads per "
    "event heard | longest /healthz ms | longest collection in the window (since start) ms | server CPU | load "
    "generator CPU | load average | |\n"
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
)


def capacity(levels: list[Level]) -> int:
    held = [level.tables for level in levels if level.holds]
    return max(held, default=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="a checkout of the code before, with its own .venv")
    parser.add_argument("--database", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_SERVER))
    parser.add_argument(
        "--levels",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[400, 600, 800, 1000, 1200, 1500, 1800, 2000, 2400],
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window of each level")
    parser.add_argument("--settle", type=float, default=10.0, help="load before each window, once tables are added")
    parser.add_argument("--grace", type=float, default=3.0, help="after a window, for its last deliveries")
    parser.add_argument("--logs", help="keep the servers' logs in this folder (else they go with the run)")
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds a side may take before its last level")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    # The load generator's own pauses would count against the server: keep its collector out of the way too.
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    try:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass

    sides = [("after", ROOT)]
    if args.before is not None:
        sides.insert(0, ("before", args.before.resolve()))
    # A checkout exported with `git archive` has no .git of its own: it is named by its folder then.
    commits = {
        name: subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=path, capture_output=True, text=True
        ).stdout.strip()
        if (path / ".git").exists()
        else path.name
        for name, path in sides
    }
    results: dict[str, list[Level]] = {}
    with tempfile.TemporaryDirectory(prefix="qm-capacity-") as logs:
        logs = args.logs or logs
        Path(logs).mkdir(parents=True, exist_ok=True)
        for name, path in sides:
            print(f"{name} ({commits[name]}): levels {args.levels}", file=sys.stderr, flush=True)
            results[name] = run_side(name, path, args, Path(logs))
    print(
        f"{os.cpu_count()} cores, {args.seconds:.0f} s windows after {args.settle:.0f} s of load, "
        f"{PHONES} phones a table, one event every {MEAN_WAIT:.0f} s a table on average; the file limit {hard:,}"
    )
    for name, levels in results.items():
        print(f"\n{name} ({commits[name]}): {capacity(levels):,} tables hold\n\n{HEADER}")
        for level in levels:
            print(row(level))
    if "before" in results:
        before, after = capacity(results["before"]), capacity(results["after"])
        ratio = f"{after / before:.2f}x" if before else "—"
        print(f"\ncapacity: {after:,} tables against {before:,} before: {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
