"""`quartermaster backup` and `restore`: every campaign, members and tokens' digests and options included, copied
from one snapshot while the service writes, and restored into an empty database that verifies clean and answers
every old join link."""

from __future__ import annotations

import gzip
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform import backup
from quartermaster.service.platform.migrate import migrate
from quartermaster.service.platform.settings import Settings

QUARTERMASTER = str(Path(sys.executable).with_name("quartermaster"))
SETTINGS = Settings(pool_min=1, pool_max=4, rate_limit="off")
PACG = "pacg-skull-and-shackles"
NOTE = "note.added"


@contextmanager
def new_database(server_url: str, migrated: bool = True) -> Iterator[str]:
    name = f"qm_backup_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(server_url, dbname=name)
    if migrated:
        migrate(url)
    try:
        yield url
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def a_group(client: TestClient) -> dict[str, Any]:
    """A campaign with options, an owner, a player whose token was replaced, a revoked member, and some play."""
    made = client.post(
        "/v1/campaigns", json={"name": "Wormwood Mutiny", "game": PACG, "options": {"hourglass": 25}}
    ).json()
    owner = bearer(made["token"])
    lily = client.post(f"/v1/campaigns/{made['id']}/members", json={"name": "Lily", "role": "player"}, headers=owner)
    sam = client.post(f"/v1/campaigns/{made['id']}/members", json={"name": "Sam", "role": "viewer"}, headers=owner)
    replaced = client.post(f"/v1/campaigns/{made['id']}/members/{lily.json()['member_id']}/token", headers=owner)
    assert replaced.status_code in (200, 201), replaced.text
    revoked = client.delete(f"/v1/campaigns/{made['id']}/members/{sam.json()['member_id']}", headers=owner)
    assert revoked.status_code == 200, revoked.text
    for n in range(30):
        answer = client.post(
            f"/v1/campaigns/{made['id']}/events",
            json={"events": [{"type": NOTE, "data": {"text": f"n{n}"}}]},
            headers=owner,
        )
        assert answer.status_code == 201, answer.text
    return {
        "id": made["id"],
        "owner": made["token"],
        "lily": replaced.json()["token"],
        "lily_old": lily.json()["token"],
        "sam": sam.json()["token"],
    }


def rows(url: str, table: str, columns: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute(f"SELECT {columns} FROM {table} ORDER BY 1, 2").fetchall()  # constants of this test


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([QUARTERMASTER, *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def source(server_url: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with new_database(server_url) as url, TestClient(create_app(SETTINGS, url)) as client:
        yield url, [a_group(client) for _ in range(3)]


def test_a_backup_restored_into_an_empty_database_verifies_clean_and_every_old_join_link_still_works(
    source, server_url, tmp_path
):
    url, groups = source
    file = tmp_path / "group.qmbackup"
    made = run("backup", str(file), "--database-url", url, "--quiet")
    assert made.returncode == 0, made.stderr
    assert "Backed up 3 campaign(s)" in made.stdout

    with new_database(server_url, migrated=False) as target:
        restored = run("restore", str(file), "--database-url", target, "--quiet")
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "Restored 3 campaign(s)" in restored.stdout and "Checked 3 campaign(s)" in restored.stdout

        # Row for row, but the transaction ids, which belong to the cluster that wrote them.
        columns = "campaign_id, position, event_id, batch_id, type, data, actor, recorded_at, global_position"
        assert rows(target, "events", columns) == rows(url, "events", columns)
        assert rows(target, "members", "*") == rows(url, "members", "*")
        assert rows(target, "campaigns", "*") == rows(url, "campaigns", "*")
        with TestClient(create_app(SETTINGS, target)) as client:
            for group in groups:
                place = f"/v1/campaigns/{group['id']}"
                summary = client.get(place, headers=bearer(group["owner"]))
                assert summary.status_code == 200 and summary.json()["name"] == "Wormwood Mutiny"
                client.cookies.clear()
                joined = client.post(
                    "/session",
                    json={"token": group["lily"]},
                    headers={"X-Quartermaster": "page", "Sec-Fetch-Site": "same-origin"},
                )
                assert joined.status_code == 201 and joined.json()["member"] == "Lily"
                # Replaced and revoked tokens stay refused.
                assert client.get(place, headers=bearer(group["lily_old"])).status_code == 401
                assert client.get(place, headers=bearer(group["sam"])).status_code == 401
                # The log goes on where it stopped, and the feed's numbering after the restored events.
                more = client.post(
                    f"{place}/events",
                    json={"events": [{"type": NOTE, "data": {"text": "after"}}]},
                    headers=bearer(group["lily"]),
                )
                assert more.status_code == 201, more.text
                assert more.json()["first_position"] == summary.json()["position"] + 1
        with psycopg.connect(target) as conn:
            newest, restored_max = conn.execute(
                "SELECT max(global_position) FILTER (WHERE data->>'text' = 'after'), "
                "max(global_position) FILTER (WHERE data->>'text' <> 'after') FROM events"
            ).fetchone()
            assert newest > restored_max
            # No restored event carries a transaction id ahead of this cluster's (the source's could be): once the
            # transactions running now end, a feed across campaigns reads every one of them.
            hidden = conn.execute("SELECT count(*) FROM events WHERE tx_id >= pg_current_xact_id()").fetchone()
            assert hidden == (0,)


def test_a_backup_made_while_the_service_appends_is_one_consistent_snapshot(server_url, tmp_path):
    with new_database(server_url) as url, TestClient(create_app(SETTINGS, url)) as client:
        groups = [a_group(client) for _ in range(2)]
        stop = threading.Event()

        def write() -> None:
            n = 0
            while not stop.is_set():
                for group in groups:
                    client.post(
                        f"/v1/campaigns/{group['id']}/events",
                        json={"events": [{"type": NOTE, "data": {"text": f"w{n}"}} for _ in range(3)]},
                        headers=bearer(group["owner"]),
                    )
                n += 1

        writer = threading.Thread(target=write)
        writer.start()
        try:
            files = [tmp_path / f"{n}.qmbackup" for n in range(3)]
            for file in files:
                backup.backup(url, file)
        finally:
            stop.set()
            writer.join()
        for file in files:
            with new_database(server_url, migrated=False) as target:
                backup.restore(target, file)
                with psycopg.connect(target) as conn:
                    # Every batch whole (three notes each) and positions gapless: no append half in the copy.
                    torn = conn.execute(
                        "SELECT campaign_id FROM events GROUP BY campaign_id "
                        "HAVING count(*) <> max(position) OR count(DISTINCT batch_id) FILTER (WHERE data->>'text' "
                        "LIKE 'w%%') * 3 <> count(*) FILTER (WHERE data->>'text' LIKE 'w%%')"
                    ).fetchall()
                    assert torn == []
                checked = run("verify", "--database-url", target, "--quiet")
                assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_damaged_or_cut_backup_is_refused_before_anything_is_written(source, server_url, tmp_path):
    url, _ = source
    file = tmp_path / "whole.qmbackup"
    backup.backup(url, file)
    whole = gzip.decompress(file.read_bytes())
    cut = tmp_path / "cut.qmbackup"
    cut.write_bytes(gzip.compress(whole[: len(whole) // 2]))
    damaged = tmp_path / "damaged.qmbackup"
    damaged.write_bytes(gzip.compress(whole.replace(b"Lily", b"Lilo", 1)))
    with new_database(server_url, migrated=False) as target:
        for bad, words in ((cut, "cut short"), (damaged, "damaged"), (tmp_path / "none.qmbackup", "no file")):
            answer = run("restore", str(bad), "--database-url", target, "--quiet")
            assert answer.returncode == 2
            assert words in answer.stderr and "Traceback" not in answer.stderr
        with psycopg.connect(target) as conn:
            assert conn.execute("SELECT to_regclass('campaigns')").fetchone() == (None,)


def test_restoring_into_a_database_that_holds_campaigns_is_refused_and_changes_nothing(source, tmp_path):
    url, _ = source
    file = tmp_path / "group.qmbackup"
    backup.backup(url, file)
    before = rows(url, "events", "campaign_id, position")
    answer = run("restore", str(file), "--database-url", url, "--quiet")
    assert answer.returncode == 2
    assert "already holds 3 campaign(s)" in answer.stderr
    assert rows(url, "events", "campaign_id, position") == before


def test_backups_into_a_folder_are_dated_and_only_the_newest_kept(source, tmp_path):
    url, _ = source
    for n in range(3):
        (tmp_path / f"quartermaster-2026010{n}T000000Z.qmbackup").write_bytes(b"old")
    answer = run("backup", str(tmp_path), "--keep", "2", "--database-url", url, "--quiet")
    assert answer.returncode == 0, answer.stderr
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert len(kept) == 2 and kept[0] == "quartermaster-20260102T000000Z.qmbackup"
    backup.check(tmp_path / kept[1])


@pytest.mark.slow
def test_a_backup_restores_into_the_embedded_postgresql_and_backs_up_from_it_the_same(source, tmp_path):
    url, _ = source
    file, again = tmp_path / "external.qmbackup", tmp_path / "embedded.qmbackup"
    backup.backup(url, file)
    folder = ["--data-dir", str(tmp_path / "data"), "--quiet"]
    restored = run("restore", str(file), *folder)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert "Checked 3 campaign(s)" in restored.stdout
    made = run("backup", str(again), *folder)
    assert made.returncode == 0, made.stderr

    def content(path: Path) -> list[bytes]:
        return gzip.decompress(path.read_bytes()).split(b"\n")[1:-2]  # the rows, without header and digest

    assert sorted(content(again)) == sorted(content(file))


@pytest.mark.slow
def test_a_backup_of_the_embedded_postgresql_while_serve_runs_on_it_restores_with_every_join_link(server_url, tmp_path):
    from tests.faults.servers import serve

    served = serve(tmp_path, env={"QUARTERMASTER_RATE_LIMIT": "off"})
    file = tmp_path / "served.qmbackup"
    try:
        served.wait_ready(timeout=120)
        with httpx.Client(base_url=served.url, timeout=10) as client:
            made = client.post("/v1/campaigns", json={"name": "Served", "game": PACG}).json()
            for n in range(20):
                note = {"events": [{"type": NOTE, "data": {"text": f"s{n}"}}]}
                assert client.post(
                    f"/v1/campaigns/{made['id']}/events", json=note, headers=bearer(made["token"])
                ).is_success
            position = client.get(f"/v1/campaigns/{made['id']}", headers=bearer(made["token"])).json()["position"]
            backed = run("backup", str(file), "--data-dir", str(tmp_path / "data"), "--quiet")
            assert backed.returncode == 0, backed.stdout + backed.stderr
            # Serving went on through it.
            assert client.get("/readyz").status_code == 200
    finally:
        served.process.terminate()
        served.process.wait(60)
    with new_database(server_url, migrated=False) as target:
        restored = run("restore", str(file), "--database-url", target, "--quiet")
        assert restored.returncode == 0, restored.stdout + restored.stderr
        with TestClient(create_app(SETTINGS, target)) as client:
            read = client.get(f"/v1/campaigns/{made['id']}", headers=bearer(made["token"]))
            assert read.status_code == 200 and read.json()["position"] == position
