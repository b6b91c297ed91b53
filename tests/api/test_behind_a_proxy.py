"""Behind a reverse proxy: phones' writes judged by the browser's own Sec-Fetch-Site, and the whole service, page
included, under a sub-path (QUARTERMASTER_ROOT_PATH) whether or not the proxy takes the prefix off."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings, root_path

PAGE = {"X-Quartermaster": "page"}
ROLL = {"expression": "1d6"}
# What nginx's shortest configuration (`proxy_pass http://127.0.0.1:8000;`) sends: its upstream as the Host.
PROXIED = {"Host": "127.0.0.1:8000", "Origin": "https://qm.example.org"}


def signed_in(api, token):
    api.client.cookies.clear()
    answer = api.client.post("/session", json={"token": token}, headers={**PAGE, "Sec-Fetch-Site": "same-origin"})
    assert answer.status_code == 201, answer.text


def test_a_phones_write_through_a_proxy_that_passes_no_headers_is_accepted_by_its_sec_fetch_site(api):
    campaign = api.new_campaign()
    signed_in(api, campaign.token)
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json=ROLL, headers={**PAGE, **PROXIED, "Sec-Fetch-Site": "same-origin"}
    )
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize("site", ["cross-site", "same-site", "none"])
def test_a_write_the_browser_says_came_from_elsewhere_is_refused_and_writes_nothing(api, site):
    campaign = api.new_campaign()
    signed_in(api, campaign.token)
    before = api.client.get(f"/v1/campaigns/{campaign.id}").json()["position"]
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json=ROLL, headers={**PAGE, **PROXIED, "Sec-Fetch-Site": site}
    )
    assert answer.status_code == 403
    assert "another site" in answer.json()["detail"]
    assert api.client.get(f"/v1/campaigns/{campaign.id}").json()["position"] == before


def test_without_sec_fetch_site_the_origin_may_name_the_host_a_proxy_forwarded(api):
    campaign = api.new_campaign()
    signed_in(api, campaign.token)
    url = f"/v1/campaigns/{campaign.id}/rolls"
    forwarded = api.client.post(url, json=ROLL, headers={**PAGE, **PROXIED, "X-Forwarded-Host": "qm.example.org"})
    unnamed = api.client.post(url, json=ROLL, headers={**PAGE, **PROXIED})
    assert (forwarded.status_code, unnamed.status_code) == (201, 403)


@pytest.mark.parametrize(
    ("given", "kept"), [("", ""), ("/", ""), ("qm", "/qm"), ("/qm/", "/qm"), ("/games/qm", "/games/qm")]
)
def test_the_sub_path_setting_is_read_with_or_without_its_slashes(given, kept):
    assert root_path(given) == kept


@pytest.mark.parametrize("given", ["/q m", "/qm?x", "/../etc", "/a//b", '/"><script>'])
def test_a_sub_path_that_is_not_a_plain_path_is_refused_at_start_with_a_sentence(given):
    with pytest.raises(ValueError, match="QUARTERMASTER_ROOT_PATH .* takes a path such as /qm"):
        root_path(given)


@pytest.fixture(scope="module")
def under_qm(database_url: str, app_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(replace(app_settings, root_path="/qm"), database_url)) as client:
        yield client


@pytest.mark.parametrize("prefix", ["/qm", ""], ids=["path-passed-whole", "prefix-taken-off"])
def test_under_a_sub_path_the_api_answers_whether_or_not_the_proxy_takes_the_prefix_off(under_qm, prefix):
    made = under_qm.post(f"{prefix}/v1/campaigns", json={"name": "Under qm", "game": "pacg-skull-and-shackles"})
    assert made.status_code == 201, made.text
    read = under_qm.get(
        f"{prefix}/v1/campaigns/{made.json()['id']}", headers={"Authorization": f"Bearer {made.json()['token']}"}
    )
    assert read.status_code == 200 and read.json()["name"] == "Under qm"


def test_under_a_sub_path_the_session_cookie_is_kept_to_it(under_qm, api):
    made = under_qm.post("/qm/v1/campaigns", json={"name": "Cookie", "game": "pacg-skull-and-shackles"}).json()
    joined = under_qm.post(
        "/qm/session", json={"token": made["token"]}, headers={**PAGE, "Sec-Fetch-Site": "same-origin"}
    )
    assert joined.status_code == 201, joined.text
    assert "Path=/qm/" in joined.headers["set-cookie"]
    at_root = api.new_campaign()
    api.client.cookies.clear()
    root_join = api.client.post(
        "/session", json={"token": at_root.token}, headers={**PAGE, "Sec-Fetch-Site": "same-origin"}
    )
    assert "Path=/;" in root_join.headers["set-cookie"]


def test_a_path_that_only_begins_like_the_sub_path_is_not_cut(under_qm):
    assert under_qm.get("/qmx/healthz").status_code == 404
    assert under_qm.get("/qm/healthz").status_code == 200


@pytest.mark.parametrize("page", ["/qm/", "/qm/display"], ids=["table-page", "table-display"])
def test_under_a_sub_path_the_page_names_its_files_and_home_under_it(under_qm, page):
    html = under_qm.get(page).text
    assert '<meta name="qm-root" content="/qm">' in html
    assert '"/static/' not in html and 'href="/"' not in html
    for address in re.findall(r'(?:href|src)="(/[^"]*)"', html):
        assert address.startswith("/qm/"), address
        assert under_qm.get(address).status_code == 200, address


def test_under_a_sub_path_the_service_worker_keeps_the_files_under_it(under_qm):
    worker = under_qm.get("/qm/sw.js")
    assert worker.status_code == 200
    assert 'const ROOT = "/qm";' in worker.text
    files = re.search(r"const FILES = (\[.*\]);", worker.text)
    assert files is not None
    assert '"/qm/"' in files.group(1) and '"/qm/static/root.js"' in files.group(1)


def test_at_the_root_the_page_is_unchanged(api):
    html = api.client.get("/").text
    assert '<meta name="qm-root" content="">' in html and 'src="/static/app.js"' in html
    assert 'const ROOT = "";' in api.client.get("/sw.js").text


def test_under_a_sub_path_the_web_manifest_starts_and_keeps_the_app_there(under_qm):
    answer = under_qm.get("/qm/manifest.webmanifest")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/qm/", "/qm/", "standalone")
    assert manifest["name"] == "Quartermaster" and manifest["theme_color"].startswith("#")
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes
    for icon in manifest["icons"]:
        drawn = under_qm.get(icon["src"])
        assert drawn.status_code == 200 and drawn.headers["content-type"].startswith(icon["type"]), icon


def test_the_page_names_a_theme_colour_for_each_colour_scheme(api):
    html = api.client.get("/").text
    assert 'name="theme-color" media="(prefers-color-scheme: light)"' in html
    assert 'name="theme-color" media="(prefers-color-scheme: dark)"' in html
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
