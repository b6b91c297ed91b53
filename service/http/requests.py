"""Request bodies, decoded with msgspec into types, with errors turned into sentences."""

from __future__ import annotations

import difflib
import re
import uuid
from datetime import datetime
from functools import cache
from typing import Annotated, Any, Literal, TypeVar

import msgspec
import msgspec.inspect as mi
from litestar import Request

from quartermaster.service.http.hostile import refuse_nul_and_depth
from quartermaster.service.http.problems import Problem
from quartermaster.service.store.records import Override

# One request may carry a whole scenario's worth of events; the byte limit on bodies guards the rest.
MAX_EVENTS_PER_BATCH = 5000
MAX_NAME = 200

# A request to any route: the service keeps no user, auth or state types on Litestar's request (the member asking
# arrives through a dependency, service.auth), so each of Request's three type arguments is Any.
AnyRequest = Request[Any, Any, Any]

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]


class NewCampaign(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    game: str
    options: dict[str, Any] = {}
    owner_name: Name = "Owner"


class NewMember(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    role: Literal["owner", "player", "viewer", "display"]


# A batch decodes into a thousand of these at a time: untracked by the garbage collector, they decode a quarter
# faster. Safe because JSON cannot make a reference cycle, and nothing puts one in them afterwards.
class NewEvent(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    type: str
    data: dict[str, Any] = {}
    id: uuid.UUID | None = None
    # With its time zone (Z for UTC, or +02:00): without one, a moment means a different instant on every server.
    occurred_at: Annotated[datetime, msgspec.Meta(tz=True)] | None = None
    # Log it against a rule of the game, for this reason (the owner, or any player where the campaign allows it).
    override: Override | None = None


class AppendRequest(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    events: Annotated[list[NewEvent], msgspec.Meta(min_length=1, max_length=MAX_EVENTS_PER_BATCH)]
    expected_position: Annotated[int, msgspec.Meta(ge=0)] | None = None


T = TypeVar("T")


def decode(raw: bytes, type_: type[T]) -> T:
    """The body as `type_`, or a 400 for JSON that does not parse and a 422 for JSON of the wrong shape."""
    if not raw.strip():
        raise Problem(400, "The request has no body; send a JSON object.", kind="malformed-json")
    refuse_nul_and_depth(raw)
    try:
        # One pass straight into the type; msgspec tells JSON that does not parse from JSON of the wrong shape.
        return msgspec.json.decode(raw, type=type_, strict=True)
    except msgspec.ValidationError as error:
        raise Problem(422, explain(error, "body", type_), kind="invalid-body") from None
    except msgspec.DecodeError as error:
        raise Problem(400, f"The request body is not valid JSON: {error}.", kind="malformed-json") from None


def explain(error: msgspec.ValidationError, where: str, type_: Any = None) -> str:
    """msgspec's "Expected `int`, got `str` - at `$.amount`" as a sentence about the request, in plain words.

    `where` names the whole value ("body", "data"); the sentence names the field as a player would read it
    ("the amount", "the deck of location 2") and never quotes the schema's own words.
    """
    message = str(error)
    text, _, path = message.partition(" - at `")
    path = path.rstrip("`")
    field = field_words(path, where)
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", text)
    if unknown:
        known = _names_at(type_, path) if type_ is not None else []
        return f"{_capital(field)} has no field {unknown[1]}{_suggest(unknown[1], known)}"
    missing = re.fullmatch(r"Object missing required field `(.*)`", text)
    if missing:
        return f"{_capital(field)} needs the {_words(missing[1])}."
    enum = re.fullmatch(r"Invalid enum value (.*)", text)
    if enum:
        choices = _choices_at(type_, path) if type_ is not None else []
        listed = f" Choose one of: {', '.join(map(str, choices))}." if choices else ""
        return f"{_capital(field)} cannot be {_unquoted(enum[1])}.{listed}"
    length = re.fullmatch(r"Expected `(\w+)[^`]*` of length ([<>]=?) (\d+)", text)
    if length:
        unit = "character" if length[1] == "str" else "entry"
        most = {">=": "at least", "<=": "at most", ">": "more than", "<": "fewer than"}[length[2]]
        count = int(length[3])
        units = unit if count == 1 else ("characters" if unit == "character" else "entries")
        return f"{_capital(field)} must have {most} {count} {units}."
    bound = re.fullmatch(r"Expected `[^`]*` ([<>]=?) (-?[\d.]+)", text)
    if bound:
        words = {">=": "at least", "<=": "at most", ">": "more than", "<": "less than"}[bound[1]]
        return f"{_capital(field)} must be {words} {bound[2]}."
    wrong = re.fullmatch(r"Expected `([^`]*)`, got `([^`]*)`", text)
    if wrong:
        return f"{_capital(field)} must be {_kind(wrong[1])}, not {_kind(wrong[2])}."
    if text == "Expected `datetime` with a timezone component":
        return f"{_capital(field)} must say its time zone (Z for UTC, or +02:00 for two hours ahead)."
    plain = _PLAIN.get(text)
    if plain:
        return f"{_capital(field)} is not {plain}."
    # Any other message (a malformed date, an id that is not one): say which field, in the message's own words
    # with the schema's quoting taken off.
    return f"{_capital(field)} is not valid: {_unquoted(text).rstrip('.')}."


_PLAIN = {
    "Invalid UUID": "an event id",
    "Invalid RFC3339 encoded datetime": "a date and time (2026-05-01T20:00:00Z)",
    "Invalid base64 encoded string": "valid",
}
_KINDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "a name or text",
    "bool": "yes or no",
    "array": "a list",
    "object": "a set of fields",
    "null": "empty",
    "datetime": "a date and time",
    "uuid": "an id",
}


def _kind(schema: str) -> str:
    """`int | null` as "a whole number": what a value must be, in words (an optional value is simply left out)."""
    parts = [part.strip() for part in schema.split("|") if part.strip() != "null"] or ["null"]
    return " or ".join(_KINDS.get(part, "something else") for part in parts)


def _words(name: str) -> str:
    return name.replace("_", " ")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _unquoted(text: str) -> str:
    return text.replace("`", "\u201c", 1).replace("`", "\u201d", 1).replace("`", "")


def field_words(path: str, where: str) -> str:
    """`$.locations[1].deck` as "the deck of locations, entry 2"; the whole value as "the request" or "this entry"."""
    steps = re.findall(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]", path)
    if not steps:
        return "the request" if where == "body" else "this entry"
    words: list[str] = []
    for key, index in steps:
        if key:
            words.append(_words(key))
        elif index == "...":
            # A value of a mapping (a deck's count of one card type): msgspec does not say which key.
            words[-1:] = [f"each count of the {words[-1]}" if words else "each count"]
            continue
        elif words:
            words[-1] = f"{words[-1]}, entry {int(index) + 1}"
        else:
            words.append(f"entry {int(index) + 1}")
    said = " of ".join(reversed(words))
    return said if said.startswith("each ") else f"the {said}"


def _at(type_: Any, path: str) -> Any:
    """What msgspec knows of the type found at a msgspec path (`$.events[0]`), or None where the path leads nowhere."""
    info = _unwrap(_info(type_))
    for step in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path):
        info = _step(info, step[0] or None)
        if info is None:
            return None
    return info


def _choices_at(type_: Any, path: str) -> list[Any]:
    """The values a Literal field at a msgspec path can take, or none."""
    info = _at(type_, path)
    if isinstance(info, mi.UnionType):
        found = [_unwrap(t) for t in info.types]
        info = next((t for t in found if isinstance(t, (mi.LiteralType, mi.EnumType))), None)
    if isinstance(info, mi.LiteralType):
        return list(info.values)
    if isinstance(info, mi.EnumType):
        return [member.value for member in info.cls]
    return []


# -- unknown fields ------------------------------------------------------------------------------------------------
# Events decode leniently (a stored log never stops decoding because a field was retired), so intake looks for
# fields the type does not know before converting, and refuses them with the closest real name.


def did_you_mean(name: str, known: list[str]) -> str | None:
    """The known name closest to a misspelled one, if any is close."""
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return close[0] if close else None


def _suggest(name: str, known: list[str]) -> str:
    """The end of a sentence about an unknown field: the closest name, or the names there are."""
    guess = did_you_mean(name, known)
    if guess:
        return f"; did you mean {guess}?"
    return f"; the fields are {', '.join(k.replace('_', ' ') for k in known)}." if known else "."


def _unwrap(info: Any) -> Any:
    while isinstance(info, mi.Metadata):
        info = info.type
    return info


@cache
def _info(type_: Any) -> Any:
    return mi.type_info(type_)


def _names_at(type_: Any, path: str) -> list[str]:
    """The field names of the struct found at a msgspec path (`$.events[0]`), or none."""
    info = _at(type_, path)
    return [f.encode_name for f in info.fields] if isinstance(info, mi.StructType) else []


def _step(info: Any, key: str | None) -> Any:
    if isinstance(info, mi.UnionType):
        structs = [t for t in map(_unwrap, info.types) if isinstance(t, (mi.StructType, mi.ListType, mi.DictType))]
        info = structs[0] if len(structs) == 1 else None
    if isinstance(info, mi.StructType) and key is not None:
        field = next((f for f in info.fields if f.encode_name == key), None)
        return _unwrap(field.type) if field else None
    if isinstance(info, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
        return _unwrap(info.item_type)
    if isinstance(info, mi.DictType):
        return _unwrap(info.value_type)
    return None


def unknown_fields(type_: Any, data: Any, where: str = "data") -> list[tuple[str, str, str]]:
    """Every field of `data` that `type_` does not know, at any depth: (where it is, the field, what to say next:
    the closest real name or the names there are)."""
    found: list[tuple[str, str, str]] = []
    _walk(_unwrap(_info(type_)), data, where, found)
    return found


@cache
def plain_fields(type_: Any) -> frozenset[str]:
    """The fields of a struct type that hold no struct at any depth (its tag field excluded): data whose keys are
    all among them has no unknown field, so `unknown_fields` is [] without walking it."""
    return frozenset(name for name, (_, nests) in _fields_of(_unwrap(_info(type_))).items() if not nests)


def _nests(info: Any) -> bool:
    """Whether a value of this type can hold a struct: only a struct has fields to be unknown."""
    if isinstance(info, mi.StructType):
        return True
    if isinstance(info, mi.UnionType):
        return any(_nests(_unwrap(t)) for t in info.types)
    if isinstance(info, (mi.ListType, mi.VarTupleType)):
        return _nests(_unwrap(info.item_type))
    if isinstance(info, mi.DictType):
        return _nests(_unwrap(info.value_type))
    return False


_FIELDS: dict[type, dict[str, tuple[Any, bool]]] = {}


def _fields_of(info: mi.StructType) -> dict[str, tuple[Any, bool]]:
    """A struct's fields by JSON name: their type, and whether a struct can be inside (kept per struct class)."""
    fields = _FIELDS.get(info.cls)
    if fields is None:
        # _nests stops at the first struct it meets, so working out one struct's fields never needs another's
        # (a struct holding itself included).
        fields = {
            f.encode_name: (_unwrap(f.type), _nests(_unwrap(f.type)))
            for f in info.fields
            if f.encode_name != info.tag_field
        }
        _FIELDS[info.cls] = fields
    return fields


def _walk(info: Any, data: Any, where: str, found: list[tuple[str, str, str]]) -> None:
    if isinstance(info, mi.UnionType):
        # The member a JSON object or array can only be: the struct (or mapping) for an object, the list for an array.
        wanted = (mi.StructType, mi.DictType) if isinstance(data, dict) else (mi.ListType, mi.VarTupleType)
        members = [t for t in map(_unwrap, info.types) if isinstance(t, wanted)]
        info = members[0] if members else None
    if isinstance(info, mi.StructType) and isinstance(data, dict):
        fields = _fields_of(info)
        for key, value in data.items():
            field = fields.get(key)
            if field is None:
                if key != info.tag_field:
                    found.append((where, key, _suggest(key, list(fields))))
            elif field[1]:  # a value that cannot hold a struct has no field to be unknown
                _walk(field[0], value, f"{where}.{key}", found)
    elif isinstance(info, (mi.ListType, mi.VarTupleType)) and isinstance(data, list):
        for index, item in enumerate(data):
            _walk(_unwrap(info.item_type), item, f"{where}[{index}]", found)
    elif isinstance(info, mi.DictType) and isinstance(data, dict):
        for key, value in data.items():
            _walk(_unwrap(info.value_type), value, f"{where}.{key}", found)
