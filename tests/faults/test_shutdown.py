"""`serve` on the embedded PostgreSQL stops the database it started, finds one a crash left behind, and refuses a
data folder made by another major version of PostgreSQL with a sentence."""

from __future__ import annotations

import signal

import pytest

from quartermaster.service.platform import embedded
from tests.faults.servers import postmaster_pid, running, serve, wait_gone

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_serve_stops_the_embedded_postgresql_it_started_on_a_signal(tmp_path, number):
    server = serve(tmp_path)
    server.wait_ready()
    database = postmaster_pid(tmp_path)

    assert server.signal(number) == 0, server.output()

    assert wait_gone(database, 10), f"the embedded PostgreSQL {database} still runs after serve stopped"


def test_a_database_left_running_by_a_killed_server_is_stopped_and_started_cleanly(tmp_path):
    crashed = serve(tmp_path)
    crashed.wait_ready()
    orphan = postmaster_pid(tmp_path)
    crashed.kill()
    assert running(orphan), "SIGKILL left no orphan to find; the test proves nothing"

    again = serve(tmp_path)
    again.wait_ready()

    assert not running(orphan)
    assert f"process {orphan}) left running by a Quartermaster that did not stop cleanly" in again.output()
    fresh = postmaster_pid(tmp_path)
    assert again.signal(signal.SIGTERM) == 0
    assert wait_gone(fresh, 10), "the restarted database outlived the server that started it"


def test_a_data_folder_made_by_another_major_version_is_refused_with_a_sentence(tmp_path):
    pgdata = tmp_path / "data" / "pgdata"
    pgdata.mkdir(parents=True)
    (pgdata / "PG_VERSION").write_text("17\n")

    server = serve(tmp_path)

    assert server.process.wait(60) == 2
    said = server.output()
    running_major = embedded.bundled_major()
    assert f"was made by PostgreSQL 17, and this Quartermaster runs the embedded PostgreSQL {running_major}" in said
    assert "Upgrading the embedded PostgreSQL" in said and "Traceback" not in said
    assert (pgdata / "PG_VERSION").read_text() == "17\n" and not (pgdata / "postmaster.pid").exists()


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_with_three_streams_open_stops_within_five_seconds_and_tells_each_stream(tmp_path, number):
    import threading
    import time

    import httpx

    server = serve(tmp_path)
    server.wait_ready()
    database = postmaster_pid(tmp_path)
    made = httpx.post(f"{server.url}/v1/campaigns", json={"name": "Stopping", "game": "skull-tales-full-sail"}).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    opened, endings = threading.Barrier(4), []

    def follow() -> None:
        with httpx.stream("GET", f"{server.url}/v1/campaigns/{made['id']}/stream", headers=headers, timeout=30) as r:
            lines = r.iter_lines()
            next(lines)  # the stream is open
            opened.wait()
            endings.append([line for line in lines if line.startswith("event:")])

    followers = [threading.Thread(target=follow) for _ in range(3)]
    for follower in followers:
        follower.start()
    opened.wait(30)

    started = time.monotonic()
    code = server.signal(number, timeout=5)
    stopped = time.monotonic() - started
    for follower in followers:
        follower.join(5)

    assert code == 0 and stopped < 5, server.output()
    assert [ending[-1] for ending in endings] == ["event: closing"] * 3
    assert "Traceback" not in server.output()
    assert wait_gone(database, 10), f"the embedded PostgreSQL {database} still runs after serve stopped"
