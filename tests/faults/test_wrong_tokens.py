"""A guesser's burst of wrong tokens from one address is throttled while a real member at another address plays on,
through a real server behind a proxy it trusts (each forwarded address a client of its own)."""

from __future__ import annotations

import threading

import httpx
import pytest

from tests.faults.servers import serve

pytestmark = pytest.mark.slow

GUESSER = {"X-Forwarded-For": "203.0.113.9"}
TABLE = {"X-Forwarded-For": "198.51.100.4"}


def test_a_burst_of_wrong_tokens_is_throttled_and_a_member_elsewhere_is_served_in_the_middle(tmp_path, database_url):
    served = serve(
        tmp_path,
        database_url=database_url,
        env={"QUARTERMASTER_TRUSTED_PROXIES": "127.0.0.1", "QUARTERMASTER_WRONG_TOKENS": "20/minute"},
    )
    served.wait_ready()
    with httpx.Client(base_url=served.url, timeout=10) as client:
        made = client.post("/v1/campaigns", json={"name": "Burst", "game": "pacg-skull-and-shackles"}, headers=TABLE)
        campaign, owner = made.json()["id"], made.json()["token"]
        added = client.post(
            f"/v1/campaigns/{campaign}/members",
            json={"name": "Jade", "role": "player"},
            headers={**TABLE, "Authorization": f"Bearer {owner}"},
        )
        player = added.json()["token"]
        throttled = threading.Event()
        carry_on = threading.Event()
        statuses: list[int] = []

        def guess() -> None:
            with httpx.Client(base_url=served.url, timeout=10) as guesser:
                for n in range(600):
                    wrong = player[:-6] + f"{n:06d}"  # the real member id with a wrong secret
                    statuses.append(
                        guesser.get(
                            f"/v1/campaigns/{campaign}", headers={**GUESSER, "Authorization": f"Bearer {wrong}"}
                        ).status_code
                    )
                    if statuses[-1] == 429 and not throttled.is_set():
                        throttled.set()
                        carry_on.wait(30)

        burst = threading.Thread(target=guess)
        burst.start()
        assert throttled.wait(60), statuses[-5:]
        # In the middle of the burst, the player's first request of all, from the table's address, is served
        answer = client.get(f"/v1/campaigns/{campaign}", headers={**TABLE, "Authorization": f"Bearer {player}"})
        carry_on.set()
        burst.join(120)
        assert answer.status_code == 200, answer.text
        appended = client.post(
            f"/v1/campaigns/{campaign}/events",
            json={"events": [{"type": "note.added", "data": {"text": "still here"}}]},
            headers={**TABLE, "Authorization": f"Bearer {player}"},
        )
        assert appended.status_code == 201, appended.text
    assert statuses == [401] * 20 + [429] * 580
    served.signal(15)
