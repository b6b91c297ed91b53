"""Input nobody sends by accident, refused with a sentence before it reaches the decoder or PostgreSQL.

Two things get through a JSON parser and still break the server: the NUL character, which PostgreSQL cannot keep
in `text` or `jsonb` (it refuses the statement, after the request looked valid), and nesting deep enough to exhaust
the decoder's recursion. Both are checked on the raw bytes, so every body and every query parameter gets the same
answer whatever type it later decodes into.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from itertools import accumulate

import msgspec
from litestar.types import Scope, Send

from quartermaster.service.http.problems import MEDIA_TYPE, Problem, body

# Deeper than any request this API takes (a batch of events is four levels, a Skull Tales chapter a few more), and
# far below the depth at which decoding recurses out of stack.
MAX_DEPTH = 32

# `\u0000` inside a JSON string, but not `\\u0000` (an escaped backslash followed by the text "u0000").
_NUL_ESCAPE = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
# A JSON string: a quote, then anything but a quote or a backslash, or a backslash and the character it escapes (not
# a line break), then a quote. Written unrolled (runs of plain characters, then one escape at a time) so the regex
# engine takes a string in a few steps rather than one per character; it matches exactly what the plain
# `"(?:[^"\\]|\\.)*"` matches.
_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_QUOTED = re.compile(rb'"[^"]*"')
# Which bracket it is never matters to the depth, so `{}` count as `[]`.
_AS_SQUARE = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_BRACKETS_OR_QUOTES = bytes(b for b in range(256) if b not in b'[]{}"')
_OPEN = ord("[")

# Bytes are searched with find, not `in`: `needle in haystack` first tries the needle as an integer (a byte value),
# and the TypeError a bytes needle raises there is formatted before the search goes on, about 2,500 instructions a
# search (callgrind); a one-note append made three (its query string twice, its body once).


def refuse_nul_and_depth(raw: bytes, where: str = "The request body") -> None:
    """Raise a 400 Problem when a JSON (or NDJSON) body holds a NUL character or nests deeper than MAX_DEPTH."""
    if raw.find(b"\\u0000") >= 0 and _NUL_ESCAPE.search(raw):
        raise Problem(
            400,
            f"{where} holds a NUL character (\\u0000) in a string; PostgreSQL cannot store it, so "
            "nothing was written. Remove it and send again.",
            kind="nul-character",
        )
    # Only bodies with enough brackets to be that deep are scanned; strings are cut out first, since a bracket in
    # a note is text, not nesting.
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and _deeper_than(MAX_DEPTH, _brackets(raw)):
        raise Problem(
            400,
            f"{where} nests arrays and objects more than {MAX_DEPTH} deep; no request of this "
            "API needs that many levels.",
            kind="nested-too-deep",
        )


def _brackets(raw: bytes) -> bytes:
    """The brackets of a JSON text outside its strings, each as `[` or `]`."""
    if b"\\" in raw or raw.count(b'"') % 2:
        # An escaped quote, or a quote left open: only the string regex tells where strings end.
        return _STRINGS.sub(b"", raw).translate(_AS_SQUARE, _NOT_BRACKETS)
    # Without backslashes, every other quote ends a string. Cut down to quotes and brackets first (a few bytes an
    # event), then drop the quotes with nothing between them: whether they open and close an empty string or close
    # one string and open the next, nothing outside the strings changes. Only strings holding brackets are left.
    kept = raw.translate(_AS_SQUARE, _NOT_BRACKETS_OR_QUOTES).replace(b'""', b"")
    return _QUOTED.sub(b"", kept) if b'"' in kept else kept


def _deeper_than(limit: int, brackets: bytes) -> bool:
    """Whether some prefix of `brackets` (`[` and `]`, balanced or not) opens more than `limit` it has not closed.

    Each pass takes out the pairs `[]` with nothing inside, which lowers the deepest point by exactly one level: the
    deepest `[` is always followed by a `]` (closers are added at the end so that an unclosed last `[` is too).
    A pass that finds no pair leaves only `]`: nothing is open anywhere. A deep text loses few bytes a pass, and is
    counted bracket by bracket instead.
    """
    rest = brackets + b"]" * (limit + 1)  # one closer left after `limit` passes, each of which takes at most one
    while limit:
        shorter = rest.replace(b"[]", b"")
        if len(shorter) == len(rest):
            return False
        if len(rest) - len(shorter) < len(rest) // 8:
            break
        rest, limit = shorter, limit - 1
    return max(accumulate(1 if b == _OPEN else -1 for b in rest)) > limit


def unstorable_time(value: datetime | None) -> str | None:
    """Why a moment cannot be kept and read back (None when it can): PostgreSQL keeps years before 1 and after 9999,
    which Python's datetime, and so every later read, cannot hold."""
    if value is None:
        return None
    try:
        value.astimezone(UTC)
    except OverflowError:
        return f"{value.isoformat()} is outside the years 1 to 9999 once in UTC; a moment of a campaign is inside them."
    return None


def nul_in_url(scope: Scope) -> bool:
    """Whether the path or the query string holds a NUL character, raw or percent-encoded."""
    if "\x00" in scope["path"]:
        return True
    query = scope.get("query_string", b"")
    return bool(query) and (query.find(b"\x00") >= 0 or query.find(b"%00") >= 0)


NUL_IN_URL = msgspec.json.encode(
    body(
        400,
        "The address holds a NUL character (%00) in its path or a query parameter; nothing can be "
        "looked up by it. Remove it and send again.",
        "nul-character",
        {},
    )
)
_NUL_IN_URL_HEADERS = [(b"content-type", MEDIA_TYPE.encode()), (b"content-length", str(len(NUL_IN_URL)).encode())]


async def refuse_nul_in_url(send: Send) -> None:
    """Answer 400 to an address with a NUL character, before any handler (and any SQL) sees it."""
    await send({"type": "http.response.start", "status": 400, "headers": list(_NUL_IN_URL_HEADERS)})
    await send({"type": "http.response.body", "body": NUL_IN_URL, "more_body": False})
