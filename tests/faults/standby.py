"""PostgreSQL clusters of their own from Debian's binaries, for the two-server fault tests: a primary, a standby made
with `pg_basebackup -R` and made synchronous, a SIGKILL, a promotion, an older copy put back.

PostgreSQL refuses to run as root: run as root (as CI does), every command runs as the `postgres` user Debian's
package makes, in a folder of its own under /tmp that it owns (pytest's tmp_path is under a folder only root may
enter).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
import pytest

from tests.faults.servers import free_port, wait_gone

BIN = Path("/usr/lib/postgresql/15/bin")
NEEDED = ("initdb", "pg_ctl", "pg_basebackup", "postgres")


def binaries_or_skip() -> None:
    """Skip with a sentence where Debian's PostgreSQL 15 is missing; never in CI, which must run these tests."""
    missing = [name for name in NEEDED if not (BIN / name).exists()]
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            missing.append("the postgres user")
    if missing:
        reason = (
            f"Debian's PostgreSQL 15 is needed for the two-server tests and {', '.join(missing)} is missing "
            "(apt-get install postgresql-15)."
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " CI runs these tests; .ci/run installs the package.")
        pytest.skip(reason)


class Folder:
    """A folder under /tmp owned by the user the servers run as, removed at the end."""

    def __init__(self) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="qm-standby-", dir="/tmp"))
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.path, entry.pw_uid, entry.pw_gid)

    def run(self, *command: str, timeout: float = 60) -> str:
        """A PostgreSQL command, as the servers' user; its output, or a failure that shows it."""
        full = [str(BIN / command[0]), *command[1:]]
        if self.user:
            full = ["runuser", "-u", self.user, "--", *full]
        done = subprocess.run(full, capture_output=True, text=True, timeout=timeout, cwd=self.path)
        if done.returncode != 0:
            raise AssertionError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        return done.stdout

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


class Cluster:
    """One PostgreSQL server (a data folder and a port) of a Folder."""

    def __init__(self, folder: Folder, name: str, port: int | None = None) -> None:
        self.folder = folder
        self.name = name
        self.data = folder.path / name
        self.port = port or free_port()

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def init(self) -> Cluster:
        self.folder.run("initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres", "--encoding=utf8")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write("listen_addresses = '127.0.0.1'\nunix_socket_directories = ''\nmax_connections = 60\n")
        return self

    def start(self) -> Cluster:
        self.folder.run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.folder.path / f"{self.name}.log"), "-w", "-t", "60",
            "-o", f"-p {self.port}", "start",
        )  # fmt: skip
        return self

    def stop(self, mode: str = "fast") -> None:
        self.folder.run("pg_ctl", "-D", str(self.data), "-w", "-m", mode, "stop")

    def standby_of(self, primary: Cluster) -> Cluster:
        """Make this cluster a streaming standby of `primary` (pg_basebackup -R), started."""
        self.folder.run(
            "pg_basebackup", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres", "-D", str(self.data),
            "-R", "-X", "stream", "-c", "fast",
        )  # fmt: skip
        return self.start()

    def copy_to(self, name: str) -> Cluster:
        """An online copy of this server's data (pg_basebackup, no standby settings): an older copy to restore."""
        copy = Cluster(self.folder, name, self.port)
        self.folder.run(
            "pg_basebackup", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-D", str(copy.data),
            "-X", "stream", "-c", "fast",
        )  # fmt: skip
        return copy

    def promote(self) -> None:
        self.folder.run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "promote")

    def sql(self, query: str, params: tuple = ()) -> list[tuple]:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(query, params)
            return cur.fetchall() if cur.description else []

    def make_synchronous(self) -> None:
        """Once a standby streams from this primary, make every commit wait for it (synchronous_standby_names)."""
        deadline = time.monotonic() + 30
        while not self.sql("SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'"):
            assert time.monotonic() < deadline, "the standby never streamed"
            time.sleep(0.1)
        self.sql("ALTER SYSTEM SET synchronous_standby_names = '*'")
        self.sql("SELECT pg_reload_conf()")
        while not self.sql("SELECT 1 FROM pg_stat_replication WHERE sync_state = 'sync'"):
            assert time.monotonic() < deadline, "the standby never became synchronous"
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL the postmaster, then every process it left (each works in the data folder): the machine dies."""
        postmaster = int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        os.kill(postmaster, signal.SIGKILL)
        for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
            try:
                if Path(f"/proc/{pid}/cwd").resolve() == self.data.resolve():
                    os.kill(int(pid), signal.SIGKILL)
            except (OSError, ProcessLookupError):
                pass
        assert wait_gone(postmaster), "the postmaster outlived its SIGKILL"
        # Killed but not yet reaped by whoever adopted it, the postmaster is a zombie that still answers kill(0), and
        # PostgreSQL would take its lock file for a running server's. A machine that died has no such process: wait
        # for the reaping a while, then take the stale lock file away as the reboot would have.
        deadline = time.monotonic() + 5
        while Path(f"/proc/{postmaster}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        if Path(f"/proc/{postmaster}").exists():
            (self.data / "postmaster.pid").unlink(missing_ok=True)

    def close(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self.stop("immediate")
            except AssertionError:
                self.kill()
