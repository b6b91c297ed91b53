"""Wrong tokens counted per client address, so that guessing is slowed to a bound (OWASP ASVS 2.2.1).

A member token is long enough that guessing one is hopeless; still, a web service is expected to refuse an automated
stream of wrong credentials. Each wrong token (a bearer token, a page cookie, a join link) counts against the address
that sent it; an address with `count` wrong tokens within the last `seconds` is answered 429 with Retry-After for any
token this process has not already matched, until its oldest counted failure ages out. A token already matched (a
member at that address who was playing all along) is still accepted, so a guesser cannot lock out a table sharing
the address, and a member at any other address is never touched. Counted per server process: with `--workers N`
an address may try N times the bound (the operator's guide's security section says so).
"""

from __future__ import annotations

import math
import time
from collections import deque

from litestar.middleware.rate_limit import DURATION_VALUES

from quartermaster.service.http.limits import parse
from quartermaster.service.http.problems import Problem

# Where create_app keeps the app's Guesses (None when counting is off).
STATE_KEY = "wrong_tokens"

# Addresses remembered at once: beyond it, the address whose failures are oldest is forgotten first, so that a
# stream of wrong tokens from ever new addresses costs bounded memory.
MAX_ADDRESSES = 100_000


class Guesses:
    """The wrong tokens of each address within the window, oldest first."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self._now = time.monotonic
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str, now: float) -> deque[float] | None:
        kept = self._failures.get(address)
        if kept is None:
            return None
        while kept and kept[0] <= now - self.seconds:
            kept.popleft()
        if not kept:
            del self._failures[address]
            return None
        return kept

    def wait(self, address: str) -> int | None:
        """Seconds until this address may try an unknown token again, or None when it may now."""
        now = self._now()
        kept = self._recent(address, now)
        if kept is None or len(kept) < self.count:
            return None
        return max(1, math.ceil(kept[-self.count] + self.seconds - now))

    def failed(self, address: str) -> None:
        """Count one wrong token from this address."""
        now = self._now()
        kept = self._recent(address, now)
        if kept is None:
            if len(self._failures) >= MAX_ADDRESSES:
                del self._failures[next(iter(self._failures))]
            kept = self._failures[address] = deque(maxlen=self.count)
        kept.append(now)


def guesses(text: str) -> Guesses | None:
    """The app's counter for a setting such as `30/minute` (None for `off`)."""
    rate = parse(text)
    return None if rate is None else Guesses(rate[1], DURATION_VALUES[rate[0]])


def throttled(seconds: int) -> Problem:
    return Problem(
        429,
        f"Too many wrong tokens were sent from this address; wait {seconds} seconds, then try again with the token "
        "from your join link.",
        kind="too-many-wrong-tokens",
        headers={"Retry-After": str(seconds)},
    )
