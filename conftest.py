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


class MistypedPrompts(pytest.Item):
    """A snippet with a mistyped prompt fails alone, with one line per prompt, instead of
    stopping the collection of every other snippet (doctest's own error for `>>>x`)."""

    def runtest(self):
        text = self.path.read_text(encoding="utf-8")
        where = os.path.relpath(self.path)
        raise AssertionError("\n".join(f"{where}:{n}: {m}" for n, m in prompt_problems(text)))

    def repr_failure(self, excinfo):
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: prompts"


class Snippet(pytest.File):
    def collect(self):
        yield MistypedPrompts.from_parent(self, name="prompts")


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".pycon" and prompt_problems(file_path.read_text(encoding="utf-8")):
        return Snippet.from_parent(parent, path=file_path)
    return sybil(file_path, parent)


def pytest_itemcollected(item):
    """*.cuda.pycon examples are marked `cuda`, *.nocuda.pycon ones `nocuda`; each is
    skipped (collected and visible) where it does not apply."""
    if kind(item.path):
        item.add_marker(getattr(pytest.mark, kind(item.path)))
        if not for_this_machine(item.path):
            item.add_marker(pytest.mark.skip(reason=SKIPPED[kind(item.path)]))
