"""Join links as QR codes (SVG drawn by segno), and the addresses a phone on the local network can open."""

from __future__ import annotations

import asyncio
import io
import socket
from typing import Annotated, Any

import msgspec
import segno
from litestar import Response, get, post

from quartermaster.service.http.auth import same_origin
from quartermaster.service.http.requests import AnyRequest, decode


class Link(msgspec.Struct, forbid_unknown_fields=True):
    link: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


@post("/join-code", include_in_schema=False, status_code=200)
async def join_code(request: AnyRequest) -> Response[bytes]:
    """The QR code of a join link. The link (with its token) comes in the body, never in a URL the server logs."""
    same_origin(request)
    link = decode(await request.body(), Link).link
    svg = io.BytesIO()
    segno.make(link, error="m").save(
        svg, kind="svg", scale=5, border=2, title="Join link", dark="#1b1b1b", light="#ffffff"
    )
    return Response(svg.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as far as it can tell without sending anything."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    try:
        # Connecting a UDP socket sends no packet; it only asks the kernel which interface would route there.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 9))
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    return sorted({a for a in found if not a.startswith("127.") and a != "0.0.0.0"})


async def _answers(address: str, port: int) -> bool:
    """Whether something accepts connections on that address and port: a server started with `--host 127.0.0.1`
    does not on the local network's address, and a join link pointing there would open nothing."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(address, port), timeout=0.5)
    except (OSError, TimeoutError):
        return False
    writer.close()
    return True


@get("/page/addresses", include_in_schema=False)
async def addresses(request: AnyRequest) -> dict[str, Any]:
    """Where phones on this network can reach the page, for the join links the owner shows them: the local network's
    addresses this server answers on (`addresses`), and those it does not (`not_listening`), to say how to serve; and
    the origin this request named (`seen`): a page whose own origin is another one is behind a reverse proxy, whose
    address is the one to give (static/crew.js)."""
    scheme = request.url.scheme
    port = request.url.port or {"http": 80, "https": 443}[scheme]
    suffix = f":{port}" if port != {"http": 80, "https": 443}.get(scheme) else ""
    found = lan_addresses()
    answering = await asyncio.gather(*(_answers(a, port) for a in found))
    return {
        "addresses": [f"{scheme}://{a}{suffix}" for a, yes in zip(found, answering, strict=True) if yes],
        "not_listening": [f"{scheme}://{a}{suffix}" for a, yes in zip(found, answering, strict=True) if not yes],
        "seen": f"{scheme}://{request.headers.get('host', '')}",
    }


ROUTES = [join_code, addresses]
