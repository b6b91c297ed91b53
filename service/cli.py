"""The `quartermaster` command: serve, migrate, verify, rebuild, backup, restore, chronicles."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import errno
import logging
import os
import signal
import socket
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Never

import msgspec
import psycopg
import uvicorn
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool
from tqdm import tqdm

from quartermaster.projections.registry import game
from quartermaster.service.app import CONNINFO_VARIABLE, create_app
from quartermaster.service.application import chronicles
from quartermaster.service.application.refold import RefoldError, rebuild_campaign, refresh_stale
from quartermaster.service.http import connections, tls
from quartermaster.service.http.join_code import lan_addresses
from quartermaster.service.platform import backup, descriptors, embedded, failures, logs, workers
from quartermaster.service.platform.lineage import writable
from quartermaster.service.platform.migrate import MigrationError, migrate, unknown_to_this_version
from quartermaster.service.platform.settings import Settings
from quartermaster.service.platform.version import VERSION
from quartermaster.service.store import Store
from quartermaster.service.store.snapshots import campaigns_to_fold

BACKUP_SUFFIX = ".qmbackup"


def _database(settings: Settings, args: argparse.Namespace, *, supervise: bool = False) -> str:
    # argparse's Namespace holds Any: these are the types main() parses them as.
    data_dir: Path = args.data_dir
    database_url: str | None = args.database_url
    if database_url:
        return database_url
    print(f"No DATABASE_URL set: using the embedded PostgreSQL with its data in {data_dir / 'pgdata'}", flush=True)
    try:
        return embedded.start(data_dir, supervise=supervise)
    except embedded.DataFolderError as error:
        print(error, file=sys.stderr)
        raise SystemExit(2) from None


def serve(settings: Settings, args: argparse.Namespace) -> int:

    # uvicorn shuts down gracefully on SIGTERM and SIGINT, then raises the signal again under the handlers found
    # before it started. Python's default for SIGTERM ends the process without running exit handlers, which is how
    # the embedded PostgreSQL was left running; as a normal exit, the wheel's exit handler stops it.
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, _exit_on_signal)
    _check_port(args.host, args.port)
    # The embedded PostgreSQL is the service's own: started again when it stops by itself (embedded.Supervisor).
    conninfo = _database(settings, args, supervise=True)
    # Migrations and refolds write on connections of their own, made once here: to the server the service may
    # write to, never a former primary (service/platform/lineage.py).

    applied = _migrate(asyncio.run(writable(conninfo)))
    if applied:
        print(f"Applied migrations: {', '.join(applied)}", flush=True)
    _refresh_stale(asyncio.run(writable(conninfo)))
    scheme = "https" if args.https else "http"
    print(f"Quartermaster listens on {scheme}://{args.host}:{args.port} (API documentation at /schema)", flush=True)
    for line in page_addresses(args.host, args.port, scheme):
        print(line, flush=True)
    if args.replica_url:
        settings = dataclasses.replace(settings, replica_url=args.replica_url)
        os.environ["QUARTERMASTER_REPLICA_URL"] = args.replica_url  # for workers, which read the environment
    # Slow clients cost a descriptor each: as many as the operator allows (service/platform/descriptors.py).
    print(descriptors.raise_to_hard_limit(), flush=True)
    # The deadline on receiving a request is read by each worker from the environment (service/http/connections.py).
    os.environ[connections.VARIABLE] = str(settings.receive_timeout)
    common = {
        "host": args.host,
        "port": args.port,
        "access_log": False,
        "log_config": None,
        "log_level": "warning",
        # uvicorn's own HTTP protocol, inside one that bounds the time a request takes to arrive.
        "http": connections.Watched,
        # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: only from the proxies named.
        "proxy_headers": bool(settings.trusted_proxies.strip()),
        "forwarded_allow_ips": settings.trusted_proxies.strip() or None,
    }
    if args.https:
        common.update(_certificate(args))
    if args.workers > 1:
        # Each worker builds its own app and pool from the environment; the database is already up and migrated.
        os.environ[CONNINFO_VARIABLE] = conninfo
        # Where the workers leave their metrics for /metrics to add up (service/platform/workers.py).
        with tempfile.TemporaryDirectory(prefix="quartermaster-metrics-") as shared:
            os.environ[workers.VARIABLE] = shared
            uvicorn.run("quartermaster.service.app:from_environment", factory=True, workers=args.workers, **common)
    else:
        uvicorn.run(create_app(settings, conninfo), **common)
    return 0


def _check_port(host: str, port: int) -> None:
    """Before anything starts: a port another program holds, or one this user may not open, said in a sentence."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds it
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise SystemExit(
                    f"quartermaster: port {port} on {host} is in use by another program: stop it, or serve on another "
                    f"port (--port {port + 1}, or QUARTERMASTER_PORT)."
                ) from None
            if error.errno == errno.EACCES:
                raise SystemExit(
                    f"quartermaster: this user may not listen on port {port}: use a port above 1023 (--port 8000) and "
                    "put a reverse proxy on the low one (docs/deploy/)."
                ) from None
            if error.errno == errno.EADDRNOTAVAIL:
                raise SystemExit(
                    f"quartermaster: this machine has no address {host} to listen on: use one of its own addresses, "
                    "127.0.0.1, or 0.0.0.0 for all of them (--host)."
                ) from None
            raise


def _certificate(args: argparse.Namespace) -> dict[str, Any]:
    """uvicorn's TLS settings for `--https`, with the certificate the service makes for itself (service/http/tls.py)."""
    try:
        made = tls.ensure(args.data_dir / "tls", lan_addresses())
    except tls.CertificateError as error:
        print(error, file=sys.stderr)
        raise SystemExit(2) from None
    if made.made:
        print(
            f"Made a certificate for this machine's addresses in {made.certfile.parent}; phones that trust its "
            "authority (open /page/certificate on the phone to install it) trust it without a warning.",
            flush=True,
        )
    for address in made.left_out:
        print(
            f"{address} is not a private network address, so the certificate does not name it: phones there get a "
            "warning that installing the authority does not lift.",
            flush=True,
        )
    # Every worker process serves /page/certificate from here.
    os.environ[tls.CA_VARIABLE] = str(made.authority)
    return {"ssl_certfile": str(made.certfile), "ssl_keyfile": str(made.keyfile)}


def page_addresses(host: str, port: int, scheme: str = "http") -> list[str]:
    """Where the table page can be opened: on every address of this machine when serving on all of them."""
    found = lan_addresses()
    if host not in ("0.0.0.0", "::", ""):
        if host in found or not found:
            return [f"The table page is at {scheme}://{host}:{port}/"]
        # The address a phone needs is one this server does not listen on: say which, and how.
        return [
            f"The table page is at {scheme}://{host}:{port}/ for this computer only. Phones on this network need "
            f"{scheme}://{found[0]}:{port}/: serve with --host 0.0.0.0 to let them in."
        ]
    if not found:
        return [f"The table page is at {scheme}://127.0.0.1:{port}/; this machine has no address on a local network."]
    return [f"Phones on this network open the table page at {scheme}://{address}:{port}/" for address in found]


def _exit_on_signal(number: int, _frame: Any) -> None:
    print(f"Stopping on {signal.Signals(number).name}.", file=sys.stderr, flush=True)
    raise SystemExit(0)


def _refresh_stale(conninfo: str) -> None:
    """Before serving, fold again the campaigns whose game's rules changed since their projection was stored."""

    bars: list[tqdm[Never]] = []

    def bar(total: int, campaigns: int) -> Callable[[int], object]:
        print(
            f"The rules of a game changed since {campaigns} campaign(s) were last folded: folding them again.",
            flush=True,
        )
        bars.append(tqdm(total=total, unit="event", unit_scale=True, desc="refold"))
        return bars[-1].update

    async def run() -> None:
        async with (
            AsyncConnectionPool(conninfo, min_size=1, max_size=1, open=False, kwargs={"autocommit": True}) as pool,
            pool.connection() as conn,
        ):
            try:
                await refresh_stale(Store(pool), conn, bar)
            finally:
                for shown in bars:
                    shown.close()

    asyncio.run(run())


def _migrate(conninfo: str) -> list[str]:
    """Migrate, or leave with the refusal's sentence (a newer database, an edited migration) and status 2."""
    try:
        return migrate(conninfo)
    except MigrationError as error:
        print(error, file=sys.stderr, flush=True)
        raise SystemExit(2) from None


def run_migrate(settings: Settings, args: argparse.Namespace) -> int:
    applied = _migrate(_database(settings, args))
    print(f"Applied: {', '.join(applied)}" if applied else "Nothing to apply: the database is up to date.")
    return 0


def refold_all(settings: Settings, args: argparse.Namespace) -> int:
    """`verify` (fold every log again and report drift) and `rebuild` (fold again and store the result)."""

    keep = args.command == "rebuild"
    if args.campaign:
        try:
            args.campaign = uuid.UUID(args.campaign)
        except ValueError:
            print(
                f"--campaign {args.campaign!r} is not a campaign id; campaign ids look like "
                "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b.",
                file=sys.stderr,
            )
            return 2
    conninfo = _database(settings, args)

    async def run() -> int:

        # Every drift and every error is a sentence and exit status 1, never a traceback: after a failover the
        # database may refuse, break or lack anything, and this is the command that is run to find out.
        drift, failed = [], []
        campaigns: list[Any] = []
        total = 0
        try:
            # A rebuild writes: to the server the service may write to, never a former primary
            # (service/platform/lineage.py).
            target = await writable(conninfo) if keep else conninfo
            # One connection first, so that a server that does not answer is said at once, once; and a database a
            # newer release migrated is refused before anything reads it with this version's rules.
            async with await psycopg.AsyncConnection.connect(target, connect_timeout=5, autocommit=True) as first:
                refusal = await unknown_to_this_version(first)
            if refusal is not None:
                print(refusal, file=sys.stderr)
                return 2
            logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)  # each failure is reported below instead
            async with AsyncConnectionPool(
                target, min_size=1, max_size=2, open=False, kwargs={"autocommit": True}, timeout=10
            ) as pool:
                store = Store(pool)
                async with pool.connection() as conn:
                    campaigns = await campaigns_to_fold(conn, args.campaign)
                if args.campaign and not campaigns:
                    print(f"There is no campaign {args.campaign}.", file=sys.stderr)
                    return 2
                total = sum(c[3] for c in campaigns)
                with tqdm(
                    total=total, unit="event", unit_scale=True, desc="rebuild" if keep else "verify", disable=args.quiet
                ) as bar:
                    for campaign_id, game_id, name, _ in campaigns:
                        try:
                            # A connection per campaign: one that broke on a campaign is not lent for the next.
                            async with pool.connection() as conn:
                                drift += await rebuild_campaign(
                                    store, conn, campaign_id, game(game_id), keep=keep, progress=bar.update
                                )
                        except RefoldError as error:  # report the campaign, then go on with the others
                            failed.append(f"{name} ({campaign_id}): the fold refuses {error}")
                        except (psycopg.Error, KeyError, ValueError) as error:
                            failed.append(f"{name} ({campaign_id}): {_sentence(error)}")
        except psycopg.Error as error:
            failed.append(f"the database at {_where(conninfo)} could not be read: {_sentence(error)}")
        print(f"{'Rebuilt' if keep else 'Checked'} {len(campaigns)} campaign(s), {total} event(s).")
        for d in drift:
            print(f"  {'repaired' if keep else 'drift'}: campaign {d.campaign_id}: {d.what}")
        for f in failed:
            print(f"  cannot {'rebuild' if keep else 'check'}: {f}", file=sys.stderr)
        return 1 if failed or (drift and not keep) else 0

    return asyncio.run(run())


def run_backup(settings: Settings, args: argparse.Namespace) -> int:
    """`backup FILE`: every campaign into one file; FILE a folder: a dated file in it, keeping the newest --keep."""
    given: Path = args.file
    target = (
        given / f"quartermaster-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}{BACKUP_SUFFIX}"
        if given.is_dir()
        else given
    )
    if not target.parent.is_dir():
        print(f"There is no folder {target.parent} to write the backup in; make it first.", file=sys.stderr)
        return 2
    conninfo = _database(settings, args)
    with tqdm(unit="row", unit_scale=True, desc="backup", disable=args.quiet) as bar:
        try:
            header = backup.backup(conninfo, target, total=_set_total(bar), done=bar.update)
        except backup.BackupError as error:
            bar.close()
            print(error, file=sys.stderr)
            return 2
    print(f"Backed up {header.campaigns} campaign(s), {header.rows} row(s) in all, to {target}.")
    if given.is_dir() and args.keep:
        kept = sorted(given.glob(f"quartermaster-*{BACKUP_SUFFIX}"), reverse=True)
        for old in kept[args.keep :]:
            old.unlink()
            print(f"Removed the older backup {old} (keeping the newest {args.keep}).")
    return 0


def run_restore(settings: Settings, args: argparse.Namespace) -> int:
    """`restore FILE`: a backup into an empty database, then `verify` over every campaign it holds."""
    source: Path = args.file
    try:
        backup.check(source)  # before starting or migrating anything: a damaged file changes nothing anywhere
    except backup.BackupError as error:
        print(error, file=sys.stderr)
        return 2
    conninfo = _database(settings, args)
    with tqdm(unit="row", unit_scale=True, desc="restore", disable=args.quiet) as bar:
        try:
            restored = backup.restore(conninfo, source, total=_set_total(bar), done=bar.update)
        except backup.BackupError as error:
            bar.close()
            print(error, file=sys.stderr)
            return 2
    header = restored.header
    print(
        f"Restored {header.campaigns} campaign(s), {header.rows} row(s) in all, backed up at {header.made_at} by "
        f"Quartermaster {header.quartermaster}. Checking every campaign's log against what was restored:"
    )
    checked = argparse.Namespace(**{**vars(args), "command": "verify", "campaign": None, "database_url": conninfo})
    return refold_all(settings, checked)


def _claimed_sheets(path: Path) -> list[dict[str, Any]]:
    """The sheets of a file `/chronicles` answered (the whole answer, its `sheets`, or one sheet). ValueError: a
    sentence saying why the file is not that."""
    try:
        found = msgspec.json.decode(path.read_bytes())
    except OSError as error:
        raise ValueError(f"{path} cannot be read: {error.strerror}.") from None
    except msgspec.DecodeError:
        raise ValueError(
            f"{path} is not JSON: save the sheets as GET /v1/campaigns/ID/chronicles answers them."
        ) from None
    sheets = found.get("sheets", [found]) if isinstance(found, dict) else found
    if not isinstance(sheets, list) or not all(isinstance(s, dict) and "digest" in s for s in sheets):
        raise ValueError(f"{path} holds no chronicle sheets: each needs its digest, positions and scenario or chapter.")
    return sheets


def run_chronicles(settings: Settings, args: argparse.Namespace) -> int:
    """`chronicles CAMPAIGN`: the campaign's chronicle sheets as text; `--verify FILE`: each sheet in the file checked
    against the log, a sentence for each difference and status 1 if there is any."""
    try:
        campaign_id = uuid.UUID(args.campaign)
    except ValueError:
        print(
            f"{args.campaign!r} is not a campaign id; campaign ids look like 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b.",
            file=sys.stderr,
        )
        return 2
    try:
        claimed = _claimed_sheets(args.verify) if args.verify is not None else None
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    conninfo = _database(settings, args)

    async def run() -> int:
        logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)
        async with AsyncConnectionPool(
            conninfo, min_size=1, max_size=2, open=False, kwargs={"autocommit": True}, timeout=10
        ) as pool:
            store = Store(pool)
            found = await store.campaign(campaign_id)
            played = game(found.game)
            if claimed is None:
                sheets = await chronicles.sheets(store, campaign_id, played, found.position)
                print(
                    "\n".join(chronicles.as_text(found.name, s) for s in sheets)
                    or "No scenario or chapter has been played yet."
                )
                return 0
            wrong: list[str] = []
            for number, sheet in enumerate(claimed, start=1):
                wrong += await _verified(store, campaign_id, played, found.position, number, sheet)
        print(
            f"Checked {len(claimed)} chronicle sheet(s) of {found.name} against its log (positions 1 to "
            f"{found.position}): {'all agree' if not wrong else f'{len(wrong)} difference(s)'}."
        )
        for sentence in wrong:
            print(f"  {sentence}", file=sys.stderr)
        return 1 if wrong else 0

    return asyncio.run(run())


async def _verified(
    store: Store, campaign_id: uuid.UUID, played: Any, position: int, number: int, sheet: dict[str, Any]
) -> list[str]:
    """What a sheet of the file states otherwise than the log, one sentence each."""
    name = sheet.get("scenario") or f"chapter {sheet.get('chapter')}"
    where = f"Sheet {number} ({name})"
    last = sheet.get("last")
    if not isinstance(last, int) or last > position:
        return [f"{where} ends at position {last}, but the log ends at {position}."]
    try:
        logged = await chronicles.rebuilt(store, campaign_id, played, position, sheet)
    except chronicles.NotPlayed as error:
        return [f"{where}: {error}"]
    return [
        f"{where}: {chronicles.difference(field, sheet, logged)}." for field in chronicles.differences(sheet, logged)
    ]


def _set_total(bar: tqdm[Never]) -> Callable[[int], object]:
    def total(rows: int) -> None:
        bar.total = rows
        bar.refresh()

    return total


def _sentence(error: BaseException) -> str:
    """An error as the end of a sentence: its kind and PostgreSQL's first line."""
    text = str(error).strip().split("\n", 1)[0] or "no message"
    return f"{type(error).__name__}: {text.rstrip('.')}."


def _where(conninfo: str) -> str:
    """The servers a connection string names, without its password."""
    params = conninfo_to_dict(conninfo)
    return f"{params.get('host', 'localhost')} port {params.get('port', 5432)}"


def main(argv: list[str] | None = None) -> int:
    settings = Settings.for_command()
    parser = argparse.ArgumentParser(prog="quartermaster", description="A campaign tracker for pirate campaign games.")
    parser.add_argument("--version", action="version", version=f"quartermaster {VERSION}")
    parser.add_argument("--debug", action="store_true", help="on an error, show its traceback, not only its sentence")
    commands = parser.add_subparsers(dest="command", required=True)

    def with_data_dir(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument(
            "--data-dir",
            type=Path,
            default=settings.data_dir,
            help="where the embedded PostgreSQL keeps its data when DATABASE_URL is not set "
            f"(default: {settings.data_dir})",
        )
        p.add_argument(
            "--database-url",
            default=settings.database_url,
            help="a PostgreSQL connection string (default: $DATABASE_URL; unset means embedded)",
        )
        # Also after the command's name; left unset there, so that `quartermaster --debug serve` keeps it.
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        return p

    serving = with_data_dir(commands.add_parser("serve", help="run the HTTP API (migrates first)"))
    serving.add_argument("--host", default=settings.host, help=f"address to listen on (default {settings.host})")
    serving.add_argument("--port", type=int, default=settings.port, help=f"port to listen on (default {settings.port})")
    serving.add_argument(
        "--https",
        action="store_true",
        help="serve over https with a certificate the service makes for itself in the data folder (tls/), so that "
        'phones on this network can keep the page for offline use (see docs/operations.md, "https on the LAN")',
    )
    serving.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("QUARTERMASTER_WORKERS", 1)),
        help="server processes (default 1); more use more cores for many clients at once",
    )
    serving.add_argument(
        "--replica-url",
        default=settings.replica_url,
        help="a standby to read history and states from when it has caught up with the caller "
        "(default: $QUARTERMASTER_REPLICA_URL; unset reads everything from the primary)",
    )
    serving.set_defaults(run=serve)
    with_data_dir(commands.add_parser("migrate", help="apply database migrations")).set_defaults(run=run_migrate)
    for name, text in (
        ("verify", "fold every campaign's log again and report any drift from what is stored"),
        ("rebuild", "fold every campaign's log again and store the projections and snapshots"),
    ):
        command = with_data_dir(commands.add_parser(name, help=text))
        command.add_argument("--campaign", help="only this campaign id")
        command.add_argument("--quiet", action="store_true", help="no progress bar")
        command.set_defaults(run=refold_all)

    backing = with_data_dir(
        commands.add_parser(
            "backup",
            help="copy every campaign (members, tokens' digests, options and all) into one file, while serving",
        )
    )
    backing.add_argument(
        "file", type=Path, help=f"the file to write; a folder: a dated file (quartermaster-<time>{BACKUP_SUFFIX}) in it"
    )
    backing.add_argument(
        "--keep", type=int, default=0, help="with a folder, keep only this many newest backups in it (default: all)"
    )
    backing.add_argument("--quiet", action="store_true", help="no progress bar")
    backing.set_defaults(run=run_backup)
    restoring = with_data_dir(
        commands.add_parser("restore", help="build an empty database from a backup, then verify every campaign")
    )
    restoring.add_argument("file", type=Path, help="a file `quartermaster backup` wrote")
    restoring.add_argument("--quiet", action="store_true", help="no progress bar")
    restoring.set_defaults(run=run_restore)
    chronicling = with_data_dir(
        commands.add_parser(
            "chronicles", help="print a campaign's chronicle sheets, or check a file of them against its log"
        )
    )
    chronicling.add_argument("campaign", help="the campaign's id")
    chronicling.add_argument(
        "--verify",
        type=Path,
        metavar="FILE",
        help="check each sheet in FILE (JSON, as GET /v1/campaigns/ID/chronicles answers) against the log; status 1 "
        "and a sentence for each difference",
    )
    chronicling.set_defaults(run=run_chronicles)

    args = parser.parse_args(argv)
    logs.to_stderr()
    run: Callable[[Settings, argparse.Namespace], int] = args.run
    try:
        return run(settings, args)
    except Exception as error:  # what a command could not get past: a sentence, and the traceback only if asked
        if args.debug:
            raise
        print(f"quartermaster: {failures.sentence(error, args.database_url)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
