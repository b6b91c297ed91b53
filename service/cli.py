"""The `quartermaster` command: serve, migrate, verify, rebuild."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from service.settings import Settings


def _database(settings: Settings, data_dir: Path) -> str:
    if settings.database_url:
        return settings.database_url
    from service import embedded

    print(f"No DATABASE_URL set: using the embedded PostgreSQL with its data in {data_dir / 'pgdata'}", flush=True)
    return embedded.start(data_dir)


def serve(settings: Settings, args: argparse.Namespace) -> int:
    import uvicorn

    from service.app import create_app
    from service.migrate import migrate

    conninfo = _database(settings, args.data_dir)
    applied = migrate(conninfo)
    if applied:
        print(f"Applied migrations: {', '.join(applied)}", flush=True)
    app = create_app(settings, conninfo)
    print(f"Quartermaster listens on http://{args.host}:{args.port} (API documentation at /schema)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, access_log=False, log_config=None, log_level="warning")
    return 0


def run_migrate(settings: Settings, args: argparse.Namespace) -> int:
    from service.migrate import migrate

    applied = migrate(_database(settings, args.data_dir))
    print(f"Applied: {', '.join(applied)}" if applied else "Nothing to apply: the database is up to date.")
    return 0


def main(argv: list[str] | None = None) -> int:
    settings = Settings.from_env()
    parser = argparse.ArgumentParser(prog="quartermaster", description="A campaign tracker for pirate campaign games.")
    commands = parser.add_subparsers(dest="command", required=True)

    def with_data_dir(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--data-dir", type=Path, default=settings.data_dir,
                       help="where the embedded PostgreSQL keeps its data when DATABASE_URL is not set "
                            f"(default: {settings.data_dir})")
        return p

    serving = with_data_dir(commands.add_parser("serve", help="run the HTTP API (migrates first)"))
    serving.add_argument("--host", default=settings.host, help=f"address to listen on (default {settings.host})")
    serving.add_argument("--port", type=int, default=settings.port, help=f"port to listen on (default {settings.port})")
    serving.set_defaults(run=serve)
    with_data_dir(commands.add_parser("migrate", help="apply database migrations")).set_defaults(run=run_migrate)

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    return args.run(settings, args)


if __name__ == "__main__":
    sys.exit(main())
