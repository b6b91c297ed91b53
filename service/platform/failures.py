"""What an operator reads when a command cannot go on: one sentence saying what is wrong and what to do about it.

The commands (service/cli.py) catch what escapes them and print `sentence(error)` instead of a traceback, unless
`--debug` asks for it. Each case is told apart by what psycopg, PostgreSQL or the system reports, as public values
(SQLSTATE classes, errno), or by libpq's message where libpq reports nothing else (connection failures).
"""

from __future__ import annotations

import errno
import re

import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict

_EXAMPLE = "postgresql://user:password@host:5432/database"


def where(conninfo: str | None) -> str:
    """The server a connection string names, without its password: `host port 5432, database x, user y`."""
    if not conninfo:
        return "the database server"
    try:
        params = conninfo_to_dict(conninfo)
    except psycopg.Error:
        return "the database server"
    host = params.get("host") or "localhost"
    return f"the PostgreSQL server at {host} port {params.get('port') or 5432}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _param(conninfo: str | None, name: str) -> str:
    try:
        return str(conninfo_to_dict(conninfo or "").get(name) or "")
    except psycopg.Error:
        return ""


def sentence(error: BaseException, conninfo: str | None = None) -> str:
    """One sentence an operator can act on, for an error a command could not get past."""
    text = str(error).strip()
    server = where(conninfo)
    if isinstance(error, errors.DiskFull) or (isinstance(error, OSError) and error.errno == errno.ENOSPC):
        disk = (
            f"The disk holding {error.filename}"
            if isinstance(error, OSError) and error.filename
            else "The disk PostgreSQL writes its data to"
        )
        return f"{disk} is full: free some space on it (old backups, logs), then run the command again."
    if isinstance(error, psycopg.ProgrammingError) and ("connection info" in text or "invalid" in text):
        return f"DATABASE_URL is not a PostgreSQL connection string ({text.splitlines()[0]}); it looks like {_EXAMPLE}."
    if isinstance(error, psycopg.OperationalError):
        user, database = _param(conninfo, "user") or "(your login name)", _param(conninfo, "dbname")
        if "password authentication failed" in text or "no password supplied" in text:
            return (
                f"{_cap(server)} refused the password for user {user}: put the right password in DATABASE_URL "
                f"({_EXAMPLE})."
            )
        if re.search(r'role ".*" does not exist', text):
            return (
                f"{_cap(server)} has no user {user}: create it (CREATE ROLE {user} LOGIN PASSWORD '...') "
                "or name another in DATABASE_URL."
            )
        if re.search(r'database ".*" does not exist', text):
            return (
                f"{_cap(server)} has no database {database}: create it (createdb {database}) or name another in "
                "DATABASE_URL."
            )
        if "Connection refused" in text or "No such file or directory" in text:
            return (
                f"Nothing answers at {server.removeprefix('the PostgreSQL server at ')}: start PostgreSQL there, or "
                "correct the host and port in DATABASE_URL."
            )
        if "could not translate host name" in text or "Name or service not known" in text:
            return f"The host {_param(conninfo, 'host')} in DATABASE_URL is not known: correct its spelling."
        if "timeout expired" in text or "timed out" in text:
            return f"{_cap(server)} did not answer in time: check that it is up and that no firewall is in between."
        if "pg_hba.conf" in text:
            return (
                f"{_cap(server)} does not let this machine in (its pg_hba.conf has no entry for it): add "
                "one there, or connect from an allowed address."
            )
    if isinstance(error, psycopg.Error):
        first = text.splitlines()[0] if text else type(error).__name__
        return f"{_cap(server)} answered with an error: {first.rstrip('.')}. Run again with --debug for details."
    first = text.splitlines()[0] if text else "no message"
    return (
        f"Quartermaster stopped on an unexpected {type(error).__name__}: {first.rstrip('.')}. Run again with --debug "
        "to see where."
    )
