"""The release this is: read from the installed distribution, whose one source is pyproject.toml's `version`."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("quartermaster")
except PackageNotFoundError:  # a tree run without installing it: say so rather than invent a number
    VERSION = "0+unknown"
