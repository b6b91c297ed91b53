"""`quartermaster verify` reports, never crashes: every drift or error it finds is a sentence, and its status is 1."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from quartermaster.service.cli import main
from quartermaster.service.platform.migrate import migrate
from quartermaster.service.store import Store
from tests.integration.logs import new_campaign, notes, run


@pytest.fixture
def own_database(server_url: str) -> Iterator[str]:
    """A database of this test's own: verify reads every campaign there is."""
    name = f"qm_verify_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(server_url, dbname=name)
    migrate(url)
    yield url
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_verify_names_a_gap_and_a_drift_in_sentences_and_checks_every_campaign_after_them(own_database, capsys):
    # Given a log with a gap (what writing past a log's end left), then a damaged projection, then a sound campaign
    async def scenario(store: Store, pool):
        made = [await new_campaign(store) for _ in range(3)]
        for campaign_id in made:
            await notes(store, campaign_id, 5)
        async with pool.connection() as conn:
            await conn.execute("SET session_replication_role = replica")
            await conn.execute("DELETE FROM events WHERE campaign_id = %s AND position = 4", (made[0],))
            await conn.execute("UPDATE projections SET position = 1 WHERE campaign_id = %s", (made[1],))
        return made

    gapped, drifted, sound = run(own_database, scenario)
    # When verify reads them all
    status = main(["verify", "--quiet", "--database-url", own_database])
    out, err = capsys.readouterr()
    # Then it exits 1 and says what it found of each, in sentences, with no traceback
    assert status == 1
    assert f"({gapped}): the fold refuses position 5: positions must follow each other; 4 was expected." in err
    assert f"drift: campaign {drifted}: the stored projection (at 1) differs from the fold of the log" in out
    assert str(sound) not in out + err and "Traceback" not in out + err
    assert "Checked 3 campaign(s)" in out


def test_verify_against_a_server_that_does_not_answer_says_so_and_exits_1(capsys):
    status = main(["verify", "--quiet", "--database-url", "postgresql://postgres@127.0.0.1:1/none"])
    _, err = capsys.readouterr()
    assert status == 1
    assert "cannot check: the database at 127.0.0.1 port 1 could not be read: OperationalError:" in err
