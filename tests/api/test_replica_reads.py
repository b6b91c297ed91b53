"""Reads from a replica: which server answers, and the position each answer reflects.

Here the replica's URL names the primary's own database, a replica that is never behind; a standby that is behind
is tested on real servers in tests/faults/test_standby.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings
from tests.conftest import Api

NOTE = {"type": "note.added", "data": {"text": "Sighted a sail."}}


@pytest.fixture(scope="module")
def with_replica(database_url: str, app_settings: Settings) -> Iterator[Api]:
    settings = dataclasses.replace(app_settings, replica_url=database_url)
    with TestClient(create_app(settings, database_url)) as client:
        yield Api(client)


def test_a_read_naming_what_the_caller_has_seen_comes_from_the_replica_and_says_so(with_replica):
    campaign = with_replica.new_campaign()
    last = with_replica.append(campaign, [NOTE]).json()["last_position"]
    state = with_replica.get(campaign, "/state", seen=last).json()
    history = with_replica.get(campaign, "/events", seen=last).json()
    assert (state["source"], state["position"]) == ("replica", last)
    assert (history["source"], history["position"]) == ("replica", last)
    assert [e["position"] for e in history["events"]] == list(range(1, last + 1))


def test_a_read_for_the_latest_without_a_position_seen_comes_from_the_primary(with_replica):
    campaign = with_replica.new_campaign()
    with_replica.append(campaign, [NOTE])
    assert with_replica.get(campaign, "/state").json()["source"] == "primary"
    assert with_replica.get(campaign, "/events").json()["source"] == "primary"


def test_a_read_past_what_the_replica_holds_falls_back_to_the_primary(with_replica):
    campaign = with_replica.new_campaign()
    last = with_replica.append(campaign, [NOTE]).json()["last_position"]
    answer = with_replica.get(campaign, "/state", seen=last + 5).json()
    assert (answer["source"], answer["position"]) == ("primary", last)


def test_a_negative_position_seen_is_refused_with_a_sentence(with_replica):
    campaign = with_replica.new_campaign()
    answer = with_replica.get(campaign, "/state", seen=-1)
    assert answer.status_code == 422 and "`seen` must be a position" in answer.json()["detail"]


def test_without_a_replica_answers_keep_their_shape(api):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE])
    assert "source" not in api.get(campaign, "/state", seen=1).json()
    assert set(api.get(campaign, "/events").json()) == {"events", "next"}


def test_a_report_for_a_caller_who_has_seen_the_end_comes_from_the_replica_and_matches_the_primarys(with_replica):
    from tests.unit.skull_tales.chapter_one import CAMPAIGN, OPTIONS

    campaign = with_replica.new_campaign("skull-tales-full-sail", options=OPTIONS)
    assert with_replica.append(campaign, CAMPAIGN).status_code == 201
    end = with_replica.get(campaign, "/state").json()["position"]
    from_replica = with_replica.get(campaign, "/report", chapter=2, seen=end).json()
    from_primary = with_replica.get(campaign, "/report", chapter=2).json()
    assert (from_replica.pop("source"), from_replica.pop("position")) == ("replica", end)
    assert (from_primary.pop("source"), from_primary.pop("position")) == ("primary", end)
    assert from_replica == from_primary
