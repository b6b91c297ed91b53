"""Member tokens: random, shown once, stored only as hashes, compared in constant time.

A token reads `qm_<member id>_<secret>`. The member id finds the one row to compare against, so the check is a
primary-key lookup followed by `hmac.compare_digest` of two SHA-256 digests; the secret (256 bits from `secrets`)
never reaches the database or the logs. A process keeps the tokens it has already matched (`Verified`) by a
digest too (BLAKE2s), never in plain text.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import uuid
from collections.abc import MutableMapping
from typing import Any

import msgspec

PREFIX = "qm_"
_MEMBER = re.compile(r"[0-9a-f]{32}")


def new_token(member_id: uuid.UUID) -> tuple[str, bytes]:
    """A fresh token for a member, and the hash to store."""
    secret = secrets.token_urlsafe(32)
    return f"{PREFIX}{member_id.hex}_{secret}", digest(secret)


def digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def parse(token: str) -> tuple[uuid.UUID, str] | None:
    """The member id and secret of a well-formed token, else None."""
    if not token.startswith(PREFIX):
        return None
    member, _, secret = token[len(PREFIX) :].partition("_")
    # Only the spelling new_token writes: uuid.UUID would also take upper case, braces and `urn:uuid:`, which
    # would make one credential readable under many spellings.
    if not secret or not _MEMBER.fullmatch(member):
        return None
    # The same UUID as uuid.UUID(hex=member), made by msgspec in C: uuid.UUID's constructor is Python, and every
    # request of a member reads its token (the ledger in benchmarks/README.md has the measurement).
    return msgspec.convert(member, uuid.UUID), secret


def matches(secret: str, stored: bytes) -> bool:
    return hmac.compare_digest(digest(secret), stored)


# The digest a kept token is known by: a cryptographic hash, so the key says nothing of the token. BLAKE2s rather than
# the SHA-256 the database keeps: every request of a member digests its token, and hashlib's BLAKE2 is Python's own C
# code, where its SHA-256 goes through OpenSSL's set-up on every call (benchmarks/README.md's ledger has both costs).
_kept_digest = hashlib.blake2s


class Verified:
    """Tokens this process has already matched against their member's hash, with that member (service.auth.Member),
    keyed by a digest of the whole token (`_kept_digest`): a memory dump or a debugger shows digests, never a
    credential. Kept in the map it is given, which bounds it: the store's memory gives one under its one eviction rule
    (service/store/memory.py); a bare Verified keeps everything. A member's tokens are forgotten when their token is
    replaced or they are revoked.

    The member is `Any`: service.auth.Member, which imports the store, so it cannot be named here."""

    def __init__(self, kept: MutableMapping[bytes, Any] | None = None) -> None:
        self._by_digest: MutableMapping[bytes, Any] = {} if kept is None else kept

    def get(self, token: str) -> Any:
        return self._by_digest.get(_kept_digest(token.encode()).digest())

    def keep(self, token: str, member: Any) -> None:
        self._by_digest[_kept_digest(token.encode()).digest()] = member

    def forget(self, member_id: uuid.UUID) -> None:
        for key in [key for key, known in self._by_digest.items() if known.id == member_id]:
            del self._by_digest[key]

    def clear(self) -> None:
        self._by_digest.clear()

    def __len__(self) -> int:
        return len(self._by_digest)
