"""Past one database server, on two real PostgreSQL servers (Debian's binaries): a synchronous standby promoted after
its primary's SIGKILL under load, the old primary come back as a primary, and an older copy restored under a running
service.

Writers send notes with ids they make themselves and send a batch again, with the same ids, until it is answered:
what is acknowledged is then in the log once, whoever recorded it. Bounded for a small machine: eight writers for a
few seconds each way.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from tests.faults.servers import Served, serve
from tests.faults.standby import Cluster, Folder, binaries_or_skip

pytestmark = pytest.mark.slow

WRITERS = 8
CAMPAIGNS = 2
ENV = {"QUARTERMASTER_RATE_LIMIT": "off"}


@pytest.fixture
def folder() -> Iterator[Folder]:
    binaries_or_skip()
    made = Folder()
    clusters: list[Cluster] = []
    made.clusters = clusters  # type: ignore[attr-defined]
    try:
        yield made
    finally:
        for cluster in clusters:
            cluster.close()
        made.remove()


def cluster(folder: Folder, name: str, port: int | None = None) -> Cluster:
    made = Cluster(folder, name, port)
    folder.clusters.append(made)  # type: ignore[attr-defined]
    return made


@dataclass
class Load:
    """Eight writers on a served Quartermaster, each batch sent until answered; what each answer said, and when."""

    url: str
    campaigns: list[tuple[str, dict[str, str]]]
    acknowledged: dict[str, int] = field(default_factory=dict)  # event id -> position
    failures: list[float] = field(default_factory=list)  # monotonic times of answers that were not a success
    successes: list[float] = field(default_factory=list)
    sentences: set[str] = field(default_factory=set)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> Load:
        self.threads = [threading.Thread(target=self._writer, args=(n,)) for n in range(WRITERS)]
        for thread in self.threads:
            thread.start()
        return self

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(60)
        assert not any(t.is_alive() for t in self.threads), "a writer never got its batch answered"

    def _writer(self, number: int) -> None:
        campaign, headers = self.campaigns[number % len(self.campaigns)]
        with httpx.Client(timeout=10) as client:
            sent = 0
            while not self.stop.is_set():
                event_id = str(uuid.uuid4())
                batch = {"events": [{"type": "note.added", "id": event_id, "data": {"text": f"{number}.{sent}"}}]}
                sent += 1
                while True:  # the same batch, the same ids, until answered
                    try:
                        answer = client.post(f"{self.url}/v1/campaigns/{campaign}/events", json=batch, headers=headers)
                    except httpx.HTTPError:
                        answer = None
                    now = time.monotonic()
                    if answer is not None and answer.status_code in (200, 201):
                        with self.lock:
                            self.acknowledged[event_id] = answer.json()["events"][0]["position"]
                            self.successes.append(now)
                        break
                    assert answer is None or answer.status_code == 503, answer.text
                    with self.lock:
                        self.failures.append(now)
                        if answer is not None:
                            self.sentences.add(answer.json()["detail"])
                    time.sleep(0.05)

    def count(self) -> int:
        with self.lock:
            return len(self.acknowledged)


def campaigns(served: Served) -> list[tuple[str, dict[str, str]]]:
    made = []
    for n in range(CAMPAIGNS):
        created = httpx.post(
            f"{served.url}/v1/campaigns", json={"name": f"Standby {n}", "game": "pacg-skull-and-shackles"}
        ).json()
        made.append((created["id"], {"Authorization": f"Bearer {created['token']}"}))
    return made


def logged(server: Cluster, campaign: str) -> list[tuple[int, str]]:
    return [
        (p, str(e))
        for p, e in server.sql(
            "SELECT position, event_id FROM events WHERE campaign_id = %s ORDER BY position", (campaign,)
        )
    ]


def wait_for(what, timeout: float = 30) -> float:
    started = time.monotonic()
    while not what():
        assert time.monotonic() - started < timeout, "waited too long"
        time.sleep(0.02)
    return time.monotonic() - started


def assert_every_acknowledged_event_once_and_no_gap(load: Load, server: Cluster) -> int:
    """Every campaign's log on `server` is gapless and holds each event once; each acknowledged event is in it, at
    the position its answer gave. Answers the events logged."""
    where: dict[str, int] = {}
    for campaign, _ in load.campaigns:
        log = logged(server, campaign)
        assert [p for p, _ in log] == list(range(1, len(log) + 1)), "the log has a gap"
        assert len({e for _, e in log}) == len(log), "an event is in the log twice"
        where.update((e, p) for p, e in log)
    lost = [e for e in load.acknowledged if e not in where]
    assert not lost, f"{len(lost)} acknowledged events are not in the log"
    assert all(where[e] == p for e, p in load.acknowledged.items()), "an event is not where its answer said"
    return len(where)


def test_a_promotion_under_load_loses_no_acknowledged_event_and_the_old_primary_back_as_primary_gets_none(folder):
    # Given a primary with a synchronous standby made by pg_basebackup -R, and a service on both
    primary = cluster(folder, "primary").init().start()
    standby = cluster(folder, "standby").standby_of(primary)
    primary.make_synchronous()
    url = (
        f"postgresql://postgres@127.0.0.1:{primary.port},127.0.0.1:{standby.port}/postgres"
        "?target_session_attrs=read-write"
    )
    served = serve(folder.path, database_url=url, env=ENV)
    served.wait_ready()
    load = Load(served.url, campaigns(served)).start()
    wait_for(lambda: load.count() >= 150)

    # When the primary's postmaster is SIGKILLed under load, and the standby promoted a moment later
    killed_at = time.monotonic()
    primary.kill()
    time.sleep(0.5)  # an operator's (or Patroni's) reaction time
    promoting = time.monotonic()
    standby.promote()
    promoted = time.monotonic()
    ready = wait_for(lambda: httpx.get(f"{served.url}/readyz", timeout=2).status_code == 200)
    before = load.count()
    wait_for(lambda: load.count() >= before + 150)
    load.finish()

    # Then every acknowledged event is on the promoted server once, where its answer said, with no gap
    total = assert_every_acknowledged_event_once_and_no_gap(load, standby)
    # What a client saw: the longest stretch with no append acknowledged, and how soon after the promotion they came
    # back (a request waits up to the pool's timeout for a connection, so most waited rather than failed).
    acked = sorted(load.successes)
    silent = max((b - a for a, b in zip(acked, acked[1:], strict=False) if b > killed_at), default=0.0)
    back = min(t for t in acked if t > promoting) - promoted
    failed = [t for t in load.failures if t >= killed_at]
    print(
        f"\nfailover: {before} acknowledged by the promotion's end, {len(load.acknowledged)} in all, {total} logged; "
        f"no append acknowledged for {silent:.2f} s, {len(failed)} answers 503 or lost over "
        f"{(max(failed) - min(failed)) if failed else 0:.2f} s; appends back {back:.2f} s after the promotion "
        f"(pg_ctl promote took {promoted - promoting:.2f} s), /readyz back {ready:.2f} s after it"
    )
    assert all("former primary" not in s for s in load.sentences)
    assert "(timeline 2): 127.0.0.1" in served.output() and "a standby was promoted" in served.output()

    # Given the old primary back as a primary (restarted by hand: it accepts writes, on its old timeline)
    primary.start()
    on_old = {campaign: logged(primary, campaign) for campaign, _ in load.campaigns}
    # When the service's connections break once and it connects again (the old primary is listed first), under load,
    # and a service that has met no server starts on the same URL
    load = Load(served.url, load.campaigns).start()
    standby.sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'client backend'"
        " AND pid <> pg_backend_pid()"
    )
    fresh = serve(folder.path, database_url=url, env=ENV)
    fresh.wait_ready()
    before = load.count()
    wait_for(lambda: load.count() >= before + 150)
    extra = Load(fresh.url, load.campaigns).start()
    wait_for(lambda: extra.count() >= 50)
    extra.finish()
    load.finish()

    # Then no event lands on the old primary, and the promoted server's log goes on, whole and gapless
    assert {campaign: logged(primary, campaign) for campaign, _ in load.campaigns} == on_old
    assert_every_acknowledged_event_once_and_no_gap(load, standby)
    assert_every_acknowledged_event_once_and_no_gap(extra, standby)
    assert "former primary" in served.output() and "former primary" in fresh.output()


def test_an_older_copy_restored_under_a_running_service_is_written_on_from_its_end_with_no_gap(folder):
    # Given a service on one server, writing, and a copy of that server's data taken while it writes
    server = cluster(folder, "server").init().start()
    served = serve(folder.path, database_url=server.url, env=ENV)
    served.wait_ready()
    load = Load(served.url, campaigns(served)).start()
    wait_for(lambda: load.count() >= 60)
    older = server.copy_to("older")
    copied = load.count()
    wait_for(lambda: load.count() >= copied + 150)
    load.finish()
    ahead = {campaign: len(logged(server, campaign)) for campaign, _ in load.campaigns}

    # When the server is stopped and started again on the older copy, under the same running service
    server.stop()
    server.data, older.data = older.data, server.data
    server.start()
    behind = {campaign: len(logged(server, campaign)) for campaign, _ in load.campaigns}
    assert all(behind[c] < ahead[c] for c in ahead), "the copy is not older"
    restarted = Load(served.url, load.campaigns).start()
    wait_for(lambda: restarted.count() >= 100)
    restarted.finish()

    # Then the service writes on from the copy's end: no gap, every event it acknowledged since is there
    assert_every_acknowledged_event_once_and_no_gap(restarted, server)
    for campaign, _ in load.campaigns:
        assert len(logged(server, campaign)) > behind[campaign]
    print(f"\nrestore: logs at {ahead} before, {behind} in the copy; writing went on from there")


def test_reads_come_from_a_standby_only_once_it_has_reached_what_the_caller_has_seen(folder):
    # Given a service writing to a primary and reading from its standby, whose replay is paused: it falls behind
    primary = cluster(folder, "primary").init().start()
    standby = cluster(folder, "standby").standby_of(primary)
    served = serve(folder.path, database_url=primary.url, env={**ENV, "QUARTERMASTER_REPLICA_URL": standby.url})
    served.wait_ready()
    [(campaign, headers)] = campaigns(served)[:1]
    events = f"{served.url}/v1/campaigns/{campaign}/events"
    note = {"events": [{"type": "note.added", "data": {"text": "Before the pause."}}]}
    first = httpx.post(events, json=note, headers=headers).json()["last_position"]
    wait_for(lambda: standby.sql("SELECT count(*) FROM events WHERE campaign_id = %s", (campaign,))[0][0] == first)
    standby.sql("SELECT pg_wal_replay_pause()")
    latest = httpx.post(events, json=note, headers=headers).json()["last_position"]

    def state(**params: int) -> dict:
        return httpx.get(f"{served.url}/v1/campaigns/{campaign}/state", params=params, headers=headers).json()

    # When a caller who has seen the latest position reads, and one who has seen only the first
    # Then the first is answered by the primary at the latest position, the second by the standby, saying where it is
    assert (state(seen=latest)["source"], state(seen=latest)["position"]) == ("primary", latest)
    assert (state(seen=first)["source"], state(seen=first)["position"]) == ("replica", first)
    assert state(at=first)["source"] == "replica" and state(at=latest)["source"] == "primary"
    history = httpx.get(events, params={"seen": latest}, headers=headers).json()
    assert history["source"] == "primary" and history["events"][-1]["position"] == latest
    # And once the standby replays again, the caller who has seen the latest is answered by it
    standby.sql("SELECT pg_wal_replay_resume()")
    wait_for(lambda: state(seen=latest)["source"] == "replica")
