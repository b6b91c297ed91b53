"""A campaign's write lock keys (store/appending.py): the same in every process, and PostgreSQL's int4 pair."""

from __future__ import annotations

import uuid

from hypothesis import given, strategies as st

from quartermaster.service.store.appending import WRITES, write_lock


@given(st.uuids())
def test_every_campaign_id_gives_two_int4_keys_the_first_its_class(campaign_id: uuid.UUID):
    writes, key = write_lock(campaign_id)
    assert writes == WRITES
    assert -(2**31) <= key < 2**31 and -(2**31) <= writes < 2**31


def test_the_keys_depend_on_the_id_alone():
    # Not Python's hash(), which differs from process to process: the same id gives the same keys anywhere.
    campaign_id = uuid.UUID("7cc27f05-9564-4d43-8861-fe7c73f13606")
    assert write_lock(campaign_id) == write_lock(uuid.UUID(str(campaign_id))) == (WRITES, 305_592_892)


def test_ids_differing_in_any_one_bit_get_different_keys():
    campaign_id = uuid.UUID("7cc27f05-9564-4d43-8861-fe7c73f13606")
    keys = {write_lock(uuid.UUID(int=campaign_id.int ^ (1 << bit)))[1] for bit in range(128)}
    # Each bit folds onto one of 32 (bits 32 apart share a key, which only makes their writers take turns).
    assert len(keys) == 32 and write_lock(campaign_id)[1] not in keys
