"""The Idempotency-Key header: a write that may be sent twice (undo, redo, a roll, a new member) carries a key of
the client's making, and the same key with the same request answers what was recorded instead of doing it again.

Appends need no key: their event ids, made by the client, already make a retry safe.

A key is the caller's: it is kept as `<member id> <key>` (a key holds no space), so another member sending the same
key, even with the same body, makes a request of their own and is answered nothing of the first member's.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from litestar import Response
from litestar.enums import ParamType
from litestar.openapi.spec import OpenAPIType, Parameter, Schema

from quartermaster.service.http.auth import header_of
from quartermaster.service.http.problems import Problem, respond
from quartermaster.service.http.requests import AnyRequest
from quartermaster.service.store.keys import Keyed, KeyReused

HEADER = b"idempotency-key"
# Printable ASCII without spaces: a UUID, a ULID, or any token a client makes.
KEY_PATTERN = r"[!-~]{1,200}"
_KEY = re.compile(KEY_PATTERN)

# The header in the OpenAPI document of every route that reads it (`keyed`), from the same pattern.
HEADER_PARAMETER = Parameter(
    name="Idempotency-Key",
    param_in=ParamType.HEADER,
    required=False,
    schema=Schema(type=OpenAPIType.STRING, pattern=f"^{KEY_PATTERN}$"),
    description=(
        "A key of the client's making (a UUID will do). Sent again with the same request, the answer is what was "
        "recorded the first time (200), and nothing is written again; with a different request, 409."
    ),
)


async def keyed(request: AnyRequest, caller: str) -> Keyed | None:
    """The request's key, scoped to the `caller` (the member's actor), and the digest of what it asks (method, path,
    body), or None without the header."""
    key = header_of(request, HEADER)
    if key is None:
        return None
    if not _KEY.fullmatch(key):
        raise Problem(
            400,
            "The Idempotency-Key header must be 1 to 200 printable characters without spaces (a UUID will do).",
            kind="bad-idempotency-key",
        )
    digest = hashlib.sha256(b"\n".join([request.method.encode(), request.url.path.encode(), await request.body()]))
    return Keyed(key=f"{caller} {key}", digest=digest.hexdigest())


def on_key_reused(_: AnyRequest, exc: KeyReused) -> Response[bytes]:
    return respond(
        409,
        f"The Idempotency-Key {exc.key.rpartition(' ')[2]!r} was already used for a different request (it recorded "
        f"batch {exc.batch}); use a new key for a new request.",
        "idempotency-key-reused",
        {"batch": str(exc.batch)},
    )


HANDLERS: dict[type[Exception], Callable[[AnyRequest, Any], Response[bytes]]] = {KeyReused: on_key_reused}
