"""Ready for Citus: every table can be distributed by campaign_id, and every query of the store names a campaign.

Citus shards a distributed table by one column and needs every primary key, unique constraint and foreign key to
include it; a query that filters by it goes to one shard, any other fans out to all of them. docs/operations.md
("Running on more than one server") gives the create_distributed_table calls these checks keep true.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import psycopg
import pytest

import quartermaster.service.store

DISTRIBUTION = "campaign_id"
# Tables that are not campaign data: the migration ledger stays on the coordinator.
LOCAL = {"schema_migrations"}
# The store's statements that cannot name a campaign, and why (docs/operations.md lists them too).
ACROSS_CAMPAIGNS = {
    "SELECT campaign_id, name, role, token_hash FROM members WHERE member_id = %s": (
        "signing in from a join link knows only the token, not yet its campaign"
    ),
    "SELECT DISTINCT game FROM campaigns": (
        "at start-up, which games have campaigns whose fold may have changed: one scan of every shard per start"
    ),
    "SELECT c.campaign_id, {…} FROM campaigns c JOIN projections p ON p.campaign_id = c.campaign_id"
    " AND p.name = %s WHERE c.game = %s AND p.fold_version <> %s ORDER BY c.created_at": (
        "at start-up, the campaigns a changed fold must fold again: one scan of every shard per start"
    ),
    "SELECT campaign_id FROM campaign_boxes WHERE box_key = %s LIMIT 1": (
        "an owner naming a box another campaign shares knows only its key, not yet its campaigns"
    ),
    "SELECT b.campaign_id, c.name, c.game, b.name FROM campaign_boxes b JOIN campaigns c ON c.campaign_id = "
    "b.campaign_id WHERE b.box_key = %s ORDER BY c.created_at, b.campaign_id": (
        "an owner's look at a shared box: the campaigns holding its key, wherever their shards are"
    ),
}
STORE = Path(quartermaster.service.store.__file__).parent
_SQL = re.compile(r"(SELECT .* FROM |INSERT INTO |UPDATE \w+ SET |DELETE FROM |WITH \w+ AS \()")


def _tables(conn: psycopg.Connection) -> list[str]:
    rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1").fetchall()
    return [r[0] for r in rows if r[0] not in LOCAL]


def test_every_table_has_the_distribution_column(database_url):
    with psycopg.connect(database_url) as conn:
        tables = _tables(conn)
        lacking = [
            t
            for t in tables
            if not conn.execute(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = %s"
                " AND column_name = %s",
                (t, DISTRIBUTION),
            ).fetchone()
        ]
    assert tables and lacking == []


def test_every_key_unique_constraint_and_foreign_key_includes_campaign_id(database_url):
    with psycopg.connect(database_url) as conn:
        constraints = conn.execute(
            """
            SELECT c.conrelid::regclass::text, c.conname, c.contype,
                   array(SELECT a.attname FROM pg_attribute a
                         WHERE a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey))
            FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
            WHERE n.nspname = current_schema() AND c.contype IN ('p', 'u', 'f')
            """
        ).fetchall()
        unique_indexes = conn.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
            " AND indexdef LIKE 'CREATE UNIQUE INDEX%%'"
        ).fetchall()
    keys = [(table, name, columns) for table, name, _, columns in constraints if table not in LOCAL]
    assert any(name == "members_pkey" for _, name, _ in keys)
    assert [(t, n) for t, n, columns in keys if DISTRIBUTION not in columns] == []
    assert [(t, n) for t, n, d in unique_indexes if t not in LOCAL and DISTRIBUTION not in d] == []


def _statements() -> list[tuple[str, str]]:
    found = []
    for path in sorted(STORE.glob("*.py")):
        tree = ast.parse(path.read_text())
        # An f-string's pieces are constants too: read it whole, what it interpolates standing as `{…}`.
        pieces = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                value = "".join(v.value if isinstance(v, ast.Constant) else "{…}" for v in node.values)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in pieces:
                value = node.value
            else:
                continue
            text = " ".join(str(value).split())
            if _SQL.match(text):
                found.append((path.name, text))
    return found


def test_the_store_sql_is_found_by_this_check():
    statements = _statements()
    assert len(statements) >= 10, "the check found too few statements to mean anything"
    assert any("INSERT INTO events" in text for _, text in statements)


@pytest.mark.parametrize("module,statement", _statements())
def test_every_statement_of_the_store_names_the_campaign(module, statement):
    if statement in ACROSS_CAMPAIGNS:
        return
    assert DISTRIBUTION in statement, f"{module}: a statement that does not name a campaign: {statement}"
    if statement.upper().startswith(("SELECT", "UPDATE", "DELETE")):
        where = statement[statement.upper().index(" WHERE ") :] if " WHERE " in statement.upper() else ""
        assert DISTRIBUTION in where, f"{module}: not filtered by campaign_id: {statement}"
