"""Three PostgreSQL 15 nodes under Patroni with one etcd, on loopback, in strict synchronous mode, behind one
`quartermaster serve` given all three: the leader is SIGKILLed (its Patroni and its PostgreSQL) while four writers
append. Nothing acknowledged is lost or doubled, positions stay gapless, the same `serve` goes on, `/readyz` is
ready only once an append can complete, and the old leader, started again, rejoins as a replica.

Debian's patroni and etcd-server packages and PostgreSQL 15 are needed; without them the test skips with a sentence,
except in CI, where .ci/run installs them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from tests.faults.servers import free_port, serve
from tests.faults.standby import Folder

pytestmark = pytest.mark.slow

BIN = Path("/usr/lib/postgresql/15/bin")


def _needed() -> None:
    missing = [name for name in ("patroni", "etcd") if not shutil.which(name)]
    missing += [] if (BIN / "postgres").exists() else ["PostgreSQL 15"]
    if missing:
        reason = (
            f"The Patroni fault test needs {', '.join(missing)} (apt-get install patroni etcd-server postgresql-15)."
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " CI runs it; .ci/run installs them.")
        pytest.skip(reason)


class Node:
    def __init__(self, folder: Path, name: str, etcd: int, as_user: list[str]) -> None:
        self.name, self.rest, self.port = name, free_port(), free_port()
        self.config = folder / f"{name}.yml"
        self.config.write_text(  # readable by the servers' user: the folder is its own
            f"""scope: quartermaster
name: {name}
restapi: {{listen: 127.0.0.1:{self.rest}, connect_address: 127.0.0.1:{self.rest}}}
etcd3: {{hosts: 127.0.0.1:{etcd}}}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 0
    synchronous_mode: true
    synchronous_mode_strict: true
    synchronous_node_count: 1
    postgresql: {{use_pg_rewind: true, parameters: {{wal_log_hints: "on"}}}}
  pg_hba:
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:{self.port}
  connect_address: 127.0.0.1:{self.port}
  data_dir: {folder / name}
  bin_dir: {BIN}
  authentication:
    replication: {{username: replicator, password: rep}}
    superuser: {{username: postgres, password: pg}}
    rewind: {{username: postgres, password: pg}}
"""
        )
        self.log = folder / f"{name}.log"
        self.data = folder / name
        self.as_user = as_user
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("a") as out:
            command = [*self.as_user, "patroni", str(self.config)]
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)

    def kill(self) -> None:
        """SIGKILL the node: its Patroni and every PostgreSQL process under it."""
        assert self.process is not None
        tree = psutil.Process(self.process.pid)
        doomed = [*tree.children(recursive=True), tree]
        # Patroni starts PostgreSQL detached from itself (so that a restart of Patroni leaves it running): the
        # postmaster is found from its pid file.
        pidfile = self.data / "postmaster.pid"
        if pidfile.exists():
            postmaster = psutil.Process(int(pidfile.read_text().split("\n", 1)[0]))
            doomed += [postmaster, *postmaster.children(recursive=True)]
        for process in doomed:
            try:
                process.send_signal(signal.SIGKILL)
            except psutil.NoSuchProcess:
                pass
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        for process in psutil.Process(self.process.pid).children(recursive=True):
            if process.name().startswith("patroni") or "patroni" in " ".join(process.cmdline()):
                process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.kill()


def _members(nodes: list[Node]) -> list[dict[str, Any]]:
    for node in nodes:
        try:
            return list(httpx.get(f"http://127.0.0.1:{node.rest}/cluster", timeout=2).json()["members"])
        except (httpx.HTTPError, ValueError, KeyError):
            continue
    return []


def _wait(what: str, check: Any, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    raise AssertionError(f"{what} within {timeout} s")


def test_the_leader_killed_under_load_loses_nothing_acknowledged_and_rejoins_as_a_replica(tmp_path):
    _needed()
    folder = Folder()  # under /tmp, owned by the user PostgreSQL runs as (it refuses root)
    try:
        _drill(folder.path, ["runuser", "-u", folder.user, "--"] if folder.user else [], tmp_path)
    finally:
        folder.remove()


def _drill(tmp_path: Path, as_user: list[str], serving: Path) -> None:
    client_port, peer_port = free_port(), free_port()
    with (tmp_path / "etcd.log").open("w") as out:
        etcd = subprocess.Popen(
            [
                *as_user, "etcd", "--name", "one", "--data-dir", str(tmp_path / "etcd"),
                "--listen-client-urls", f"http://127.0.0.1:{client_port}",
                "--advertise-client-urls", f"http://127.0.0.1:{client_port}",
                "--listen-peer-urls", f"http://127.0.0.1:{peer_port}",
                "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer_port}",
                "--initial-cluster", f"one=http://127.0.0.1:{peer_port}",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    nodes = [Node(tmp_path, f"n{i}", client_port, as_user) for i in (1, 2, 3)]
    served = None
    try:
        for node in nodes:
            node.start()
            time.sleep(1)  # the first to start bootstraps the cluster
        _wait(
            "a leader, a synchronous standby and a replica running",
            lambda: (
                sorted(m["role"] for m in _members(nodes) if m["state"] in ("running", "streaming"))
                == ["leader", "replica", "sync_standby"]
            ),
        )
        hosts = ",".join(f"127.0.0.1:{n.port}" for n in nodes)
        url = f"postgresql://postgres:pg@{hosts}/postgres?target_session_attrs=read-write&connect_timeout=2"
        served = serve(serving, database_url=url, env={"QUARTERMASTER_RATE_LIMIT": "off"})
        served.wait_ready(120)
        made = httpx.post(f"{served.url}/v1/campaigns", json={"name": "HA", "game": "pacg-skull-and-shackles"}).json()
        owner = {"Authorization": f"Bearer {made['token']}"}
        acknowledged: list[str] = []
        stop = threading.Event()

        def write() -> None:
            with httpx.Client(base_url=served.url, timeout=15) as client:
                while not stop.is_set():
                    body = {"events": [{"id": str(uuid.uuid4()), "type": "note.added", "data": {"text": "x"}}]}
                    for _ in range(50):  # the same ids again until recorded: never a second copy
                        try:
                            if client.post(f"/v1/campaigns/{made['id']}/events", json=body, headers=owner).is_success:
                                acknowledged.append(body["events"][0]["id"])
                                break
                        except httpx.HTTPError:
                            pass
                        time.sleep(0.2)

        writers = [threading.Thread(target=write, daemon=True) for _ in range(4)]
        for writer in writers:
            writer.start()
        _wait("some appends", lambda: len(acknowledged) > 20, 30)
        leader = next(n for n in nodes if any(m["name"] == n.name and m["role"] == "leader" for m in _members(nodes)))
        leader.kill()
        killed = time.monotonic()
        _wait(
            "a new leader", lambda: any(m["role"] == "leader" for m in _members([n for n in nodes if n is not leader]))
        )

        def ready() -> bool:
            try:
                return httpx.get(f"{served.url}/readyz", timeout=3).status_code == 200
            except httpx.HTTPError:
                return False

        _wait("/readyz ready again", ready)
        ready_after = time.monotonic() - killed
        # Ready means a commit completes now: an append answers at once.
        probe = httpx.post(
            f"{served.url}/v1/campaigns/{made['id']}/events",
            json={"events": [{"type": "note.added", "data": {"text": "ready"}}]},
            headers=owner,
            timeout=3,
        )
        assert probe.status_code == 201, probe.text
        time.sleep(2)
        stop.set()
        for writer in writers:
            writer.join(30)
        events: list[dict[str, Any]] = []
        while True:
            page = httpx.get(
                f"{served.url}/v1/campaigns/{made['id']}/events",
                params={"after": events[-1]["position"] if events else 0, "limit": 1000},
                headers=owner,
            ).json()
            events += page["events"]
            if not page.get("next"):
                break
        ids = [e["id"] for e in events]
        assert set(acknowledged) <= set(ids), "an acknowledged append was lost"
        assert len(ids) == len(set(ids)), "an append was recorded twice"
        assert [e["position"] for e in events] == list(range(1, len(events) + 1))
        assert served.process.poll() is None, "serve had to be restarted"
        assert ready_after < 60

        leader.start()
        _wait(
            "the old leader back as a replica",
            lambda: any(
                m["name"] == leader.name
                and m["role"] in ("replica", "sync_standby")
                and m["state"] in ("running", "streaming")
                for m in _members(nodes)
            ),
        )
    finally:
        if served is not None and served.process.poll() is None:
            served.process.terminate()
            served.process.wait(30)
        for node in nodes:
            node.stop()
        etcd.terminate()
        etcd.wait(10)
