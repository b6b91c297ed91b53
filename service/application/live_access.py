"""Ending a member's live streams when their access ends: revoked, or their token replaced.

A stream is authenticated once, when it opens; a member revoked (or given a new join link) afterwards would keep
receiving the log for as long as the stream stays open. Every process hears each member change (the store's
`Memory.on_forget_member`, fed by the members channel every process listens on, service/store/members.py): this
process then checks the token of each of that member's open streams against the member's row, and ends those it no
longer matches with a last message, `ended`, whose `detail` says why in a sentence (the page shows it and stops
following). When the listening connection comes up again (a change may have gone unheard), every open stream is
checked. A stream is also checked as it opens, for a change made between its request's check and its start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Iterable

import msgspec
import psycopg

from quartermaster.service.platform import tokens
from quartermaster.service.store import Store

log = logging.getLogger("quartermaster.live")

_encode = msgspec.json.Encoder().encode


def _ended(kind: str, detail: str) -> bytes:
    return b"event: ended\r\ndata: " + _encode({"kind": kind, "detail": detail}) + b"\r\n\r\n"


REVOKED = _ended(
    "revoked",
    "Your access to this campaign was revoked by its owner, so this page no longer follows it; ask the owner for a "
    "new join link.",
)
REPLACED = _ended(
    "token-replaced",
    "The owner gave you a new join link, so this device's old one no longer works and this page no longer follows "
    "the campaign; open the new link.",
)


class Follower:
    """One open stream: whose token it was opened with, the future it waits on, and its last message once ended."""

    __slots__ = ("campaign_id", "ended", "member_id", "secret", "waiting")

    def __init__(self, campaign_id: uuid.UUID, member_id: uuid.UUID | None = None, secret: str = "") -> None:
        self.campaign_id = campaign_id
        self.member_id = member_id
        self.secret = secret
        self.ended: bytes | None = None
        self.waiting: asyncio.Future[None] | None = None

    def end(self, last: bytes) -> None:
        if self.ended is None:
            self.ended = last
            if self.waiting is not None and not self.waiting.done():
                self.waiting.set_result(None)


class Access:
    """The open streams of this process by member, ended when their member's access ends (module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.followers: dict[int, set[Follower]] = {}
        self._checks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self.store.memory.on_forget_member.append(self.changed)

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            self.store.memory.on_forget_member.remove(self.changed)
        for task in list(self._checks):
            task.cancel()

    def follower(self, campaign_id: uuid.UUID, token: str) -> Follower:
        """A stream opened with `token`, counted under its member (none for an empty one: nothing ends it)."""
        parsed = tokens.parse(token) if token else None
        if parsed is None:
            return Follower(campaign_id)
        follower = Follower(campaign_id, *parsed)
        self.followers.setdefault(parsed[0].int, set()).add(follower)
        return follower

    def forget(self, follower: Follower) -> None:
        if follower.member_id is None:
            return
        same = self.followers.get(follower.member_id.int)
        if same is not None:
            same.discard(follower)
            if not same:
                del self.followers[follower.member_id.int]

    def changed(self, member_id: uuid.UUID | None) -> None:
        """A member changed (None: any may have): check their open streams."""
        if member_id is None:
            followers = [f for same in self.followers.values() for f in same]
        else:
            followers = list(self.followers.get(member_id.int, ()))
        if not followers:
            return
        try:
            task = asyncio.get_running_loop().create_task(self.check(followers))
        except RuntimeError:  # no event loop: no stream is open in this thread either
            return
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def check(self, followers: Iterable[Follower]) -> None:
        """End each stream whose token no longer matches its member's row, with the reason."""
        for follower in followers:
            if follower.ended is not None or follower.member_id is None:
                continue
            try:
                row = await self.store.member_credentials(follower.member_id, follower.campaign_id)
            except psycopg.Error as error:
                # The database is away: the next change heard, or the listening connection's return, checks again.
                log.warning("live updates: checking a stream's member failed (%s)", error)
                continue
            if row is None or not row[3]:
                follower.end(REVOKED)
            elif not tokens.matches(follower.secret, row[3]):
                follower.end(REPLACED)
