"""A group plays through a real reverse proxy in front of a real `quartermaster serve`: nginx with the shortest
configuration (no header passed, the page at the root), nginx with docs/deploy/nginx.conf's recipe under /qm/, and
Caddy with docs/deploy/Caddyfile's under /qm/. On each, a phone joins by its link, logs, follows another phone's
entries live, goes offline, is reloaded from its service worker, and comes back with its entry recorded once.

The recipes' lines between their "quartermaster" markers are run as the documentation prints them, with only the
upstream's port changed. Without nginx or Caddy the tests skip with a sentence, except in CI (`CI=true`), where
.ci/run installs both and a missing one fails the run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import expect

from quartermaster.service.http import tls
from tests.browser.conftest import Http, Phones
from tests.browser.phone import all_sent, kept_by_service_worker, log_entry, note, notes_recorded, open_play, pending
from tests.browser.table import LIVE, pacg_table
from tests.faults.servers import Served, free_port, serve

DEPLOY = Path(__file__).parents[2] / "docs" / "deploy"
MARKED = re.compile(r"# --- quartermaster: begin\n(.*?)\n\s*# --- quartermaster: end", re.S)


def _program(name: str) -> str:
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin")
    if path:
        return path
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI runs the reverse proxy tests: {name} is missing (.ci/run installs it with apt-get).")
    pytest.skip(f"The reverse proxy tests need {name}: install it (Debian: `apt-get install -y {name}`) to run them.")


def _recipe(name: str, upstream_port: int) -> str:
    """The lines of a recipe in docs/deploy/ between its markers, with the upstream on the test's port."""
    text = (DEPLOY / name).read_text()
    found = MARKED.search(text)
    assert found, f"docs/deploy/{name} has no '# --- quartermaster: begin/end' markers"
    marked = found.group(1)
    if name == "nginx.conf":
        upstream = re.search(r"upstream quartermaster \{.*?\n\}", text, re.S)
        assert upstream
        marked = upstream.group(0) + "\nserver {\n    listen 127.0.0.1:PROXY_PORT;\n" + marked + "\n}"
    return marked.replace("127.0.0.1:8000", f"127.0.0.1:{upstream_port}")


def _nginx(folder: Path, port: int, upstream_port: int, shortest: bool) -> subprocess.Popen[bytes]:
    if shortest:
        # The shortest configuration that serves it: no header passed, the proxy's buffering left on.
        site = f"server {{ listen 127.0.0.1:{port}; location / {{ proxy_pass http://127.0.0.1:{upstream_port}; }} }}"
    else:
        site = _recipe("nginx.conf", upstream_port).replace("PROXY_PORT", str(port))
    temp = " ".join(
        f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (folder / "nginx.conf").write_text(
        f"daemon off;\nmaster_process off;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\n"
        f"http {{\naccess_log {folder}/access.log;\n{temp}\n{site}\n}}\n"
    )
    program = _program("nginx")
    command = [program, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(folder / "nginx.conf")]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


def _caddy(folder: Path, port: int, upstream_port: int) -> subprocess.Popen[bytes]:
    (folder / "Caddyfile").write_text(
        "{\n\tadmin off\n\tauto_https off\n}\n"
        f"http://127.0.0.1:{port} {{\n\tbind 127.0.0.1\n{_recipe('Caddyfile', upstream_port)}\n}}\n"
    )
    program = _program("caddy")
    environment = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder), "XDG_CONFIG_HOME": str(folder)}
    command = [program, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"]
    with (folder / "caddy.log").open("w") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=environment)


def _wait_listening(port: int, process: subprocess.Popen[bytes], what: str, folder: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            logs = "\n".join(p.read_text() for p in folder.glob("*.log") if p.exists())
            raise AssertionError(f"{what} exited ({process.returncode}):\n{logs}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"{what} did not listen on {port} within 20 seconds")


@dataclass
class Proxied:
    """A `quartermaster serve` behind a proxy, and the address a phone opens (the proxy's, with its sub-path)."""

    origin: str
    served: Served
    trusted: bool


@pytest.fixture(scope="module", params=["nginx-shortest", "nginx-recipe-qm", "caddy-recipe-qm"])
def proxied(request: Any, database_url: str, tmp_path_factory: Any) -> Iterator[Proxied]:
    kind: str = request.param
    folder = tmp_path_factory.mktemp(kind)
    shortest = kind == "nginx-shortest"
    program = "caddy" if kind.startswith("caddy") else "nginx"
    _program(program)
    # The shortest set-up sets nothing; the recipes' set the sub-path and trust the proxy on this machine.
    env = {"QUARTERMASTER_RATE_LIMIT": "off"}
    if not shortest:
        env |= {"QUARTERMASTER_ROOT_PATH": "/qm", "QUARTERMASTER_TRUSTED_PROXIES": "127.0.0.1"}
    served = serve(folder, database_url=database_url, env=env)
    proxy: subprocess.Popen[bytes] | None = None
    try:
        served.wait_ready()
        port = free_port()
        proxy = _caddy(folder, port, served.port) if program == "caddy" else _nginx(folder, port, served.port, shortest)
        _wait_listening(port, proxy, program, folder)
        yield Proxied(f"http://127.0.0.1:{port}{'' if shortest else '/qm'}", served, trusted=not shortest)
    finally:
        if proxy is not None:
            proxy.terminate()
            try:
                proxy.wait(5)
            except subprocess.TimeoutExpired:  # Caddy waits for open streams to end before it stops
                proxy.kill()
                proxy.wait(5)
        served.process.terminate()
        served.process.wait(30)


@pytest.fixture
def through(proxied: Proxied) -> Iterator[Http]:
    with httpx.Client(timeout=10) as client:
        yield Http(proxied.origin, client)


@pytest.fixture
def phones_through(browser: Any, proxied: Proxied) -> Iterator[Phones]:
    opened = Phones(browser, proxied.origin)
    yield opened
    for context in opened.contexts:
        context.close()
    for watch in opened.watches:
        watch.check()


def test_a_phone_joins_logs_follows_live_and_goes_offline_and_back_through_the_proxy(proxied, through, phones_through):
    phones_through.outage = True  # the browser's notes of requests made offline are expected
    campaign, lily, sam = pacg_table(through)
    page = open_play(phones_through, lily["token"])
    assert page.url.startswith(f"{proxied.origin}/c/{campaign['id']}")
    kept_by_service_worker(page)
    other = phones_through.open(sam["token"])
    other.get_by_role("tab", name="Play and log").click()
    before = through.get(campaign, "")["position"]

    # Logged through the proxy (a cookie write: the origin check), and seen live on the other phone.
    note(page, "Lily logs through the proxy")
    expect(log_entry(other, before + 1)).to_have_count(1, timeout=LIVE)

    page.context.set_offline(True)
    expect(page.locator("#live")).to_have_attribute("data-state", "offline")
    note(page, "Lily logs while offline")
    expect(pending(page)).to_have_count(1)
    answer = page.reload()
    assert answer is None or answer.from_service_worker
    page.get_by_role("tab", name="Play and log").click()
    expect(pending(page)).to_have_count(1)

    page.context.set_offline(False)
    expect(pending(page)).to_have_count(0, timeout=10000)
    all_sent(page, timeout=10000)
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=10000)
    expect(log_entry(other, before + 2)).to_have_count(1, timeout=LIVE)
    assert notes_recorded(through, campaign, before) == ["Lily logs through the proxy", "Lily logs while offline"]


def test_the_owners_new_join_link_names_the_proxys_address_and_sub_path_and_signs_a_phone_in(
    proxied, through, phones_through
):
    campaign, _, _ = pacg_table(through)
    owner = phones_through.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()
    owner.get_by_role("button", name="New join link to give Lily").click()
    link = urlsplit(owner.get_by_label("Join link for Lily").inner_text())
    # The proxy's port and sub-path; on a page opened at 127.0.0.1 the host is this machine's network address, for
    # phones (static/crew.js), where this test's proxy, on loopback only, does not listen.
    proxy = urlsplit(proxied.origin)
    assert (link.port, link.path) == (proxy.port, f"{proxy.path}/join"), link
    assert link.hostname == "127.0.0.1" or not link.hostname.startswith("127."), link
    found = phones_through.new()
    found.goto(f"{proxied.origin}/join#{link.fragment}")
    found.get_by_role("tab", name="Members").click()
    expect(found.get_by_text("You are Lily, player of this campaign.")).to_be_visible()


def test_the_scheme_a_proxy_forwards_is_believed_only_from_a_trusted_address(proxied, through):
    """A cookie is marked Secure when the phone used https at the proxy; only a trusted proxy can say so."""
    campaign = through.campaign("pacg-skull-and-shackles")
    answer = httpx.post(
        f"{proxied.served.url}/session",
        json={"token": campaign["token"]},
        headers={"X-Quartermaster": "page", "Sec-Fetch-Site": "same-origin", "X-Forwarded-Proto": "https"},
    )
    assert answer.status_code == 201, answer.text
    assert ("Secure" in answer.headers["set-cookie"]) is proxied.trusted


def test_the_live_stream_reaches_a_client_through_the_proxy_as_it_is_written(proxied, through):
    campaign = through.campaign("pacg-skull-and-shackles")
    url = f"{proxied.origin}/v1/campaigns/{campaign['id']}/stream"
    position = through.get(campaign, "")["position"]
    with httpx.stream("GET", url, params={"after": position}, headers=through.auth(campaign["token"]), timeout=5) as s:
        assert s.status_code == 200
        through.append(campaign, [{"type": "note.added", "data": {"text": "Heard at once"}}])
        started = time.monotonic()
        for line in s.iter_lines():
            if "Heard at once" in line:
                break
        assert time.monotonic() - started < LIVE / 1000


def test_the_owner_downloads_the_campaigns_file_in_one_tap(proxied, through, phones_through):
    campaign, _, _ = pacg_table(through)
    owner = phones_through.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()
    with owner.expect_download() as downloading:
        owner.get_by_role("link", name="Download this campaign's file").click()
    lines = Path(downloading.value.path()).read_text().splitlines()
    assert downloading.value.suggested_filename == f"campaign-{campaign['id']}.ndjson"
    assert json.loads(lines[0])["campaign"] == "Dangerous Waters"
    assert len(lines) == 1 + through.get(campaign, "")["position"]


def test_the_page_is_installable_as_an_app_through_the_proxy(proxied, through, phones_through):
    """What Lighthouse's installability audit asks Chromium: a manifest, its icons, a service worker in control."""
    campaign, _, _ = pacg_table(through)
    page = phones_through.open(campaign["token"])
    kept_by_service_worker(page)
    session = page.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's browser contexts are incognito ones, where Chromium installs nothing, whatever the page.
    assert [e for e in errors if e["errorId"] != "in-incognito"] == [], errors
    found = session.send("Page.getAppManifest")
    assert found["url"] == f"{proxied.origin}/manifest.webmanifest" and not found["errors"], found


@pytest.fixture(scope="module")
def tls_recipe(database_url: str, tmp_path_factory: Any) -> Iterator[tuple[str, Path]]:
    """docs/deploy/nginx.conf's whole https server, on a free port with a certificate made for 127.0.0.1."""
    _program("nginx")
    folder = tmp_path_factory.mktemp("nginx-tls")
    made = tls.ensure(folder / "tls", [])
    env = {
        "QUARTERMASTER_RATE_LIMIT": "off",
        "QUARTERMASTER_ROOT_PATH": "/qm",
        "QUARTERMASTER_TRUSTED_PROXIES": "127.0.0.1",
    }
    served = serve(folder, database_url=database_url, env=env)
    proxy: subprocess.Popen[bytes] | None = None
    try:
        served.wait_ready()
        port = free_port()
        text = (DEPLOY / "nginx.conf").read_text()
        upstream = re.search(r"upstream quartermaster \{.*?\n\}", text, re.S)
        https = re.search(r"server \{\n    listen 443 ssl.*?\n\}", text, re.S)
        assert upstream and https, "docs/deploy/nginx.conf has no upstream or no https server block"
        site = upstream.group(0).replace("127.0.0.1:8000", f"127.0.0.1:{served.port}") + "\n" + https.group(0)
        site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;")
        site = re.sub(r"\n\s*listen \[::\]:443 ssl http2;", "", site)
        site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {made.certfile};", site)
        site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {made.keyfile};", site)
        temp = " ".join(f"{k}_temp_path {folder}/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(
            f"daemon off;\nmaster_process off;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\n"
            f"http {{\naccess_log {folder}/access.log;\n{temp}\n{site}\n}}\n"
        )
        command = [
            _program("nginx"),
            "-p",
            str(folder),
            "-e",
            str(folder / "error.log"),
            "-c",
            str(folder / "nginx.conf"),
        ]
        proxy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        _wait_listening(port, proxy, "nginx", folder)
        yield f"https://127.0.0.1:{port}/qm", made.authority
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        served.process.terminate()
        served.process.wait(30)


def test_with_tls_at_nginx_the_phone_gets_a_secure_cookie_and_the_live_stream(tls_recipe):
    origin, authority = tls_recipe
    with httpx.Client(verify=ssl.create_default_context(cafile=str(authority)), timeout=10) as client:
        assert '<meta name="qm-root" content="/qm">' in client.get(f"{origin}/").text
        made = client.post(f"{origin}/v1/campaigns", json={"name": "Over TLS", "game": "pacg-skull-and-shackles"})
        assert made.status_code == 201, made.text
        campaign = made.json()
        # The phone's https reaches Quartermaster as X-Forwarded-Proto from a trusted proxy: the cookie is Secure.
        joined = client.post(
            f"{origin}/session",
            json={"token": campaign["token"]},
            headers={"X-Quartermaster": "page", "Sec-Fetch-Site": "same-origin", "Origin": origin.removesuffix("/qm")},
        )
        assert joined.status_code == 201, joined.text
        assert "Secure" in joined.headers["set-cookie"]
        url = f"{origin}/v1/campaigns/{campaign['id']}/stream"
        owner = {"Authorization": f"Bearer {campaign['token']}"}
        with client.stream("GET", url, params={"after": campaign["position"]}, headers=owner) as stream:
            appended = client.post(
                f"{origin}/v1/campaigns/{campaign['id']}/events",
                json={"events": [{"type": "note.added", "data": {"text": "Over TLS at once"}}]},
                headers=owner,
            )
            assert appended.status_code == 201, appended.text
            started = time.monotonic()
            for line in stream.iter_lines():
                if "Over TLS at once" in line:
                    break
            assert time.monotonic() - started < LIVE / 1000
