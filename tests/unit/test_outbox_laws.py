"""The page's outbox, the real JavaScript (service/page/static/outbox.js) run by node, against a model of the API.

Law: whatever the interleaving of entries made without the server, answers lost, servers that cannot tell whether
they wrote, reloads, other phones' writes, and the player's drops and retries, once the server answers again every
entry ends recorded exactly once (in the order it was last sent) or shown refused, and nothing else: never lost,
never doubled, and an entry the player took back was never recorded.

The model server does what the API does with a retried batch: event ids it already recorded with the same content
are answered with what was recorded (200); a batch is checked against the state when it arrives (here: a token it
needs must be there), as the page's entries are.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

ROOT = Path(__file__).resolve().parents[2]
OUTBOX = ROOT / "service" / "page" / "static" / "outbox.js"
HARNESS = Path(__file__).with_name("outbox_harness.mjs")
NODE = shutil.which("node")
TOKENS = st.sampled_from(["cutlass", "pistol", "rum"])
# What becomes of one request: answered; never sent (the phone knows it is offline); sent and never answered;
# recorded and the answer lost; recorded or not and a 503 that cannot tell; a 503 that says nothing was written.
FAULTS = st.sampled_from(["ok", "offline", "down", "lost", "unknown", "busy"])

pytestmark = pytest.mark.skipif(NODE is None, reason="The outbox's laws run the page's JavaScript with node.")


class Server:
    """The API's answers to POST /events, as far as the outbox can tell them apart."""

    def __init__(self) -> None:
        self.batches: list[dict[str, Any]] = []
        self.ids: dict[str, str] = {}
        self.tokens: Counter[str] = Counter()

    def post(self, body: dict[str, Any], fault: str) -> Any:
        if fault == "offline":
            return "offline"
        if fault == "down":
            return None
        events = body["events"]
        contents = [json.dumps([e["type"], e["data"]], sort_keys=True) for e in events]
        known = [self.ids.get(e["id"]) for e in events]
        if all(k is not None for k in known):
            if known != contents:
                return {"status": 409, "content": {"detail": "Event id already recorded with other content."}}
            answer = {"status": 200, "content": {"events": []}}
            return None if fault == "lost" else answer
        if any(k is not None for k in known):
            return {"status": 409, "content": {"detail": "Part of this batch is recorded already."}}
        if fault == "busy":
            return {"status": 503, "content": {"detail": "Nothing was written."}}
        data = events[0]["data"]
        if data.get("needs") and self.tokens[data["needs"]] < 1:
            return {"status": 422, "content": {"detail": f"There is no {data['needs']} left."}}
        self.record(data, [e["id"] for e in events], contents)
        if fault == "lost":
            return None
        if fault == "unknown":
            return {"status": 503, "content": {"detail": "The server cannot tell whether it wrote."}}
        return {"status": 201, "content": {"events": []}}

    def record(self, data: dict[str, Any], ids: list[str], contents: list[str]) -> None:
        if data.get("needs"):
            self.tokens[data["needs"]] -= 1
        if data.get("gives"):
            self.tokens[data["gives"]] += 1
        self.batches.append(data)
        self.ids.update(zip(ids, contents, strict=True))


class Phone:
    """The node process running the page's outbox."""

    def __init__(self, folder: Path) -> None:
        # node 20 reads a `.js` file as CommonJS; the page's module is the same text under an ES module's name.
        module = folder / "outbox.mjs"
        shutil.copyfile(OUTBOX, module)
        assert NODE is not None
        self.process = subprocess.Popen(
            [NODE, str(HARNESS), module.as_uri()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def write(self, value: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(value) + "\n")
        self.process.stdin.flush()

    def read(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the outbox harness stopped"
        return json.loads(line)

    def ask(self, value: Any) -> Any:
        self.write(value)
        return self.read()

    def flush(self, server: Server, faults: list[str], then: str) -> str:
        """Flush, answering each send with the next fault (then `then` once they run out)."""
        self.write({"op": "flush"})
        for _ in range(200):
            said = self.read()
            if "flushed" in said:
                return str(said["flushed"])
            fault = faults.pop(0) if faults else then
            self.write({"answer": server.post(said["send"]["body"], fault)})
        raise AssertionError("the outbox kept sending without end")

    def close(self) -> None:
        if self.process.poll() is None:
            self.write({"op": "quit"})
            self.process.wait(5)


class Table(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.server = Server()
        self.made = 0
        self.sent_order: dict[str, int] = {}  # local id -> when it was last put in the queue
        self.text: dict[str, str] = {}
        self.taken_back: set[str] = set()
        self.dropped: set[str] = set()
        self.sequence = 0

    @initialize()
    def start(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="outbox-laws-"))
        self.phone = Phone(self.folder)

    def entries(self) -> list[dict[str, Any]]:
        return list(self.phone.ask({"op": "state"})["entries"])

    def queued(self, local: str) -> None:
        self.sequence += 1
        self.sent_order[local] = self.sequence

    @rule(needs=st.none() | TOKENS, gives=st.none() | TOKENS)
    def make_an_entry(self, needs: str | None, gives: str | None) -> None:
        self.made += 1
        text = f"entry {self.made}"
        local = self.phone.ask({"op": "add", "data": {"text": text, "needs": needs, "gives": gives}})["added"]
        self.text[local] = text
        self.queued(local)

    @rule(needs=st.none() | TOKENS, gives=st.none() | TOKENS)
    def another_phone_writes(self, needs: str | None, gives: str | None) -> None:
        if needs and self.server.tokens[needs] < 1:
            return
        self.made += 1
        self.server.record({"text": f"theirs {self.made}", "needs": needs, "gives": gives}, [], [])

    @rule(faults=st.lists(FAULTS, max_size=6))
    def the_server_answers_sometimes(self, faults: list[str]) -> None:
        self.phone.flush(self.server, faults, then="down")

    @rule()
    def the_page_is_reloaded(self) -> None:
        self.phone.ask({"op": "reload"})

    @precondition(lambda self: self.made > 0)
    @rule(data=st.data())
    def the_player_drops_a_refused_entry(self, data: st.DataObject) -> None:
        refused = [e for e in self.entries() if e["state"] == "refused"]
        if refused:
            entry = data.draw(st.sampled_from(refused))
            assert self.phone.ask({"op": "drop", "local": entry["local"]})["dropped"]
            self.dropped.add(entry["local"])

    @precondition(lambda self: self.made > 0)
    @rule(data=st.data(), edit=st.booleans())
    def the_player_sends_a_refused_entry_again(self, data: st.DataObject, edit: bool) -> None:
        refused = [e for e in self.entries() if e["state"] == "refused"]
        if refused:
            entry = data.draw(st.sampled_from(refused))
            body = None
            if edit:
                # Corrected: it no longer needs what was missing.
                event = entry["body"]["events"][0]
                body = {"events": [{"type": event["type"], "data": {**event["data"], "needs": None}}]}
            assert self.phone.ask({"op": "retry", "local": entry["local"], "body": body})["retried"]
            self.queued(entry["local"])

    @precondition(lambda self: self.made > 0)
    @rule(data=st.data())
    def the_player_takes_back_a_waiting_entry(self, data: st.DataObject) -> None:
        waiting = [e for e in self.entries() if e["state"] == "waiting"]
        if waiting:
            entry = data.draw(st.sampled_from(waiting))
            if self.phone.ask({"op": "takeable", "local": entry["local"]})["takeable"]:
                assert self.phone.ask({"op": "drop", "local": entry["local"]})["dropped"]
                self.taken_back.add(entry["local"])

    @invariant()
    def nothing_recorded_twice(self) -> None:
        if hasattr(self, "phone"):
            counts = Counter(b["text"] for b in self.server.batches)
            assert all(n == 1 for n in counts.values()), counts

    def teardown(self) -> None:
        if not hasattr(self, "phone"):
            return
        try:
            # The server is back for good: the outbox empties of everything but refusals.
            for _ in range(50):
                if self.phone.flush(self.server, [], then="ok") == "empty":
                    break
            left = {e["local"]: e for e in self.entries()}
            recorded = [b["text"] for b in self.server.batches if b["text"].startswith("entry ")]
            counts = Counter(recorded)
            for local, text in self.text.items():
                if local in left:
                    assert left[local]["state"] == "refused", f"{text} still waits"
                    assert counts[text] == 0, f"{text} is shown refused but was recorded"
                elif local in self.taken_back or local in self.dropped:
                    assert counts[text] == 0, f"{text} was taken back or dropped, yet recorded"
                else:
                    assert counts[text] == 1, f"{text} was lost or doubled: recorded {counts[text]} times"
            # In the order it was (last) put in the queue.
            order = {self.text[local]: at for local, at in self.sent_order.items()}
            assert recorded == sorted(recorded, key=order.__getitem__)
        finally:
            self.phone.close()
            shutil.rmtree(self.folder, ignore_errors=True)


Table.TestCase.settings = settings(
    max_examples=40, stateful_step_count=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_every_entry_ends_recorded_once_in_order_or_shown_refused = Table.TestCase
