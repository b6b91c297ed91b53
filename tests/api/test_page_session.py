"""Signing a phone in: the join token exchanged for a session cookie, and what that cookie may and may not do."""

from __future__ import annotations

import logging

from quartermaster.service.platform.logs import JsonLines

PAGE = {"X-Quartermaster": "page"}
ROLL = {"expression": "1d6"}


def sign_in(api, token):
    """A fresh client cookie jar signed in with a join link's token; answers the response."""
    api.client.cookies.clear()
    return api.client.post("/session", json={"token": token}, headers=PAGE)


def test_a_join_token_is_exchanged_for_an_httponly_strict_cookie_for_that_campaign(api):
    campaign = api.new_campaign()
    answer = sign_in(api, campaign.token)
    assert answer.status_code == 201, answer.text
    set_cookie = answer.headers["set-cookie"]
    assert set_cookie.startswith(f"qm_{campaign.id.replace('-', '')}=")
    assert "HttpOnly" in set_cookie and "samesite=strict" in set_cookie.lower() and "Path=/" in set_cookie
    assert answer.json()["role"] == "owner"
    tables = api.client.get("/session").json()["tables"]
    assert [t["campaign"] for t in tables] == [campaign.id]


def test_the_cookie_reads_and_writes_from_the_page_and_bearer_tokens_still_work(api):
    campaign = api.new_campaign()
    sign_in(api, campaign.token)
    assert api.client.get(f"/v1/campaigns/{campaign.id}/events").status_code == 200
    assert api.client.post(f"/v1/campaigns/{campaign.id}/rolls", json=ROLL, headers=PAGE).status_code == 201
    api.client.cookies.clear()
    assert api.client.post(f"/v1/campaigns/{campaign.id}/rolls", json=ROLL, headers=campaign.headers).status_code == 201


def test_a_cookie_write_without_the_pages_header_or_from_another_origin_is_refused_and_writes_nothing(api):
    campaign = api.new_campaign()
    sign_in(api, campaign.token)
    before = api.client.get(f"/v1/campaigns/{campaign.id}").json()["position"]
    bare = api.client.post(f"/v1/campaigns/{campaign.id}/rolls", json=ROLL)
    foreign = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json=ROLL, headers={**PAGE, "Origin": "https://elsewhere.example"}
    )
    assert (bare.status_code, foreign.status_code) == (403, 403)
    assert "another site" in bare.json()["detail"]
    assert api.client.get(f"/v1/campaigns/{campaign.id}").json()["position"] == before


def test_a_cookie_does_not_open_another_campaign(api):
    mine, other = api.new_campaign(), api.new_campaign()
    sign_in(api, mine.token)
    answer = api.client.get(f"/v1/campaigns/{other.id}/events")
    assert answer.status_code == 401


def test_a_bad_join_token_is_refused_with_a_sentence_and_sets_no_cookie(api):
    answer = sign_in(api, "qm_0123_not-a-real-secret")
    assert answer.status_code == 401
    assert "join link is not valid" in answer.json()["detail"]
    assert "set-cookie" not in answer.headers


def test_signing_in_from_another_site_is_refused(api):
    campaign = api.new_campaign()
    api.client.cookies.clear()
    answer = api.client.post("/session", json={"token": campaign.token})
    assert answer.status_code == 403


def test_no_token_reaches_the_request_log(api, caplog):
    campaign = api.new_campaign()
    with caplog.at_level(logging.INFO, logger="quartermaster.requests"):
        sign_in(api, campaign.token)
        api.client.get(f"/v1/campaigns/{campaign.id}/events")
        api.client.get("/join")
    # Each record as the log writes it: one JSON line with its fields (method, path, status).
    logged = "\n".join(JsonLines().format(r) for r in caplog.records)
    assert "/session" in logged and "/join" in logged
    # The secret is everything after `qm_<member>_`; it may itself hold underscores, so split twice at most.
    secret = campaign.token.split("_", 2)[2]
    assert secret not in logged


def test_signing_out_forgets_the_campaign_on_this_browser(api):
    campaign = api.new_campaign()
    sign_in(api, campaign.token)
    assert api.client.delete(f"/session/{campaign.id}", headers=PAGE).status_code == 200
    assert api.client.get("/session").json()["tables"] == []


def test_the_page_and_its_modules_are_served_with_nothing_from_another_host(api):
    page = api.client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for module in ("app.js", "api.js", "log.js", "fleet.js", "sheet.js", "moves.js", "dice.js", "crew.js", "style.css"):
        answer = api.client.get(f"/static/{module}")
        assert answer.status_code == 200, module
        # The SVG namespace is a name, not an address anything is fetched from.
        text = answer.text.replace("http://www.w3.org/2000/svg", "")
        assert "http://" not in text and "https://" not in text, module


def test_a_join_link_is_drawn_as_a_qr_code_svg(api):
    answer = api.client.post("/join-code", json={"link": "http://192.168.1.5:8000/join#qm_x_y"}, headers=PAGE)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.text.lstrip().startswith("<?xml") or "<svg" in answer.text[:200]


def test_the_page_and_its_worker_name_their_charset_once(api):
    for path, media_type in [("/", "text/html"), ("/join", "text/html"), ("/sw.js", "text/javascript")]:
        answer = api.client.get(path)
        assert answer.status_code == 200
        assert answer.headers["content-type"] == f"{media_type}; charset=utf-8", path
