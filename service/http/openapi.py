"""Request bodies in the OpenAPI document.

Handlers decode their bodies themselves with msgspec (so a malformed body and a body of the wrong shape get answers
of their own), which leaves Litestar nothing to describe. Each route names its body type here instead: the JSON
schema comes from msgspec, from the same types the handlers decode with, so the document cannot drift from the code.
Schemas are inlined (our bodies are small and not recursive), since Litestar keeps only its own components.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import msgspec
from litestar.openapi.spec import OpenAPIMediaType, Operation, Parameter, RequestBody, Schema


def inline(type_: type) -> dict[str, Any]:
    """The JSON schema of a type with every `$ref` replaced by what it names."""
    schema = msgspec.json.schema(type_)
    definitions: dict[str, dict[str, Any]] = schema.pop("$defs", {})

    def resolve_object(node: dict[str, Any]) -> dict[str, Any]:
        ref = node.get("$ref")
        if ref is not None:
            return resolve_object(definitions[ref.rsplit("/", 1)[1]])
        return {key: resolve(value) for key, value in node.items()}

    def resolve(node: object) -> object:
        if isinstance(node, dict):
            return resolve_object(node)
        if isinstance(node, list):
            return [resolve(item) for item in node]
        return node

    return resolve_object(schema)


def body(type_: type, media_type: str = "application/json", headers: Sequence[Parameter] = ()) -> type[Operation]:
    """An operation class for a route whose body is `type_`, decoded by the handler itself, and which reads these
    `headers` itself too (the Idempotency-Key, say: idempotency.HEADER_PARAMETER)."""
    # Litestar writes a media type's schema with its own encoder, which writes a mapping as it is: msgspec's JSON
    # schema goes into the document unchanged, where Litestar's Schema dataclass would be a translation of it.
    schema = cast(Schema, inline(type_))

    @dataclass
    class WithBody(Operation):
        def __post_init__(self) -> None:
            self.request_body = RequestBody(content={media_type: OpenAPIMediaType(schema=schema)}, required=True)
            if headers:
                self.parameters = [*(self.parameters or []), *headers]

    return WithBody
