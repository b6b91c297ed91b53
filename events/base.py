"""The base of every event and the envelope a recorded event travels in."""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A fact recorded at the table. Subclasses carry a permanent string tag."""


def tag_of(event_type: type[Event]) -> str:
    """The permanent type string of an event class."""
    tag = event_type.__struct_config__.tag
    assert isinstance(tag, str), f"{event_type.__name__} has no explicit tag"
    return tag
