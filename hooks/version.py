"""Stamp the pinned PyTorch version into pages: `{{ torch_version }}` in Markdown.

The version is read from pyproject.toml at build time, so it is never typed twice.
"""

import re
import tomllib
from pathlib import Path

PLACEHOLDER = "{{ torch_version }}"


def pinned_torch_version(pyproject=Path(__file__).parent.parent / "pyproject.toml"):
    groups = tomllib.loads(pyproject.read_text(encoding="utf-8"))["dependency-groups"]
    for group in groups.values():
        for requirement in group:
            match = re.fullmatch(r"torch==([\w.+]+)", str(requirement))
            if match:
                return match.group(1)
    raise SystemExit(f"{pyproject}: no exact `torch==X` pin in [dependency-groups]")


def on_config(config):
    config.extra["torch_version"] = pinned_torch_version()
    return config


def on_page_markdown(markdown, page, config, files):
    return markdown.replace(PLACEHOLDER, config.extra["torch_version"])
