"""What `quartermaster serve` says about where phones open the table page."""

from __future__ import annotations

import ipaddress

from quartermaster.service.cli import page_addresses
from quartermaster.service.http.join_code import lan_addresses


def test_serving_on_all_addresses_names_each_local_network_address_for_the_phones():
    lines = page_addresses("0.0.0.0", 8123)
    expected = lan_addresses()
    if expected:
        assert lines == [f"Phones on this network open the table page at http://{a}:8123/" for a in expected]
    else:
        assert lines == ["The table page is at http://127.0.0.1:8123/; this machine has no address on a local network."]


def test_the_addresses_offered_are_never_loopback():
    assert all(not ipaddress.ip_address(a).is_loopback for a in lan_addresses())


def test_serving_on_loopback_names_the_address_phones_need_and_how_to_listen_there():
    found = lan_addresses()
    lines = page_addresses("127.0.0.1", 8000)
    if found:
        assert lines == [
            "The table page is at http://127.0.0.1:8000/ for this computer only. Phones on this network need "
            f"http://{found[0]}:8000/: serve with --host 0.0.0.0 to let them in."
        ]
    else:
        assert lines == ["The table page is at http://127.0.0.1:8000/"]


def test_serving_on_the_local_network_address_itself_names_it_alone():
    found = lan_addresses()
    host = found[0] if found else "192.0.2.7"
    assert page_addresses(host, 8000) == [f"The table page is at http://{host}:8000/"]
