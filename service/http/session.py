"""Signing a phone in: a join link's token, exchanged once for an HttpOnly, SameSite=Strict session cookie.

The token travels in the link's fragment (`/join#<token>`), which browsers never send to a server, then once in
the body of `POST /session`; it is never in a URL the server sees, so never in a request log. The cookie holds the
member's token for one campaign (`qm_<campaign id>`), so a phone can sit at several tables. Cookie-authenticated
writes must come from this page (see `auth.same_origin`); the API keeps accepting bearer tokens.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import Response, delete, get, post
from litestar.datastructures import Cookie
from litestar.params import FromPath

from quartermaster.service.http.auth import (
    COOKIE_PREFIX,
    Member,
    bounded_holder,
    campaign_id_of,
    cookie_name,
    same_origin,
    store_of,
)
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import AnyRequest, decode
from quartermaster.service.store import CampaignNotFound

# A campaign lasts months: the phone stays signed in until it signs out or the cookie ages out.
MAX_AGE = 365 * 24 * 3600
# How many campaigns one browser may be signed in to at once before older cookies are ignored.
MAX_TABLES = 20


class Join(msgspec.Struct, forbid_unknown_fields=True):
    token: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


def _cookie(request: AnyRequest, campaign_id: uuid.UUID, value: str, max_age: int) -> Cookie:
    return Cookie(
        key=cookie_name(campaign_id),
        value=value,
        max_age=max_age,
        # Under a proxy's sub-path (settings.root_path) the cookie is the page's there, not every site's on the host.
        path=f"{request.app.state.get('root_path', '')}/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


async def _table(request: AnyRequest, campaign_id: uuid.UUID, who: Member) -> dict[str, Any]:
    found = await store_of(request).campaign(campaign_id)
    return {
        "campaign": str(campaign_id),
        "name": found.name,
        "game": found.game,
        "member_id": str(who.id),
        "member": who.name,
        "role": who.role,
    }


@post("/session", include_in_schema=False, status_code=201)
async def sign_in(request: AnyRequest) -> Response[dict[str, Any]]:
    """Exchange a join link's token for this campaign's session cookie."""
    same_origin(request)
    join = decode(await request.body(), Join)
    who = await bounded_holder(request, store_of(request), join.token.strip())
    if who is None:
        raise Problem(
            401,
            "This join link is not valid: it may be cut short, or it was never issued. Ask the "
            "campaign's owner for a new one.",
            kind="bad-token",
        )
    try:
        table = await _table(request, who.campaign_id, who)
    except CampaignNotFound:
        raise Problem(401, "This join link belongs to a campaign that is no longer here.", kind="bad-token") from None
    return Response(table, status_code=201, cookies=[_cookie(request, who.campaign_id, join.token.strip(), MAX_AGE)])


@get("/session", include_in_schema=False)
async def tables(request: AnyRequest) -> dict[str, Any]:
    """The campaigns this browser is signed in to."""
    store = store_of(request)
    found: list[dict[str, Any]] = []
    for name, value in list(request.cookies.items())[: MAX_TABLES * 2]:
        if not name.startswith(COOKIE_PREFIX) or len(found) >= MAX_TABLES:
            continue
        who = await bounded_holder(request, store, value)
        if who is not None and cookie_name(who.campaign_id) == name:
            try:
                found.append(await _table(request, who.campaign_id, who))
            except CampaignNotFound:
                continue
    return {"tables": found}


@delete("/session/{campaign:str}", include_in_schema=False, status_code=200)
async def sign_out(request: AnyRequest, campaign: FromPath[str]) -> Response[dict[str, Any]]:
    """Forget this campaign's session on this browser."""
    same_origin(request)
    campaign_id = campaign_id_of(campaign)
    return Response({"signed_out": str(campaign_id)}, cookies=[_cookie(request, campaign_id, "", 0)])


ROUTES = [sign_in, tables, sign_out]
