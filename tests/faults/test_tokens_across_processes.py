"""A replaced or revoked token is refused by every server process on its next request.

Two real `quartermaster serve` processes on one database. Each keeps the tokens it has matched (service.tokens
.Verified) and the member rows it has read; a replacement or a revocation made through one must reach the other at
once (NOTIFY on the members channel, read before a kept token is trusted: service/store/members.py).
"""

from __future__ import annotations

import httpx
import pytest

from tests.faults.servers import campaign_with_a_player, serve

pytestmark = pytest.mark.slow


def _status(url: str, campaign: str, token: str) -> int:
    # A fresh connection each time: with --workers N, each would be taken by whichever process accepts it.
    with httpx.Client(base_url=url, timeout=10) as client:
        return client.get(f"/v1/campaigns/{campaign}", headers={"Authorization": f"Bearer {token}"}).status_code


def test_a_token_replaced_through_one_process_is_refused_by_the_other_on_its_next_request(two_servers):
    first, second = two_servers
    campaign, owner, player, old = campaign_with_a_player(first.url)
    # Both processes have matched the old token and keep it.
    assert [_status(s.url, campaign, old) for s in (first, second) for _ in range(3)] == [200] * 6

    with httpx.Client(base_url=first.url, timeout=10) as client:
        replaced = client.post(f"/v1/campaigns/{campaign}/members/{player}/token", headers=owner)
    assert replaced.status_code == 200, replaced.text
    new = replaced.json()["token"]

    assert _status(second.url, campaign, old) == 401
    assert _status(second.url, campaign, new) == 200
    assert [_status(s.url, campaign, t) for s in (second, first) for t in (old, new) for _ in range(5)] == (
        [401] * 5 + [200] * 5
    ) * 2


def test_a_member_revoked_through_one_process_is_refused_by_the_other_on_its_next_request(two_servers):
    first, second = two_servers
    campaign, owner, player, token = campaign_with_a_player(second.url)
    assert [_status(s.url, campaign, token) for s in (first, second) for _ in range(3)] == [200] * 6

    with httpx.Client(base_url=second.url, timeout=10) as client:
        revoked = client.delete(f"/v1/campaigns/{campaign}/members/{player}", headers=owner)
    assert revoked.status_code == 200, revoked.text

    assert _status(first.url, campaign, token) == 401
    assert [_status(s.url, campaign, token) for s in (first, second) for _ in range(5)] == [401] * 10
    with httpx.Client(base_url=first.url, timeout=10) as client:
        # The listening connection is what keeps this true: each process heard it, whichever answered.
        again = client.post(f"/v1/campaigns/{campaign}/members/{player}/token", headers=owner)
    assert again.status_code == 409 and "revoked" in again.json()["detail"]


def test_a_process_whose_listening_connection_is_cut_checks_every_token_until_it_listens_again(
    two_servers, database_url
):
    import psycopg

    first, second = two_servers
    campaign, owner, player, old = campaign_with_a_player(first.url)
    assert [_status(s.url, campaign, old) for s in (first, second)] == [200, 200]
    with psycopg.connect(database_url, autocommit=True) as conn:
        # Every listening connection on the members channel: both processes'.
        cut = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN qm_members'"
        ).fetchall()
        assert len(cut) >= 2
        # A replacement made while nobody listens is never heard; it must still be refused.
        conn.execute("UPDATE members SET token_hash = '\\x00'::bytea WHERE member_id = %s", (player,))
    assert _status(second.url, campaign, old) == 401
    assert _status(first.url, campaign, old) == 401


def test_with_two_workers_a_replaced_token_is_refused_on_every_fresh_connection_and_the_new_one_accepted(
    tmp_path, database_url
):
    served = serve(
        tmp_path, database_url=database_url, env={"QUARTERMASTER_RATE_LIMIT": "off"}, args=("--workers", "2")
    )
    try:
        served.wait_ready()
        campaign, owner, player, old = campaign_with_a_player(served.url)
        # Thirty fresh connections: each worker takes some, and keeps the token it matched.
        assert [_status(served.url, campaign, old) for _ in range(30)] == [200] * 30
        with httpx.Client(base_url=served.url, timeout=10) as client:
            new = client.post(f"/v1/campaigns/{campaign}/members/{player}/token", headers=owner).json()["token"]

        assert [_status(served.url, campaign, old) for _ in range(30)] == [401] * 30
        assert [_status(served.url, campaign, new) for _ in range(30)] == [200] * 30
    finally:
        served.process.terminate()
        served.process.wait(15)
