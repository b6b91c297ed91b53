"""The walk of one append: which of the project's files a `card.moved` append enters, and how often.

    .venv/bin/python benchmarks/walk.py [--database-url URL] [--order] 2>/dev/null

It creates a database `qm_walk_<random>` on --database-url (else $BENCH_DATABASE_URL, else the local server),
plays the rulebook's Example of Play (Skull & Shackles) through the API in this process up to its last `card.moved`,
then posts that one event while a profile hook (sys.setprofile, on every thread) notes each call into a function
of the project. It prints the files entered, how many times each was entered from another file, and the totals:
files entered, and files entered more than once (a re-entry is a walk that leaves a file and comes back to it).
With --order it also prints the files in the order they were first entered. The database is dropped at the end.

It reads the app by its installed name, `quartermaster.service.app`, or by the top-level `service.app` of the
versions before one installed name, so the same script walks an older checkout (run it with that checkout's venv).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
import threading
import uuid
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from litestar.testing import TestClient  # noqa: E402

# A checkout from before the one installed name has the same pieces under top-level names.
_NAMES = {"app": "app", "migrate": "platform.migrate", "settings": "platform.settings"}
if importlib.util.find_spec("quartermaster") is None:
    _NAMES = {"app": "app", "migrate": "migrate", "settings": "settings"}
    _PREFIX = "service"
else:
    _PREFIX = "quartermaster.service"
create_app = importlib.import_module(f"{_PREFIX}.{_NAMES['app']}").create_app
migrate = importlib.import_module(f"{_PREFIX}.{_NAMES['migrate']}").migrate
Settings = importlib.import_module(f"{_PREFIX}.{_NAMES['settings']}").Settings
from tests.unit.pacg import example_of_play  # noqa: E402

PRODUCT = tuple(str(ROOT / top) + os.sep for top in ("events", "projections", "service"))


class Walk:
    """The project's files a thread's calls enter, counted while `recording` is set."""

    def __init__(self) -> None:
        self.recording = False
        self.entries: Counter[str] = Counter()
        self.first: list[str] = []
        self._lock = threading.Lock()

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.recording or event != "call":
            return
        here = frame.f_code.co_filename
        if not here.startswith(PRODUCT):
            return
        caller = frame.f_back
        # Entered from another file (or from outside the project): a walk into this file.
        if caller is not None and caller.f_code.co_filename == here:
            return
        name = str(Path(here).relative_to(ROOT))
        with self._lock:
            if name not in self.entries:
                self.first.append(name)
            self.entries[name] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url", default=os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    )
    parser.add_argument("--order", action="store_true", help="also print the files in the order first entered")
    args = parser.parse_args()

    name = f"qm_walk_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(args.database_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(args.database_url, dbname=name)
    try:
        migrate(url)
        walk = Walk()
        threading.setprofile(walk.hook)
        sys.setprofile(walk.hook)
        with TestClient(create_app(Settings(rate_limit="100000/minute"), url)) as client:
            created = client.post("/v1/campaigns", json={"name": "Walk", "game": "pacg-skull-and-shackles"}).json()
            path = f"/v1/campaigns/{created['id']}/events"
            headers = {"Authorization": f"Bearer {created['token']}"}
            payloads = example_of_play.PAYLOADS
            last = max(i for i, p in enumerate(payloads) if p["type"] == "card.moved")
            for payload in payloads[:last]:
                answer = client.post(path, json={"events": [payload]}, headers=headers)
                assert answer.status_code == 201, answer.text
            walk.recording = True
            answer = client.post(path, json={"events": [payloads[last]]}, headers=headers)
            walk.recording = False
            assert answer.status_code == 201, answer.text
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    finally:
        with psycopg.connect(args.database_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    for file, count in sorted(walk.entries.items(), key=lambda item: (-item[1], item[0])):
        print(f"{count:4d}  {file}")
    if args.order:
        print("\nfirst entered, in order:")
        for file in walk.first:
            print(f"      {file}")
    again = sum(1 for count in walk.entries.values() if count > 1)
    print(f"\none card.moved append: {len(walk.entries)} project files entered, {again} of them more than once")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
