"""The table page: the phone-first web app served at `/`, from files packaged with the service.

No build step and nothing from another host: `page.html` loads plain JavaScript modules from `static/`, named for
what the player sees (`log`, `fleet`, `sheet`, `dice`, `moves`, `crew`), which read and write through the same
HTTP API as any client, authenticated by the session cookie that `session.py` sets when a join link is opened.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from litestar import Response, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from quartermaster.service.http import join_code, session, tls
from quartermaster.service.http.requests import AnyRequest

# The page's own files, served as they are: the floor of the page, beside this one.
HERE = Path(__file__).parents[1] / "page"
_PAGE = (HERE / "page.html").read_bytes()
# The table display's own shell: a tablet or a TV at the table, with no controls (static/display.js).
_DISPLAY = (HERE / "display.html").read_bytes()


@dataclass(frozen=True)
class _Kept:
    """One of the page's files as served: its bytes, gzipped once, and its tag for revalidation."""

    media_type: str
    plain: bytes
    gzipped: bytes
    etag: str


# Litestar adds the charset (utf-8) to the text types.
_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}


def _kept_files() -> dict[str, _Kept]:
    """The page's files, read once at start like the service worker's digest (an upgrade is a restart)."""
    kept = {}
    for f in sorted((HERE / "static").iterdir()):
        if f.is_file() and not f.name.startswith(".") and f.suffix in _TYPES:
            plain = f.read_bytes()
            etag = '"' + hashlib.sha256(plain).hexdigest()[:20] + '"'
            kept[f.name] = _Kept(_TYPES[f.suffix], plain, gzip.compress(plain, 9, mtime=0), etag)
    return kept


_FILES = _kept_files()


def _accepts_gzip(request: AnyRequest) -> bool:
    for coding in request.headers.get("accept-encoding", "").split(","):
        name, _, params = coding.partition(";")
        if name.strip().lower() == "gzip":
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


@get("/static/{name:str}", include_in_schema=False, name="page-static", sync_to_thread=False)
def static(request: AnyRequest, name: FromPath[str]) -> Response[bytes]:
    """One of the page's files, gzipped for a browser that takes it. A phone revalidates every time (`no-cache`)
    rather than keep a stale module after an upgrade, and an unchanged file answers 304 to its tag."""
    kept = _FILES.get(name)
    if kept is None:
        raise NotFoundException(f"The page has no file {name!r}.")
    headers = {"Cache-Control": "no-cache", "ETag": kept.etag, "Vary": "Accept-Encoding"}
    if kept.etag in request.headers.get("if-none-match", ""):
        return Response(b"", status_code=304, headers=headers)
    if _accepts_gzip(request):
        return Response(kept.gzipped, media_type=kept.media_type, headers={**headers, "Content-Encoding": "gzip"})
    return Response(kept.plain, media_type=kept.media_type, headers=headers)


@functools.cache
def _page_under(root: str, html: bytes = _PAGE) -> bytes:
    """The page's HTML (or the table display's) with its own addresses under the sub-path a reverse proxy serves it
    at ("" at the root); the scripts read the sub-path from its `qm-root` meta tag (static/root.js)."""
    if not root:
        return html
    under = root.encode()
    html = html.replace(b'<meta name="qm-root" content="">', b'<meta name="qm-root" content="' + under + b'">')
    return html.replace(b'href="/', b'href="' + under + b"/").replace(b'src="/', b'src="' + under + b"/")


def root_of(request: AnyRequest) -> str:
    """The sub-path the service is served under (settings.root_path), "" at the root."""
    root: str = request.app.state.get("root_path", "")
    return root


def _page(root: str, html: bytes = _PAGE) -> Response[bytes]:
    return Response(
        _page_under(root, html),
        media_type="text/html",
        headers={
            # Nothing from another host, ever: the page works on a table's local network with no internet.
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-cache",
        },
    )


@functools.cache
def _service_worker(root: str) -> bytes:
    """The service worker with the page's files and a digest of them: any change to a file is a new worker, which
    replaces the files it keeps. Built from the folder, so a module added to the page is kept without a list to edit."""
    files = sorted(f for f in (HERE / "static").iterdir() if f.is_file() and not f.name.startswith("."))
    digest = hashlib.sha256(_PAGE)
    for f in files:
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
    digest.update(root.encode())
    kept = [f"{root}/", *(f"{root}/static/{f.name}" for f in files)]
    head = (
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\nconst ROOT = {json.dumps(root)};\n"
        f"const FILES = {json.dumps(kept)};\n"
    )
    return head.encode() + (HERE / "sw.js").read_bytes()


@get("/sw.js", include_in_schema=False, name="page-worker", sync_to_thread=False)
def worker(request: AnyRequest) -> Response[bytes]:
    """The page's service worker, at the root so that it may serve every page address (browsers register it only
    on https or localhost; see docs/table.md, "Offline play")."""
    script = _service_worker(root_of(request))
    return Response(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@get(["/", "/join", "/c/{campaign:str}"], include_in_schema=False, name="page", sync_to_thread=False)
def page(request: AnyRequest) -> Response[bytes]:
    """The same shell for every address: the modules read the address and show the right view."""
    return _page(root_of(request))


@get(["/display", "/display/{campaign:str}"], include_in_schema=False, name="table-display", sync_to_thread=False)
def table_display(request: AnyRequest) -> Response[bytes]:
    """The table display's shell: `/display#<token>` signs the screen in with its read-only link, then
    `/display/<campaign>` shows the game (static/display.js)."""
    return _page(root_of(request), _DISPLAY)


@functools.cache
def _manifest(root: str) -> bytes:
    """The web manifest: what a phone needs to install the page to its home screen and open it like an app."""
    return json.dumps(
        {
            "name": "Quartermaster",
            "short_name": "Quartermaster",
            "description": "The campaign tracker for the pirate games on the table.",
            "id": f"{root}/",
            "start_url": f"{root}/",
            "scope": f"{root}/",
            "display": "standalone",
            # The page's accent in light; its paper in dark, where the page's own meta theme-color takes over.
            "theme_color": "#0b5d7a",
            "background_color": "#fbf8f1",
            "icons": [
                {"src": f"{root}/static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
                {"src": f"{root}/static/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
                {"src": f"{root}/static/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
                {"src": f"{root}/static/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            ],
        },
        indent=1,
    ).encode()


@get("/manifest.webmanifest", include_in_schema=False, name="page-manifest", sync_to_thread=False)
def manifest(request: AnyRequest) -> Response[bytes]:
    """The page's web manifest, with its addresses under the sub-path the service is served at."""
    return Response(
        _manifest(root_of(request)), media_type="application/manifest+json", headers={"Cache-Control": "no-cache"}
    )


ROUTES = [page, table_display, worker, manifest, static, *session.ROUTES, *join_code.ROUTES, *tls.ROUTES]
