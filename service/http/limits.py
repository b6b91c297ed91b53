"""A per-client rate limit on what anyone may call without a token: starting a campaign and importing one.

Everything else needs a member token, so its callers are known; these two would let anyone fill the database. The
two routes carry `PER_CLIENT` as their own middleware, so no other request pays for the limit. It counts with
Litestar's rate-limit machinery, per client address in each server process (with `--workers N`, each worker counts
on its own), at the rate the app was made with. The client is the address that connected: `serve` believes an
X-Forwarded-For header only from the proxies the operator names (QUARTERMASTER_TRUSTED_PROXIES), so behind a
proxy name it, or every caller shares the proxy's address; and no caller moves itself out of its count by sending
the header.
"""

from __future__ import annotations

import re
from typing import Any

from litestar.exceptions import TooManyRequestsException
from litestar.middleware import DefineMiddleware
from litestar.middleware.rate_limit import DURATION_VALUES, RateLimitConfig, RateLimitMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send

# Where create_app keeps the app's Limit (None when the limit is off).
STATE_KEY = "rate_limit"

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


async def _not_called(scope: Scope, receive: Receive, send: Send) -> None:
    raise AssertionError("a Limit counts requests; the route's own stack calls the handler")


class Limit(RateLimitMiddleware):
    """Litestar's per-client counting, one per app, so the routes it guards share one count and one lock."""

    def __init__(self, rate: tuple[Any, int]) -> None:
        super().__init__(app=_not_called, config=RateLimitConfig(rate_limit=rate))

    async def count(self, scope: Scope, send: Send) -> Send:
        """Count this request against its client, or raise 429 when the client is over the limit; answers the send
        that adds the RateLimit headers (as Litestar's middleware does)."""
        app = scope["litestar_app"]
        key = self.cache_key_from_request(app.request_class(scope))
        store = self.config.get_store_from_app(app)
        async with self._lock:
            seen = await self.retrieve_cached_history(key, store)
            if len(seen.history) >= self.max_requests:
                raise TooManyRequestsException(headers=self.create_response_headers(cache_object=seen))
            await self.set_cached_history(key=key, cache_object=seen, store=store)
        return self.create_send_wrapper(send=send, cache_object=seen)


def limit(text: str) -> Limit | None:
    """The app's limit for this setting (None when it is off)."""
    rate = parse(text)
    return None if rate is None else Limit(rate)


class PerClient:
    """The app's limit, on the route that carries it. A plain ASGI middleware: the check is a coroutine, so it never
    takes the thread hop Litestar gives a sync `check_throttle_handler`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit: Limit | None = scope["litestar_app"].state.get(STATE_KEY)
        if limit is not None:
            send = await limit.count(scope, send)
        await self.app(scope, receive, send)


PER_CLIENT = DefineMiddleware(PerClient)
