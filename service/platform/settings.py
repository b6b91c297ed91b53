"""Configuration from the environment, with the defaults a newcomer needs."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path


def default_data_dir() -> Path:
    """Where the embedded PostgreSQL keeps its data: $QUARTERMASTER_DATA_DIR, else the XDG data folder."""
    configured = os.environ.get("QUARTERMASTER_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "quartermaster"


def _number(name: str, default: float, kind: type[int] | type[float]) -> float:
    """A numeric setting from the environment; a value that is not a number is refused at start, in a sentence."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return kind(value)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise ValueError(f"{name} is {value!r}; it takes {what}.") from None


# Written into the page's HTML and scripts as it is: only characters that need no escaping anywhere.
_PATH = re.compile(r"[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*")


def root_path(value: str) -> str:
    """A sub-path as the page writes its addresses: "/qm" for "qm", "/qm/" or "/qm"; "" for the root."""
    path = value.strip().strip("/")
    if not path:
        return ""
    if not _PATH.fullmatch(path) or any(part in (".", "..") for part in path.split("/")):
        raise ValueError(
            f"QUARTERMASTER_ROOT_PATH is {value!r}; it takes a path such as /qm (letters, digits, - _ . ~ and /)."
        )
    return "/" + path


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    # A standby to read from (service/http/replica.py); None reads everything from the primary.
    replica_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path()
    # Large enough for a 1,000-event batch with room to spare; anything bigger is refused with 413.
    max_body_bytes: int = 4 * 1024 * 1024
    pool_min: int = 2
    pool_max: int = 16
    # Seconds a request waits for a database connection before its 503 (see service/http/outage.py).
    pool_timeout: float = 1.5
    # Per client address, on the two routes anyone may call without a token (service/http/limits.py); "off" for none.
    rate_limit: str = "20/minute"
    # Per client address and server process: wrong member tokens (bearer, cookie or join link) before 429 for any
    # token the process has not already matched (service/http/guesses.py); "off" for none.
    wrong_tokens: str = "30/minute"
    # Addresses of the reverse proxies whose X-Forwarded-For names the client (uvicorn's forwarded_allow_ips); empty:
    # no header is believed, and the client is the address that connected.
    trusted_proxies: str = ""
    # Seconds a request's headers and body may take to arrive (service/http/connections.py).
    receive_timeout: float = 20.0
    # Seconds one statement may run, and one wait for a campaign's write lock may last, before a 503 that says to
    # retry (service/http/outage.py).
    statement_timeout: float = 5.0
    lock_timeout: float = 2.0
    # At most this many of the pool's connections serve one campaign at once (service/store/turns.py); 0: a quarter
    # of pool_max.
    campaign_connections: int = 0
    # The path a reverse proxy serves the service under ("/qm"), for the page's own addresses; "" at the root.
    root_path: str = ""

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("DATABASE_URL") or None,
            replica_url=os.environ.get("QUARTERMASTER_REPLICA_URL") or None,
            host=os.environ.get("QUARTERMASTER_HOST", cls.host),
            port=int(_number("QUARTERMASTER_PORT", cls.port, int)),
            data_dir=default_data_dir(),
            max_body_bytes=int(_number("QUARTERMASTER_MAX_BODY_BYTES", cls.max_body_bytes, int)),
            pool_max=int(_number("QUARTERMASTER_POOL_MAX", cls.pool_max, int)),
            pool_timeout=_number("QUARTERMASTER_POOL_TIMEOUT", cls.pool_timeout, float),
            rate_limit=os.environ.get("QUARTERMASTER_RATE_LIMIT", cls.rate_limit),
            wrong_tokens=os.environ.get("QUARTERMASTER_WRONG_TOKENS", cls.wrong_tokens),
            trusted_proxies=os.environ.get("QUARTERMASTER_TRUSTED_PROXIES", cls.trusted_proxies),
            receive_timeout=_number("QUARTERMASTER_RECEIVE_TIMEOUT", cls.receive_timeout, float),
            statement_timeout=_number("QUARTERMASTER_STATEMENT_TIMEOUT", cls.statement_timeout, float),
            lock_timeout=_number("QUARTERMASTER_LOCK_TIMEOUT", cls.lock_timeout, float),
            campaign_connections=int(_number("QUARTERMASTER_CAMPAIGN_CONNECTIONS", cls.campaign_connections, int)),
            root_path=root_path(os.environ.get("QUARTERMASTER_ROOT_PATH", "")),
        )

    @classmethod
    def for_command(cls) -> Settings:
        """The settings from the environment; one it cannot read stops the command with the sentence saying why."""
        try:
            return cls.from_env()
        except ValueError as refused:
            raise SystemExit(f"quartermaster: {refused}") from None

    @property
    def connections_per_campaign(self) -> int:
        return self.campaign_connections or max(1, self.pool_max // 4)
