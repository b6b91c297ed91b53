"""A per-client rate limit on what anyone may call without a token: starting a campaign and importing one.

Everything else needs a member token, so its callers are known; these two would let anyone fill the database. The
limit is Litestar's rate-limit middleware, counting per client address in each server process (with `--workers N`,
each worker counts on its own). Behind a proxy, run uvicorn with `--proxy-headers` from a trusted proxy so the client
address is the caller's, not the proxy's.
"""

from __future__ import annotations

import re
from typing import Any

from litestar import Request
from litestar.middleware.rate_limit import DURATION_VALUES, RateLimitConfig

# Routes a caller without a token may write through (method, path).
UNAUTHENTICATED = frozenset({("POST", "/v1/campaigns"), ("POST", "/v1/campaigns/import")})

_LIMIT = re.compile(r"\s*(\d+)\s*/\s*(second|minute|hour|day)\s*")


class LimitSyntaxError(ValueError):
    pass


def parse(text: str) -> tuple[Any, int] | None:
    """`"20/minute"` as (unit, count); `"off"` (or 0) as None."""
    if text.strip().lower() in ("off", "0", ""):
        return None
    found = _LIMIT.fullmatch(text)
    if found is None or int(found.group(1)) < 1:
        units = ", ".join(DURATION_VALUES)
        raise LimitSyntaxError(
            f"The rate limit {text!r} is not of the form COUNT/UNIT (a whole number, then one of "
            f'{units}; for example 20/minute), nor "off".'
        )
    return found.group(2), int(found.group(1))


def _unauthenticated(request: Request) -> bool:
    return (request.method, request.scope["path"]) in UNAUTHENTICATED


def middleware(text: str) -> list[Any]:
    """The app's rate-limit middleware for this setting (none when it is off)."""
    limit = parse(text)
    if limit is None:
        return []
    return [RateLimitConfig(rate_limit=limit, check_throttle_handler=_unauthenticated).middleware]
