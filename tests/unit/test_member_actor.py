"""A member names themselves in the log as their id spelt as str(uuid) always spelt it."""

from __future__ import annotations

import uuid

from hypothesis import given, strategies as st

from quartermaster.service.http.auth import Member


@given(st.uuids(), st.uuids())
def test_a_members_actor_is_their_id_as_str_spells_it(member_id, campaign_id):
    member = Member(id=member_id, campaign_id=campaign_id, name="Merisiel", role="player")
    assert type(member.actor) is str and member.actor == str(member_id)
    assert uuid.UUID(member.actor) == member_id
