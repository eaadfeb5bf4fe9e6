"""Sybil wiring: every snippet runs as a doctest session.

Two runners, one job each: Sybil runs the snippet files (snippets/**/*.pycon), which hold
every example on the site; pytest-markdown-docs (`--markdown-docs` in pyproject.toml) runs
the python blocks of README.md and the CONTRIBUTING guides as scripts. Pages hold no
example code of their own (only includes of snippets: tests/test_structure.py), so
neither runner needs them. This file sits at the repository root because pytest applies
a conftest's collection hooks only to files below its own folder.
"""

import os
from doctest import REPORT_UDIFF

import pytest
from sybil import Sybil
from sybil.parsers.rest import DocTestParser

from torch_verified.examples import FLAGS, for_this_machine, prompt_problems
from torch_verified.project import kind

sybil = Sybil(
    parsers=[DocTestParser(optionflags=FLAGS | REPORT_UDIFF)],
    patterns=["*.pycon"],
    path="snippets",
    name="snippets",
).pytest()
SKIPPED = {
    "cuda": "needs a CUDA GPU; gpu.yml runs these with -m cuda",
    "nocuda": "shows what a machine without a GPU prints; this one has a GPU",
}


class MistypedPrompts(pytest.File):
    """A snippet with a mistyped prompt fails to collect, with one line per prompt, instead
    of doctest's own error; --continue-on-collection-errors (pyproject.toml) lets the other
    snippets run."""

    def collect(self):
        problems = prompt_problems(self.path.read_text(encoding="utf-8"))
        raise self.CollectError(
            "\n".join(f"{os.path.relpath(self.path)}:{n}: {m}" for n, m in problems)
        )


def pytest_addoption(parser):  # make check: the checks of tests/ that need no build
    parser.addoption(
        "--without-site", action="store_true", help="leave out the checks of the built site"
    )


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".pycon" and prompt_problems(file_path.read_text(encoding="utf-8")):
        return MistypedPrompts.from_parent(parent, path=file_path)
    return sybil(file_path, parent)


def pytest_itemcollected(item):
    """*.cuda.pycon examples are marked `cuda`, *.nocuda.pycon ones `nocuda`; each is
    skipped (collected and visible) where it does not apply."""
    if kind(item.path):
        item.add_marker(getattr(pytest.mark, kind(item.path)))
        if not for_this_machine(item.path):
            item.add_marker(pytest.mark.skip(reason=SKIPPED[kind(item.path)]))
