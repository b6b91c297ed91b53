"""The README and docs/ name only what exists: every file path, setting, `quartermaster` command and flag, and event
type they mention is looked up in the repository and the code, so the docs cannot drift from it. Each finder is also
shown a made-up name, so a check that finds nothing cannot pass by finding nothing."""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib.util
import io
import pathlib
import re

import pytest

from quartermaster.projections.registry import GAME_IDS, event_types, game, module_name
from quartermaster.service import cli

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# The folders of the repository a path in the docs starts from.
TOP = ("events", "projections", "service", "migrations", "tests", "benchmarks", "docs", ".ci")
PATH = re.compile(r"(?<![\w./~-])((?:" + "|".join(re.escape(top) for top in TOP) + r")/[\w.*/{}-]*)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
SETTING = re.compile(r"\b((?:TEST_|BENCH_)?DATABASE_URL|QUARTERMASTER_[A-Z0-9_]+)\b")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
SPAN = re.compile(r"`([^`\n]+)`")
# `quartermaster SUB ...` as the first word of a command (after settings, sudo, a path, or `&&`), not a unit's name
# in `systemctl enable quartermaster`.
COMMAND = re.compile(
    r"(?:^|&&|;|\|)\s*(?:[A-Z_]+=\S*\s+)*(?:sudo\s+(?:-u\s+\S+\s+)?)?(?:\S*[/=])?"
    r"quartermaster ([a-z][a-z-]*)((?: +(?:\[?--[a-z-]+\]?|[^\s#-][^\s]*))*)"
)
FLAG = re.compile(r"--[a-z][a-z-]*")
# An event type as the docs write one: `card.moved`, or "type": "card.moved" in an example.
EVENT_SPAN = re.compile(r"^[a-z_]+\.[a-z_]+$")
EVENT_FIELD = re.compile(r'"type":\s*"([a-z_]+\.[a-z_]+)"')
# A span with one of these endings is a file (PostgreSQL's `standby.signal` included), not an event type.
FILE_SUFFIXES = {"py", "md", "js", "mjs", "json", "toml", "sql", "css", "html", "pem", "txt", "sh", "service", "signal"}
IMPORT = re.compile(r"^\s*(?:from|import) ([\w.]+)", re.M)


def _texts() -> dict[str, str]:
    return {str(path.relative_to(ROOT)): path.read_text() for path in DOCS}


def _code(text: str) -> list[str]:
    """The docs' code: each line of a fenced block, and each inline span outside the blocks."""
    lines = [line for block in FENCE.findall(text) for line in block.splitlines()]
    return lines + SPAN.findall(FENCE.sub("", text))


# ------------------------------------------------------------------------------------------------ paths


def missing_paths(text: str, where: pathlib.Path = ROOT / "README.md") -> list[str]:
    """The repository paths and relative links in `text` that name nothing in the repository."""
    missing = []
    for found in PATH.findall(text):
        path = found.rstrip(".,;:")
        if "{" in path:  # a pattern such as `projections/{game}/`, checked by its fixed head
            path = path.split("{", 1)[0]
        if not (any(ROOT.glob(path.rstrip("/"))) if "*" in path else (ROOT / path).exists()):
            missing.append(found)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        if not (where.parent / target.split("#", 1)[0]).resolve().exists():
            missing.append(target)
    return list(dict.fromkeys(missing))


def test_every_path_the_docs_name_exists():
    for name, text in _texts().items():
        assert missing_paths(text, ROOT / name) == [], f"{name} names paths the repository does not have"


def test_every_path_pyproject_names_exists():
    # Its comments say which file needs a pin or a dependency: a file that moved leaves the reason pointing nowhere.
    assert missing_paths((ROOT / "pyproject.toml").read_text(), ROOT / "pyproject.toml") == []


def test_the_path_check_finds_a_made_up_path():
    text = "The fold is in `projections/pacg/sails.py`; see [the map](docs/charts.md) and projections/pacg/RULES.md."
    assert missing_paths(text) == ["projections/pacg/sails.py", "docs/charts.md"]


# ------------------------------------------------------------------------------------------------ settings


@functools.cache
def _strings_in_code() -> frozenset[str]:
    """Every string constant of the Python code (the docs' own test left out) and every word of the CI scripts."""
    found: set[str] = set()
    for top in ("service", "tests", "benchmarks", "events", "projections"):
        for path in (ROOT / top).rglob("*.py"):
            if path == pathlib.Path(__file__).resolve():
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)
    for path in (ROOT / ".ci").iterdir():
        if path.is_file():
            found.update(re.findall(r"[A-Z][A-Z0-9_]+", path.read_text()))
    return frozenset(found)


def missing_settings(text: str) -> list[str]:
    """The environment variables `text` names that no code reads (a variable is read by its name as a string)."""
    return sorted({name for name in SETTING.findall(text) if name not in _strings_in_code()})


def test_every_setting_the_docs_name_is_read_by_the_code():
    for name, text in _texts().items():
        assert missing_settings(text) == [], f"{name} names settings no code reads"


def test_the_setting_check_finds_a_made_up_setting():
    text = "Set `QUARTERMASTER_POOL_MAX` and `QUARTERMASTER_SAIL_SPEED`, or `DATABASE_URL`."
    assert missing_settings(text) == ["QUARTERMASTER_SAIL_SPEED"]


# ------------------------------------------------------------------------------------------------ commands


def _help(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main([*argv, "--help"])
    return out.getvalue()


@functools.cache
def _commands() -> dict[str, frozenset[str]]:
    """Each `quartermaster` subcommand with its flags, as the command line itself says in its --help."""
    usage = _help()
    names = re.search(r"\{([a-z,-]+)\}", usage)
    assert names is not None, usage
    return {name: frozenset(FLAG.findall(_help(name))) for name in names.group(1).split(",")}


def missing_commands(text: str) -> list[str]:
    """The `quartermaster ...` commands and flags in the code of `text` that the command line does not have. A span
    that is only a flag (`--workers`) must be a flag of some command."""
    commands = _commands()
    every_flag = frozenset().union(*commands.values())
    missing = []
    for code in _code(text):
        for name, rest in COMMAND.findall(code):
            if name not in commands:
                missing.append(f"quartermaster {name}")
                continue
            missing.extend(f"quartermaster {name} {flag}" for flag in FLAG.findall(rest) if flag not in commands[name])
        if code.startswith("--"):
            missing.extend(flag for flag in FLAG.findall(code.split()[0]) if flag not in every_flag)
    return missing


def test_every_command_and_flag_the_docs_name_exists():
    for name, text in _texts().items():
        assert missing_commands(text) == [], f"{name} names commands or flags the command line does not have"


def test_the_command_check_finds_a_made_up_command_and_flag():
    text = (
        "Run `quartermaster serve --host 0.0.0.0 --sails 3`, then `quartermaster careen --campaign ID`,\n"
        "`quartermaster verify [--campaign ID]` and `--anchor`; `systemctl enable quartermaster careened`:\n\n"
        "```sh\n.venv/bin/quartermaster rebuild --quiet\n```\n"
    )
    assert missing_commands(text) == ["quartermaster serve --sails", "quartermaster careen", "--anchor"]


# ------------------------------------------------------------------------------------------------ event types


@functools.cache
def _event_tags() -> frozenset[str]:
    return frozenset(tag for game_id in GAME_IDS for tag in event_types(game_id))


def missing_event_types(text: str) -> list[str]:
    """The event types `text` names (a span such as `card.moved`, or an example's "type") that no game records."""
    named = [span for span in SPAN.findall(text) if EVENT_SPAN.match(span)]
    named = [s for s in named if s.rsplit(".", 1)[1] not in FILE_SUFFIXES and not s.startswith("quartermaster.")]
    named += EVENT_FIELD.findall(text)
    return sorted({tag for tag in named if tag not in _event_tags()})


def test_every_event_type_the_docs_name_is_recorded_by_a_game():
    for name, text in _texts().items():
        assert missing_event_types(text) == [], f"{name} names event types no game records"


def test_the_event_type_check_finds_a_made_up_event_type():
    text = 'A `card.moved`, a `ship.careened`, `writing.py`, and {"type": "kraken.sighted", "data": {}}.'
    assert missing_event_types(text) == ["kraken.sighted", "ship.careened"]


def test_the_docs_name_things_of_every_kind():
    # The checks above see what the docs really name: were a pattern to stop matching, they would pass on nothing.
    text = "\n".join(_texts().values())
    assert len(PATH.findall(text)) > 20
    assert len(SETTING.findall(text)) > 10
    assert sum(len(COMMAND.findall(code)) for code in _code(text)) > 3
    assert len([span for span in SPAN.findall(text) if EVENT_SPAN.match(span)]) > 5


# ------------------------------------------------------------------------------------------------ imports


def missing_imports(text: str) -> list[str]:
    """The imports in the docs' code blocks of a product module that is not there under its installed name."""
    missing = []
    for block in FENCE.findall(text):
        for module in IMPORT.findall(block):
            top = module.split(".")[0]
            if top in ("events", "projections", "service", "migrations"):
                missing.append(module)  # installed only as quartermaster.<name>
            elif top == "quartermaster" and importlib.util.find_spec(module) is None:
                missing.append(module)
    return missing


def test_every_product_module_the_docs_import_exists():
    for name, text in _texts().items():
        assert missing_imports(text) == [], f"{name} imports modules that are not installed under those names"


def test_the_import_check_finds_a_made_up_module_and_a_bare_name():
    text = (
        "```python\nfrom quartermaster.service.platform import embedded\nfrom service import embedded\n"
        "import quartermaster.service.sails\nimport pathlib\n```\n"
    )
    assert missing_imports(text) == ["service", "quartermaster.service.sails"]


# ------------------------------------------------------------------------------------------------ the recipe


def test_the_recipe_for_a_new_event_type_is_true_of_every_event_type():
    # docs/architecture.md, "What to change together": where an event type's parts are, checked for each one.
    recipe = (ROOT / "docs" / "architecture.md").read_text()
    assert "_HANDLERS" in recipe and "SENTENCES" in recipe and "__all__" in recipe
    for game_id in GAME_IDS:
        chosen = game(game_id)
        fold = f"quartermaster.projections.{module_name(game_id)}"
        package = importlib.import_module(f"quartermaster.events.{module_name(game_id)}")
        handlers = vars(importlib.import_module(fold))["_HANDLERS"]
        assert handlers is chosen.handlers, f"{fold}._HANDLERS is {game_id}'s handler table"
        sentences = importlib.import_module(f"{fold}.sentences").SENTENCES
        for event_type in chosen.event_types:
            module = importlib.import_module(event_type.__module__)
            assert module.__name__.startswith(package.__name__ + "."), event_type
            assert event_type.__name__ in module.__all__ and getattr(package, event_type.__name__) is event_type
            handler = handlers[event_type]
            assert handler.__module__.startswith(fold), f"{event_type.__name__} is handled outside {fold}"
            assert event_type in sentences
            if game_id == "skull-tales-full-sail":  # the recipe says its fold's modules have the events' names
                assert handler.__module__.rsplit(".", 1)[1] == module.__name__.rsplit(".", 1)[1], event_type


# ------------------------------------------------------------------------------------------------ the front door


def test_the_readme_is_a_front_door_to_every_page_of_the_docs():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 200
    # .ci/run reads the test command from the second line after the marker, as a newcomer would copy it.
    after = readme.split("<!-- test-command -->\n", 1)[1].splitlines()
    assert after[0] == "```sh" and "pytest" in after[1]
    assert "quartermaster serve" in readme
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", readme)
    assert pictures and all((ROOT / picture).is_file() for picture in pictures)
    linked = set(LINK.findall(readme))
    assert {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")} <= linked


# ------------------------------------------------------------------------------------------------ the other way


# Variables the service sets for its own worker processes, which no operator sets.
INTERNAL_SETTINGS = {
    "QUARTERMASTER_CONNINFO": "serve hands its workers the database it chose",
    "QUARTERMASTER_METRICS_DIR": "serve's workers share their metrics through this folder",
    "QUARTERMASTER_TLS_AUTHORITY": "serve --https hands its workers the authority it made",
}


def _settings_the_service_reads() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SETTING.fullmatch(node.value):
                found.add(node.value)
    return found


def test_every_setting_the_service_reads_is_in_the_operators_guide():
    guide = (ROOT / "docs" / "operations.md").read_text()
    read = _settings_the_service_reads()
    assert read >= set(INTERNAL_SETTINGS), "an internal setting is no longer read: take it off the list"
    assert sorted(name for name in read - set(INTERNAL_SETTINGS) if f"`{name}`" not in guide) == []


def test_every_command_is_in_the_operators_guide():
    guide = (ROOT / "docs" / "operations.md").read_text()
    named = {name for code in _code(guide) for name, _ in COMMAND.findall(code)}
    assert sorted(set(_commands()) - named) == []
