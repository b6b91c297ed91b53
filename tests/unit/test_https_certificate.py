"""`serve --https`: the certificate the service makes for itself, once, naming this machine's addresses."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path

import pytest

from quartermaster.service.http import tls

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="--https makes its certificate with openssl")


def text_of(certificate: Path) -> str:
    return subprocess.run(
        ["openssl", "x509", "-in", str(certificate), "-noout", "-text"], capture_output=True, text=True, check=True
    ).stdout


def test_the_server_certificate_names_localhost_and_the_lan_address_and_its_authority_verifies_it(tmp_path):
    made = tls.ensure(tmp_path / "tls", ["192.168.1.20"])
    assert made.made
    shown = text_of(made.certfile)
    assert "IP Address:192.168.1.20" in shown and "IP Address:127.0.0.1" in shown and "DNS:localhost" in shown
    assert "TLS Web Server Authentication" in shown and "CA:FALSE" in shown
    assert "CA:TRUE" in text_of(made.authority)
    # What a phone that installed the authority does: verify the server's certificate against it.
    context = ssl.create_default_context(cafile=str(made.authority))
    context.load_cert_chain(made.certfile, made.keyfile)
    verified = subprocess.run(
        ["openssl", "verify", "-CAfile", str(made.authority), str(made.certfile)], capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stderr
    assert (made.keyfile.stat().st_mode & 0o777) == 0o600


def test_the_certificate_is_kept_and_a_new_address_gets_a_new_one_from_the_same_authority(tmp_path):
    first = tls.ensure(tmp_path / "tls", ["192.168.1.20"])
    authority = first.authority.read_bytes()
    again = tls.ensure(tmp_path / "tls", ["192.168.1.20"])
    assert not again.made
    moved = tls.ensure(tmp_path / "tls", ["10.0.0.7"])
    assert moved.made and "IP Address:10.0.0.7" in text_of(moved.certfile)
    # Phones that trust the authority keep trusting the server on the new network.
    assert moved.authority.read_bytes() == authority


def test_without_openssl_it_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(tls.shutil, "which", lambda name: None)
    with pytest.raises(tls.CertificateError, match="install OpenSSL"):
        tls.ensure(tmp_path / "tls", [])


def test_the_authority_vouches_only_for_private_addresses_and_local_names(tmp_path):
    made = tls.ensure(tmp_path / "tls", ["192.168.1.20"])
    shown = text_of(made.authority)
    assert "Name Constraints: critical" in shown and "IP:192.168.0.0/255.255.0.0" in shown
    outsider = tmp_path / "outsider.ext"
    outsider.write_text("subjectAltName=DNS:example.com\n")
    subprocess.run(
        ["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(tmp_path / "o.key"), "-out", str(tmp_path / "o.csr"), "-subj", "/CN=example.com"],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        ["openssl", "x509", "-req", "-in", str(tmp_path / "o.csr"), "-CA", str(made.authority),
         "-CAkey", str(tmp_path / "tls" / "authority-key.pem"), "-out", str(tmp_path / "o.pem"),
         "-days", "1", "-extfile", str(outsider)],
        check=True, capture_output=True,
    )  # fmt: skip
    verified = subprocess.run(
        ["openssl", "verify", "-CAfile", str(made.authority), str(tmp_path / "o.pem")], capture_output=True, text=True
    )
    assert verified.returncode != 0 and "permitted subtree violation" in verified.stdout + verified.stderr


def test_an_address_outside_the_private_ranges_is_left_out_and_said_so(tmp_path):
    made = tls.ensure(tmp_path / "tls", ["192.0.2.2", "192.168.1.20"])
    assert made.left_out == ("192.0.2.2",)
    shown = text_of(made.certfile)
    assert "192.0.2.2" not in shown and "IP Address:192.168.1.20" in shown
    verified = subprocess.run(
        ["openssl", "verify", "-CAfile", str(made.authority), str(made.certfile)], capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
