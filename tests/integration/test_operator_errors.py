"""A command that cannot go on says why in one sentence and exits non-zero, with a traceback only under --debug;
and every line a serving process logs, uvicorn's own included, in every worker, is one JSON object."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.faults.servers import free_port, serve

QUARTERMASTER = str(Path(sys.executable).with_name("quartermaster"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([QUARTERMASTER, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense://x", "DATABASE_URL is not a PostgreSQL connection string"),
        ("postgresql://postgres@127.0.0.1:1/x", "Nothing answers at 127.0.0.1 port 1: start PostgreSQL there"),
        ("postgresql://postgres@qm-no-such-host.invalid/x", "The host qm-no-such-host.invalid in DATABASE_URL"),
    ],
)
@pytest.mark.parametrize("command", ["serve", "migrate", "backup"])
def test_a_bad_database_url_is_one_sentence_and_a_non_zero_exit(command, url, words, tmp_path):
    args = [command, "--database-url", url] + ([str(tmp_path / "b.qmbackup")] if command == "backup" else [])
    if command == "serve":
        args += ["--port", str(free_port())]
    done = run(*args)
    assert done.returncode != 0
    assert words in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert len([line for line in done.stderr.splitlines() if line.startswith("quartermaster:")]) == 1


def test_with_debug_the_traceback_is_shown():
    done = run("--debug", "migrate", "--database-url", "postgresql://postgres@127.0.0.1:1/x")
    assert done.returncode != 0 and "Traceback" in done.stderr


def test_a_database_that_does_not_exist_is_named(server_url):
    url = psycopg_url(server_url, "qm_no_such_database")
    done = run("migrate", "--database-url", url)
    assert done.returncode != 0
    assert "has no database qm_no_such_database: create it (createdb qm_no_such_database)" in done.stderr


def psycopg_url(server_url: str, database: str) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo(server_url, dbname=database)


def test_a_port_in_use_is_said_before_anything_starts(database_url):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = run("serve", "--port", str(port), "--database-url", database_url)
    assert done.returncode != 0
    assert f"port {port} on 127.0.0.1 is in use by another program" in done.stderr
    assert "Traceback" not in done.stderr and "Applied" not in done.stdout


def test_every_log_line_of_two_workers_and_of_uvicorn_is_one_json_object(database_url, tmp_path):
    served = serve(tmp_path, database_url=database_url, args=("--workers", "2"))
    try:
        served.wait_ready()
        for _ in range(6):
            httpx.get(f"{served.url}/healthz")
        httpx.get(f"{served.url}/no-such-page")
        # uvicorn's own warning, from whichever worker takes it: not HTTP at all.
        for _ in range(4):
            with socket.create_connection(("127.0.0.1", served.port), timeout=5) as raw:
                raw.sendall(b"NOT HTTP AT ALL\r\n\r\n")
                raw.recv(1024)
    finally:
        assert served.signal(signal.SIGTERM) == 0
    # The log file holds stdout's start-up sentences and stderr's records; the records are the lines after them.
    lines = [line for line in served.output().splitlines() if line.strip()]
    records = [line for line in lines if line.startswith("{")]
    plain = [line for line in lines if not line.startswith("{")]
    assert all(
        line.startswith(
            ("No DATABASE_URL", "Quartermaster listens", "The table page", "Phones", "Stopping on", "Open files")
        )
        for line in plain
    ), plain
    parsed = [json.loads(line) for line in records]
    loggers = {r["logger"] for r in parsed}
    assert any(name.startswith("uvicorn") for name in loggers), loggers
    assert any(r.get("path") == "/no-such-page" for r in parsed)


def _healthz_count(text: str) -> float:
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "quartermaster_requests_total" and sample.labels.get("path") == "/healthz":
                total += sample.value
    return total


def test_metrics_add_up_the_two_workers_whichever_answers_the_scrape(database_url, tmp_path):
    served = serve(tmp_path, database_url=database_url, args=("--workers", "2"))
    try:
        served.wait_ready()
        for _ in range(40):
            # A connection each, so that both workers take some.
            with httpx.Client() as client:
                assert client.get(f"{served.url}/healthz").status_code == 200
        time.sleep(2.5)  # each worker writes its own figures every two seconds
        scraped = []
        for _ in range(8):
            with httpx.Client() as client:
                scraped.append(_healthz_count(client.get(f"{served.url}/metrics").text))
    finally:
        assert served.signal(signal.SIGTERM) == 0
    assert scraped == [40.0] * 8
