"""A Python client generated from the served OpenAPI document, with no hand edits, plays both games against a real
`quartermaster serve`: campaigns, members, typed events, retries answered from the log, history and state at a
position, undo and redo, and a campaign moved through export and import.

The client is made by openapi-python-client (a test dependency) into a temporary folder at the start of the module.
Its one setting: the export's media type, NDJSON, is handed to the client as bytes (`content_type_overrides`).
"""

from __future__ import annotations

import importlib
import io
import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.faults.servers import serve
from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, PORT

PACG = "pacg-skull-and-shackles"
SKULL_TALES = "skull-tales-full-sail"
PARTY = ("lirianne", "seltyiel")
ISLANDS = ("Floating Shipyard", "Shark Island", "Lonely Island", "Tempest Cay")
SETTINGS = """\
content_type_overrides:
  application/x-ndjson: application/octet-stream
post_hooks: []
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory, database_url):
    server = serve(tmp_path_factory.mktemp("client-server"), database_url=database_url)
    server.wait_ready()
    yield server
    server.kill()


@pytest.fixture(scope="module")
def qm(served, tmp_path_factory) -> Any:
    """The generated package, imported from the folder it was generated into."""
    folder: Path = tmp_path_factory.mktemp("generated")
    document = folder / "openapi.json"
    document.write_bytes(httpx.get(f"{served.url}/schema/openapi.json", timeout=30).content)
    (folder / "settings.yml").write_text(SETTINGS)
    generator = Path(sys.executable).with_name("openapi-python-client")
    made = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(document),
            "--meta",
            "none",
            "--output-path",
            str(folder / "qm_client"),
            "--config",
            str(folder / "settings.yml"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    # Every operation and schema made it into the client: the generator warns of each one it had to leave out.
    assert "Warning" not in made.stdout + made.stderr, made.stdout + made.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("qm_client")
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == "qm_client" or n.startswith("qm_client.")]:
            del sys.modules[name]


class Generated:
    """The generated package's modules, found by name: its operations and its models."""

    def __init__(self, package: Any, url: str) -> None:
        self.package = package
        self.url = url
        self.anonymous = package.Client(base_url=url, raise_on_unexpected_status=True, timeout=httpx.Timeout(30))

    def op(self, name: str) -> Any:
        return importlib.import_module(f"qm_client.api.default.{name}")

    def model(self, name: str) -> Any:
        return getattr(importlib.import_module("qm_client.models"), name)

    def member(self, token: str) -> Any:
        return self.package.AuthenticatedClient(
            base_url=self.url, token=token, raise_on_unexpected_status=True, timeout=httpx.Timeout(30)
        )


@pytest.fixture(scope="module")
def client(qm, served) -> Generated:
    return Generated(qm, served.url)


def _start(client: Generated, game: str, name: str, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
    NewCampaign = client.model("NewCampaign")
    Options = client.model("NewCampaignOptions")
    game_id = client.model("NewCampaignGame")(game)
    body = NewCampaign(name=name, game=game_id, options=Options.from_dict(options or {}))
    answer = client.op("create_campaign").sync_detailed(client=client.anonymous, body=body)
    assert answer.status_code == 201, answer.content
    created = answer.parsed
    assert isinstance(created, client.model("CampaignCreated"))
    return created, client.member(created.token)


def _add_member(client: Generated, campaign: Any, owner: Any, name: str, role: str = "player") -> Any:
    NewMember = client.model("NewMember")
    body = NewMember(name=name, role=client.model("NewMemberRole")(role))
    answer = client.op("add_member").sync_detailed(str(campaign.id), client=owner, body=body)
    assert answer.status_code == 201, answer.content
    added = answer.parsed
    assert isinstance(added, client.model("MemberAdded")) and added.role.value == role
    return client.member(added.token)


def _append(client: Generated, campaign: Any, member: Any, batch: Any, status: int = 201) -> Any:
    answer = client.op("append_events").sync_detailed(str(campaign.id), client=member, body=batch)
    assert answer.status_code == status, answer.content
    appended = answer.parsed
    assert isinstance(appended, client.model("Appended"))
    return appended


def _state(client: Generated, campaign: Any, member: Any, at: int | None = None) -> Any:
    kwargs = {} if at is None else {"at": at}
    answer = client.op("whole_state").sync_detailed(str(campaign.id), client=member, **kwargs)
    assert answer.status_code == 200, answer.content
    return answer.parsed


def _history(client: Generated, campaign: Any, member: Any) -> list[Any]:
    events: list[Any] = []
    after = 0
    while True:
        answer = client.op("read_events").sync_detailed(str(campaign.id), client=member, after=after, limit=1000)
        assert answer.status_code == 200, answer.content
        page = answer.parsed
        events += page.events
        if page.next_ is None:
            return events
        after = page.next_


def _move(client: Generated, campaign: Any, member: Any, created: Any) -> Any:
    """Export the campaign and import it as a new one; answer the new campaign and its owner's client."""
    exported = client.op("export").sync_detailed(str(campaign.id), client=member)
    assert exported.status_code == 200, exported.content
    ndjson = exported.parsed.payload.read()
    lines = ndjson.splitlines()
    header = client.model("ExportHeaderLine").from_dict(json.loads(lines[0]))
    assert header.events == len(lines) - 1 == _state(client, campaign, member).position  # the header, then each event
    last = client.model("ExportEventLine").from_dict(json.loads(lines[-1]))
    assert last.position == header.events and last.prev
    File = importlib.import_module("qm_client.types").File
    body = File(payload=io.BytesIO(ndjson), file_name="campaign.ndjson", mime_type="application/x-ndjson")
    imported = client.op("import_campaign").sync_detailed(client=client.anonymous, body=body)
    assert imported.status_code == 201, imported.content
    copy = imported.parsed
    assert isinstance(copy, client.model("CampaignCreated")) and copy.name == created.name
    return copy, client.member(copy.token)


def _same_campaign(client: Generated, first: Any, first_member: Any, second: Any, second_member: Any) -> None:
    assert _state(client, second, second_member).to_dict() == _state(client, first, first_member).to_dict()
    told = [(e.position, e.type_, e.data.to_dict(), e.undone_by) for e in _history(client, first, first_member)]
    again = [(e.position, e.type_, e.data.to_dict(), e.undone_by) for e in _history(client, second, second_member)]
    assert again == told


def test_a_generated_client_plays_skull_and_shackles_retries_undoes_redoes_and_moves_the_campaign(client):
    created, owner = _start(client, PACG, "Island Hopping")
    player = _add_member(client, created, owner, "Mira")
    viewer = _add_member(client, created, owner, "Tomas", "viewer")
    Batch = client.model("PacgSkullAndShacklesBatch")
    NoteAdded = client.model("PacgSkullAndShacklesNoteAdded")
    NoteData = client.model("PacgSkullAndShacklesNoteAddedData")
    NoteType = client.model("PacgSkullAndShacklesNoteAddedType")
    catalogue = client.op("read_catalog").sync_detailed(
        client.model("ReadCatalogGameId")(PACG), client=client.anonymous
    )
    decks = {c["character_id"]: c["suggested_deck"] for c in catalogue.parsed["characters"]["characters"]}

    # The table names things; the server fills in what the catalogue knows (Lirianne's card, the base set's cards).
    opening = [{"type": "vault.products_added", "data": {"product": "B"}}]
    opening += [{"type": "character.joined", "data": {"character_id": who, "player": "Mira"}} for who in PARTY]
    opening += [
        {"type": "deck.built", "data": {"character_id": who, "cards": [n for ns in decks[who].values() for n in ns]}}
        for who in PARTY
    ]
    appended = _append(client, created, player, Batch.from_dict({"events": opening}))
    joined = appended.events[1]
    assert joined.type_ == "character.joined" and joined.data["name"] == "Lirianne" and "card" in joined.data

    deck = {"monster": 3, "barrier": 2, "weapon": 1, "item": 1, "ally": 1, "blessing": 1}
    scenario = [
        {
            "type": "scenario.started",
            "data": {"scenario": "Island Hopping", "locations": [{"name": n, "deck": deck} for n in ISLANDS]},
        },
        {"type": "plunder.stashed", "data": {"roll": 3}},
        *[{"type": "character.moved", "data": {"character_id": who, "to": "Shark Island"}} for who in PARTY],
        {"type": "hourglass.advanced", "data": {"character_id": "lirianne", "card": "Blessing of Abadar"}},
        {
            "type": "card.moved",
            "data": {
                "card": "Dire Rat",
                "verb": "reveal",
                "explorer": "lirianne",
                "from": {"zone": "location", "location": "Shark Island"},
                "to": {"zone": "encounter"},
            },
        },
    ]
    _append(client, created, player, Batch.from_dict({"events": scenario}))
    revealed = _history(client, created, owner)[-1]
    assert revealed.type_ == "card.moved" and revealed.data["card_type"] == "monster"  # from the catalogue

    # A typed event made with the model's own constructor, sent twice with the same id: the second is the first.
    note = NoteAdded(type_=NoteType("note.added"), data=NoteData(text="The Dire Rat bit hard."), id=uuid.uuid4())
    first = _append(client, created, player, Batch(events=[note]))
    retried = _append(client, created, player, Batch(events=[note]), status=200)
    assert retried.to_dict() == first.to_dict()
    position = first.last_position

    # Undo the note with a key, and again with the same key: answered from the log.
    UndoRequest = client.model("UndoRequest")
    undo = client.op("undo")
    undone = undo.sync_detailed(str(created.id), client=owner, body=UndoRequest(), idempotency_key="undo-note-1")
    assert undone.status_code == 201, undone.content
    again = undo.sync_detailed(str(created.id), client=owner, body=UndoRequest(), idempotency_key="undo-note-1")
    assert again.status_code == 200, again.content
    assert again.parsed.to_dict() == undone.parsed.to_dict() and undone.parsed.undone == [position]
    assert _history(client, created, owner)[position - 1].undone_by == undone.parsed.position

    # State at a position: before the note, and now (the note undone: the same game state).
    before = _state(client, created, owner, at=position - 1)
    assert before.position == position - 1
    assert _state(client, created, owner).state.to_dict() == before.state.to_dict()

    redone = client.op("redo").sync_detailed(str(created.id), client=owner, body=client.model("RedoRequest")())
    assert redone.status_code == 201, redone.content
    assert redone.parsed.redone == [position]
    assert _history(client, created, owner)[position - 1].undone_by is None

    summary = client.op("read_campaign").sync_detailed(str(created.id), client=viewer).parsed
    assert [m.role.value for m in summary.members] == ["owner", "player", "viewer"]
    refused = client.op("append_events").sync_detailed(str(created.id), client=viewer, body=Batch(events=[note]))
    assert refused.status_code == 403 and isinstance(refused.parsed, client.model("Problem"))

    copy, copy_owner = _move(client, created, owner, created)
    _same_campaign(client, created, owner, copy, copy_owner)


def test_a_generated_client_plays_a_skull_tales_chapter_and_moves_the_campaign(client):
    created, owner = _start(client, SKULL_TALES, "The Secret of Captain Jones", OPTIONS)
    _add_member(client, created, owner, "Ann")
    Batch = client.model("SkullTalesFullSailBatch")
    _append(client, created, owner, Batch.from_dict({"events": CREW + CHAPTER_ONE}))
    port = _append(client, created, owner, Batch.from_dict({"events": PORT}))
    learned = next(e for e in port.events if e.type_ == "skill.learned")
    assert learned.data["skill_class"] and learned.data["coins"] > 0  # filled in from the catalogue
    upgraded = next(e for e in port.events if e.type_ == "ship.upgraded")
    assert upgraded.data["cost"] == 100

    pirates = client.op("view_pirates").sync_detailed(str(created.id), client=owner)
    assert pirates.status_code == 200 and {p["id"] for p in pirates.parsed.pirates} >= {"anne", "mary"}

    copy, copy_owner = _move(client, created, owner, created)
    _same_campaign(client, created, owner, copy, copy_owner)
