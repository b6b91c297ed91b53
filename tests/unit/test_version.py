"""One version, written once in pyproject.toml, is what the command, the API document and the changelog say."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from quartermaster.service.platform.version import VERSION

ROOT = Path(__file__).parents[2]


def _written() -> str:
    version: str = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    return version


def test_the_installed_version_is_the_one_pyproject_names():
    assert VERSION == _written(), "reinstall (pip install -e .) after changing pyproject.toml's version"


def test_quartermaster_version_prints_it_and_exits_zero():
    done = subprocess.run(
        [sys.executable, "-m", "quartermaster.service.cli", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"quartermaster {_written()}"


def test_the_changelog_has_a_section_for_the_current_version():
    assert f"## {_written()} " in (ROOT / "CHANGELOG.md").read_text()


def test_the_licence_is_mit():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
