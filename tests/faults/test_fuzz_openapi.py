"""Schemathesis's stock CLI, every check and every phase, against a real `quartermaster serve` with its rate limit on:
any finding fails the test.

The run reads the served document, as a developer trying the API would, with a member token and one real campaign
for the `{campaign}` of every path (else every request past the token check would find no campaign). Its settings,
in the `schemathesis.toml` written below, each with its reason:

- `positive_data_acceptance` also expects 422: a request of the right shape can still ask for what the campaign
  cannot give (a position it has not reached, an event of the other game, a card not in hand). The document says
  so on every operation: 422 is the answer of a request the rules refuse, with its sentence and nothing written.
- strings hold no NUL character: PostgreSQL's text cannot, and the server refuses one with a sentence (the document's
  parameters say so with a pattern; request bodies would need it on every string of ninety event types).
- an import's body, NDJSON, is sent as the bytes generated for it (a hook names the media type's serializer).

Bounded for a small machine: a few examples per operation, a fixed seed. The live stream is left out: it answers by
staying open.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.faults.servers import serve

pytestmark = pytest.mark.slow

SETTINGS = """\
[generation]
allow-x00 = false

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]

[parameters]
"path.campaign" = "{campaign}"
"""
HOOKS = """\
import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "application/octet-stream")
"""


def test_schemathesis_stock_checks_find_nothing_with_the_rate_limit_on(tmp_path: Path, database_url: str):
    server = serve(tmp_path, database_url=database_url)
    server.wait_ready()
    created = httpx.post(
        f"{server.url}/v1/campaigns", json={"name": "Fuzz", "game": "pacg-skull-and-shackles"}, timeout=30
    ).json()
    (tmp_path / "schemathesis.toml").write_text(SETTINGS.replace("{campaign}", created["id"]))
    (tmp_path / "fuzz_hooks.py").write_text(HOOKS)
    command = [
        str(Path(sys.executable).with_name("st")),
        "--config-file",
        str(tmp_path / "schemathesis.toml"),
        "run",
        f"{server.url}/schema/openapi.json",
        "--checks",
        "all",
        "--header",
        f"Authorization: Bearer {created['token']}",
        "--max-examples",
        "10",
        "--seed",
        "1",
        "--exclude-path-regex",
        "/stream$",
        "--request-timeout",
        "30",
        "--no-color",
    ]
    environment = {**os.environ, "PYTHONPATH": str(tmp_path), "SCHEMATHESIS_HOOKS": "fuzz_hooks"}
    run = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=600)
    server.kill()
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-20000:]
    assert "No issues found" in report or " passed" in report, report[-5000:]
