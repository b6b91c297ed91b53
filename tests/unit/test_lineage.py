"""Which server a process may write to, judged by what it has met (service/platform/lineage.py): one rule per case."""

from __future__ import annotations

from quartermaster.service.platform.lineage import Lineage, Server


def server(timeline: int = 1, lsn: int = 1000, *, system: str = "7001", database: int = 5, where: str = "a:1"):
    return Server(system, False, timeline, lsn, database, where)


def met(first: Server) -> tuple[Lineage, list[str]]:
    lineage, forgotten = Lineage(), []
    lineage.on_change.append(forgotten.append)
    assert lineage.judge(first) is None
    return lineage, forgotten


def test_the_first_server_met_is_admitted_and_nothing_is_forgotten():
    _, forgotten = met(server())
    assert forgotten == []


def test_the_same_server_further_on_is_admitted_and_remembered_further_on():
    lineage, forgotten = met(server(lsn=1000))
    assert lineage.judge(server(lsn=5000)) is None
    assert forgotten == [] and lineage.known is not None and lineage.known.lsn == 5000


def test_a_promoted_standby_is_admitted_and_the_process_forgets_what_it_held():
    lineage, forgotten = met(server(timeline=1, where="a:1"))
    assert lineage.judge(server(timeline=2, lsn=10, where="b:2")) is None
    assert len(forgotten) == 1 and "promoted" in forgotten[0]


def test_a_former_primary_is_refused_with_a_sentence_and_stays_refused():
    lineage, forgotten = met(server(timeline=1, where="a:1"))
    lineage.judge(server(timeline=2, where="b:2"))
    for _ in range(2):
        sentence = lineage.judge(server(timeline=1, lsn=99999, where="a:1"))
        assert sentence is not None and "a:1" in sentence and "former primary" in sentence and "pg_rewind" in sentence
    assert lineage.refusal() == sentence
    assert lineage.judge(server(timeline=2, lsn=20, where="b:2")) is None  # the current primary still is


def test_an_older_copy_of_the_same_server_is_admitted_and_the_process_forgets():
    lineage, forgotten = met(server(lsn=5000))
    assert lineage.judge(server(lsn=3000)) is None
    assert len(forgotten) == 1 and "older copy" in forgotten[0]


def test_another_cluster_or_database_is_admitted_and_the_process_forgets():
    lineage, forgotten = met(server())
    assert lineage.judge(server(system="8002")) is None
    assert lineage.judge(server(system="8002", database=6)) is None
    assert len(forgotten) == 2 and all("another database" in why for why in forgotten)
