"""https on a table's own network, for `quartermaster serve --https`: a certificate the service makes for itself.

Browsers run a service worker (the page's files kept for a reload without the server) only in a secure context:
https, or localhost. A table's laptop has no name a public authority would certify, so the service makes its own
small certificate authority once (kept in the data folder, `tls/`), and from it a server certificate naming this
machine's addresses, made again whenever an address is missing from it (a laptop on another network), signed by the
same authority, so a phone that trusts the authority once keeps trusting the server. The `openssl` command makes
them: it is on nearly every machine that runs PostgreSQL, and no Python dependency is added for a one-time job.

A phone that only clicks through the browser's warning gets https and everything but the service worker (browsers
refuse to register one for a certificate they do not trust); a phone that installs the authority (served at
`/page/certificate`) gets the service worker too. docs/operations.md, "https on the LAN", says how.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from litestar import Response, get

from quartermaster.service.http.problems import Problem

# Where the running server's authority certificate is, for /page/certificate (set by `serve --https`, read by every
# worker process).
CA_VARIABLE = "QUARTERMASTER_TLS_AUTHORITY"
AUTHORITY_DAYS = 3650
# Under the 398 days Apple's devices accept for a server certificate.
SERVER_DAYS = 397


# What the authority may vouch for, so that a phone trusting it trusts nothing on the internet: the private address
# ranges, this machine's name and `.local` names. An address of this machine outside them is left out of the server
# certificate (which would otherwise be refused whole), and `serve` says so.
NETWORKS = [
    ipaddress.IPv4Network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16")
]
PERMITTED = ",".join(
    [
        *(f"permitted;IP:{net.network_address}/{net.netmask}" for net in NETWORKS),
        "permitted;DNS:localhost",
        "permitted;DNS:.local",
        *([f"permitted;DNS:{socket.gethostname()}"] if socket.gethostname() not in ("", "localhost") else []),
    ]
)


class CertificateError(Exception):
    """The certificate could not be made; the message says why and what to do."""


@dataclass(frozen=True)
class Certificate:
    certfile: Path
    keyfile: Path
    authority: Path
    made: bool  # a new server certificate was made this time
    left_out: tuple[str, ...] = ()  # this machine's addresses it cannot name (not private)


def private(address: str) -> bool:
    try:
        return any(ipaddress.IPv4Address(address) in net for net in NETWORKS)
    except ValueError:
        return False


def names(addresses: list[str]) -> list[str]:
    """What the server certificate names: localhost, this machine's name, and its private addresses."""
    host = socket.gethostname()
    dns = ["localhost", host, f"{host}.local"] if host and host != "localhost" else ["localhost"]
    ips = [a for a in dict.fromkeys(["127.0.0.1", *addresses]) if private(a)]
    return [*(f"DNS:{d}" for d in dict.fromkeys(dns)), *(f"IP:{a}" for a in ips)]


def _openssl(*args: str) -> None:
    binary = shutil.which("openssl")
    if binary is None:
        raise CertificateError(
            "`--https` makes its certificate with the `openssl` command, which is not on this machine's PATH: "
            "install OpenSSL (Debian: `apt-get install openssl`; Windows: the one Git for Windows ships), then serve "
            "again."
        )
    done = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CertificateError(f"openssl could not make the certificate: {done.stderr.strip()}")


def ensure(folder: Path, addresses: list[str]) -> Certificate:
    """The server certificate for these addresses in `folder`, made (with its authority, once) if need be."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    ca_key, ca = folder / "authority-key.pem", folder / "authority.pem"
    key, cert, named = folder / "server-key.pem", folder / "server.pem", folder / "server.names"
    if not (ca.exists() and ca_key.exists()):
        _openssl(
            "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", str(ca_key), "-out", str(ca), "-days", str(AUTHORITY_DAYS),
            "-subj", f"/CN=Quartermaster at {socket.gethostname() or 'the table'}",
            "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            "-addext", f"nameConstraints=critical,{PERMITTED}",
        )  # fmt: skip
        cert.unlink(missing_ok=True)
    wanted = names(addresses)
    left_out = tuple(a for a in addresses if not private(a))
    have = named.read_text().split() if named.exists() and cert.exists() and key.exists() else []
    if all(n in have for n in wanted):
        return Certificate(cert, key, ca, made=False, left_out=left_out)
    request = folder / "server.csr"
    extensions = folder / "server.ext"
    extensions.write_text(
        "basicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature\n"
        "extendedKeyUsage=serverAuth\n"
        f"subjectAltName={','.join(wanted)}\n"
    )
    _openssl(
        "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", str(key), "-out", str(request), "-subj", "/CN=Quartermaster",
    )  # fmt: skip
    _openssl(
        "x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
        "-out", str(cert), "-days", str(SERVER_DAYS), "-extfile", str(extensions),
    )  # fmt: skip
    request.unlink(missing_ok=True)
    named.write_text(" ".join(wanted) + "\n")
    for secret in (key, ca_key):
        os.chmod(secret, 0o600)
    return Certificate(cert, key, ca, made=True, left_out=left_out)


@get("/page/certificate", include_in_schema=False)
async def authority() -> Response[bytes]:
    """The authority that signs this server's certificate, for a phone to install and trust (never its key)."""
    path = os.environ.get(CA_VARIABLE)
    if not path or not Path(path).exists():
        raise Problem(404, "This server is not serving https with a certificate of its own.", kind="no-certificate")
    return Response(
        Path(path).read_bytes(),
        media_type="application/x-x509-ca-cert",
        headers={"Content-Disposition": 'attachment; filename="quartermaster-authority.crt"'},
    )


ROUTES = [authority]
