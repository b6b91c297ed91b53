"""`quartermaster serve --https`: the page and the API over https with the certificate the service made."""

from __future__ import annotations

import shutil
import time

import httpx
import pytest

from tests.faults.servers import serve

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="--https makes its certificate with openssl"),
]


def test_serve_with_https_answers_over_tls_verified_by_its_own_authority(tmp_path, database_url):
    served = serve(tmp_path, database_url=database_url, args=("--https",))
    authority = tmp_path / "data" / "tls" / "authority.pem"
    url = f"https://127.0.0.1:{served.port}"
    for _ in range(600):
        if served.process.poll() is not None:
            raise AssertionError(served.output())
        try:
            with httpx.Client(verify=str(authority), timeout=2) as client:
                if client.get(f"{url}/readyz").status_code == 200:
                    break
        except (httpx.HTTPError, OSError):
            pass
        time.sleep(0.1)
    with httpx.Client(verify=str(authority), timeout=5) as client:
        page = client.get(f"{url}/")
        assert page.status_code == 200 and "<main" in page.text
        assert client.get(f"{url}/sw.js").status_code == 200
        offered = client.get(f"{url}/page/certificate")
        assert offered.status_code == 200 and offered.content == authority.read_bytes()
    assert f"Quartermaster listens on https://127.0.0.1:{served.port}" in served.output()
    served.signal(15)


PAGE = {"X-Quartermaster": "page"}


def _signed_in_cookie(client: httpx.Client, url: str, headers: dict[str, str] | None = None) -> str:
    made = client.post(f"{url}/v1/campaigns", json={"name": "Cookie voyage", "game": "pacg-skull-and-shackles"})
    assert made.status_code == 201, made.text
    answer = client.post(f"{url}/session", json={"token": made.json()["token"]}, headers={**PAGE, **(headers or {})})
    assert answer.status_code == 201, answer.text
    return answer.headers["set-cookie"]


def test_the_session_cookie_is_secure_over_https(tmp_path, database_url):
    served = serve(tmp_path, database_url=database_url, args=("--https",))
    authority = tmp_path / "data" / "tls" / "authority.pem"
    url = f"https://127.0.0.1:{served.port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with httpx.Client(verify=str(authority), timeout=2) as client:
                if client.get(f"{url}/readyz").status_code == 200:
                    break
        except (httpx.HTTPError, OSError):
            if served.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(served.output()) from None
        time.sleep(0.1)
    with httpx.Client(verify=str(authority), timeout=5) as client:
        cookie = _signed_in_cookie(client, url)
    assert "; Secure" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    served.signal(15)


def test_behind_a_trusted_tls_proxy_the_cookie_is_secure_and_an_untrusted_claim_of_https_is_not_believed(
    tmp_path, database_url
):
    behind = serve(tmp_path, database_url=database_url, env={"QUARTERMASTER_TRUSTED_PROXIES": "127.0.0.1"})
    alone = serve(tmp_path, database_url=database_url)
    behind.wait_ready()
    alone.wait_ready()
    tls_proxy = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
    with httpx.Client(timeout=5) as client:
        # The proxy the operator named says the browser spoke https to it: the cookie must only travel over https.
        assert "; Secure" in _signed_in_cookie(client, behind.url, tls_proxy)
        # Plain http through the same proxy: a Secure cookie would never come back, so it is not marked.
        assert "; Secure" not in _signed_in_cookie(client, behind.url, {"X-Forwarded-Proto": "http"})
        # Anyone may send the header to a server that trusts no proxy: it is not believed.
        assert "; Secure" not in _signed_in_cookie(client, alone.url, tls_proxy)
    behind.signal(15)
    alone.signal(15)
