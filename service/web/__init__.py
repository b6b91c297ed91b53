"""The table page: the phone-first web app served at `/`, from files packaged with the service.

No build step and nothing from another host: `page.html` loads plain JavaScript modules from `static/`, named for
what the player sees (`log`, `fleet`, `sheet`, `dice`, `moves`, `crew`), which read and write through the same
HTTP API as any client, authenticated by the session cookie that `session.py` sets when a join link is opened.
"""

from __future__ import annotations

from pathlib import Path

from litestar import Response, get
from litestar.static_files import create_static_files_router

from service.web import join_code, session

HERE = Path(__file__).parent
_PAGE = (HERE / "page.html").read_bytes()

# The page's own files may change with an upgrade; a phone revalidates rather than keep a stale module.
_STATIC = create_static_files_router(
    path="/static", directories=[HERE / "static"], include_in_schema=False, cache_control=None, name="page-static"
)


def _page() -> Response:
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


@get(["/", "/join", "/c/{campaign:str}"], include_in_schema=False, name="page")
async def page() -> Response:
    """The same shell for every address: the modules read the address and show the right view."""
    return _page()


ROUTES = [page, _STATIC, *session.ROUTES, *join_code.ROUTES]
