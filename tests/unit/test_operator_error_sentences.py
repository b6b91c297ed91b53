"""What an operator reads when a command cannot go on: a sentence saying what to do, for each usual cause."""

from __future__ import annotations

import errno

import psycopg
import pytest
from psycopg import errors

from quartermaster.service.platform.failures import sentence

URL = "postgresql://olga:secret@db.example.org:5433/quartermaster"


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ('FATAL:  password authentication failed for user "olga"', "refused the password for user olga"),
        ('FATAL:  role "olga" does not exist', "has no user olga: create it"),
        ('FATAL:  database "quartermaster" does not exist', "has no database quartermaster: create it"),
        (
            "connection failed: Connection refused\n\tIs the server running",
            "Nothing answers at db.example.org port 5433",
        ),
        ('could not translate host name "db.example.org" to address', "The host db.example.org in DATABASE_URL is not"),
        ("connection timeout expired", "did not answer in time"),
        ('FATAL:  no pg_hba.conf entry for host "10.0.0.2"', "does not let this machine in"),
    ],
)
def test_each_connection_failure_is_one_sentence_naming_the_server_and_what_to_do(message, words):
    said = sentence(psycopg.OperationalError(message), URL)
    assert words in said
    assert "secret" not in said and "\n" not in said and said.endswith(".")


def test_a_connection_string_that_is_not_one_says_what_one_looks_like():
    said = sentence(psycopg.ProgrammingError('missing "=" after "nonsense" in connection info string'), "nonsense")
    assert said.startswith("DATABASE_URL is not a PostgreSQL connection string")
    assert "postgresql://user:password@host:5432/database" in said


def test_a_full_disk_is_said_as_such_on_the_server_and_on_this_machine():
    assert "disk PostgreSQL writes its data to is full" in sentence(errors.DiskFull("could not extend file"), URL)
    local = sentence(OSError(errno.ENOSPC, "No space left on device", "/backups/q.qmbackup"), None)
    assert local.startswith("The disk holding /backups/q.qmbackup is full: free some space")


def test_anything_else_is_still_one_sentence_that_points_at_debug():
    said = sentence(RuntimeError("the unexpected\nsecond line"), None)
    assert (
        said
        == "Quartermaster stopped on an unexpected RuntimeError: the unexpected. Run again with --debug to see where."
    )
