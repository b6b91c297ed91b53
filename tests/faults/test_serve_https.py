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
