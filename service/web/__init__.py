"""The table page: the phone-first web app served at `/`, from files packaged with the service.

No build step and nothing from another host: `page.html` loads plain JavaScript modules from `static/`, named for
what the player sees (`log`, `fleet`, `sheet`, `dice`, `moves`, `crew`), which read and write through the same
HTTP API as any client, authenticated by the session cookie that `session.py` sets when a join link is opened.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from litestar import Response, get
from litestar.static_files import create_static_files_router

from service.web import join_code, session, tls

HERE = Path(__file__).parent
_PAGE = (HERE / "page.html").read_bytes()

# The page's own files may change with an upgrade; a phone revalidates rather than keep a stale module.
_STATIC = create_static_files_router(
    path="/static", directories=[HERE / "static"], include_in_schema=False, cache_control=None, name="page-static"
)


def _page() -> Response[bytes]:
    return Response(
        _PAGE,
        media_type="text/html; charset=utf-8",
        headers={
            # Nothing from another host, ever: the page works on a table's local network with no internet.
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-cache",
        },
    )


def _service_worker() -> bytes:
    """The service worker with the page's files and a digest of them: any change to a file is a new worker, which
    replaces the files it keeps. Built from the folder, so a module added to the page is kept without a list to edit."""
    files = sorted(f for f in (HERE / "static").iterdir() if f.is_file() and not f.name.startswith("."))
    digest = hashlib.sha256(_PAGE)
    for f in files:
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
    kept = ["/", *(f"/static/{f.name}" for f in files)]
    head = f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\nconst FILES = {json.dumps(kept)};\n"
    return head.encode() + (HERE / "sw.js").read_bytes()


_WORKER = _service_worker()


@get("/sw.js", include_in_schema=False, name="page-worker")
async def worker() -> Response[bytes]:
    """The page's service worker, at the root so that it may serve every page address (browsers register it only
    on https or localhost; see the README's "Offline play")."""
    return Response(_WORKER, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "no-cache"})


@get(["/", "/join", "/c/{campaign:str}"], include_in_schema=False, name="page")
async def page() -> Response[bytes]:
    """The same shell for every address: the modules read the address and show the right view."""
    return _page()


ROUTES = [page, worker, _STATIC, *session.ROUTES, *join_code.ROUTES, *tls.ROUTES]
