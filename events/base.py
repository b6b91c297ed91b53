"""The base of every event and the envelope a recorded event travels in.

Each event type is described once, on its class (the convention every game follows):

- the docstring's first line is one sentence in the game's words saying what happened, and a line
  `Rulebook: <rulebook>, <section>.` names the rule it follows, where one applies;
- every field is `Annotated[T, msgspec.Meta(description=...)]`;
- `EXAMPLES` holds at least one `data` payload (without `type`) that the fold accepts in a realistic state;
- `APPENDED_BY` says which roles may append it through `POST /v1/campaigns/{id}/events` (none for the events the
  service writes itself, which say in `WRITTEN_BY` what writes them instead), and `VIEWS` which of the game's
  views it changes ("*": all of them).

The OpenAPI document, `GET /v1/games/{game}/event-types` and the intake's error messages are all read from there.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A fact recorded at the table. Subclasses carry a permanent string tag."""

    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = ()
    APPENDED_BY: ClassVar[tuple[str, ...]] = ("owner", "player")
    VIEWS: ClassVar[tuple[str, ...]] = ()
    # For the events no role appends: the endpoint that writes them, as a clause ("undo through POST ...").
    WRITTEN_BY: ClassVar[str | None] = None


def tag_of(event_type: type[Event]) -> str:
    """The permanent type string of an event class."""
    tag = event_type.__struct_config__.tag
    assert isinstance(tag, str), f"{event_type.__name__} has no explicit tag"
    return tag


def _own_doc(event_type: type) -> str:
    # Only the class's own docstring: a subclass without one must not borrow "A fact recorded at the table."
    return inspect.cleandoc(event_type.__dict__.get("__doc__") or "")


def summary(event_type: type[Event]) -> str:
    """The one sentence saying what happened (the docstring's first paragraph, on one line)."""
    first = _own_doc(event_type).split("\n\n", 1)[0]
    return " ".join(line.strip() for line in first.splitlines() if not line.startswith("Rulebook:")).strip()


def description(event_type: type[Event]) -> str:
    """The whole docstring: what happened, the rulebook section it follows, and any notes."""
    return _own_doc(event_type)


def rulebook(event_type: type[Event]) -> str | None:
    """The `Rulebook: ...` line of the docstring, without its label, or None."""
    for line in _own_doc(event_type).splitlines():
        if line.startswith("Rulebook:"):
            return line.removeprefix("Rulebook:").strip()
    return None
