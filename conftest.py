"""Sybil wiring: every snippet runs as a doctest session.

Two runners, one job each: Sybil runs the snippet files (snippets/**/*.pycon), which hold
every example on the site; pytest-markdown-docs (`--markdown-docs` in pyproject.toml) runs
the python blocks of README.md and the CONTRIBUTING guides as scripts. Pages hold no
example code of their own (only includes of snippets: tests/test_structure.py), so
neither runner needs them. This file sits at the repository root because pytest applies
a conftest's collection hooks only to files below its own folder.
"""

import linecache
import os
from doctest import REPORT_UDIFF

import pytest
from sybil import Sybil
from sybil.example import SybilFailure
from sybil.parsers.rest import DocTestParser

from torch_verified.examples import FLAGS, for_this_machine, prompt_problems
from torch_verified.project import kind

SYBIL = Sybil(
    parsers=[DocTestParser(optionflags=FLAGS | REPORT_UDIFF)], patterns=["*.pycon"], path="snippets"
)
SKIPPED = {
    "cuda": "needs a CUDA GPU; gpu.yml runs these with -m cuda",
    "nocuda": "shows what a machine without a GPU prints; this one has a GPU",
}


class Snippet(pytest.File):
    """A snippet file is one test. A mistyped prompt fails its collection, one line per
    prompt, instead of doctest's own error (--continue-on-collection-errors, pyproject.toml,
    lets the other snippets run)."""

    def collect(self):
        problems = prompt_problems(self.path.read_text(encoding="utf-8"))
        if problems:
            raise self.CollectError(
                "\n".join(f"{os.path.relpath(self.path)}:{n}: {m}" for n, m in problems)
            )
        yield Session.from_parent(self, name="session")


class Session(pytest.Item):
    """The examples of a snippet file, run in order in one namespace as a reader's session
    runs them; every example whose output differs is reported, with its line and the diff.
    (One item per example cost twice the CPU under xdist: 4,487 reports instead of 508.)"""

    fixturenames = ()  # it uses none

    def runtest(self):
        # doctest's runner checks every file in linecache before each example (pdb's reset);
        # torch's imports leave its sources there: 4 of 11 CPU-s of the examples, cleared
        linecache.clearcache()
        failures = []
        for example in SYBIL.parse(self.path).examples():
            try:
                example.evaluate()
            except SybilFailure as failure:
                failures.append(str(failure))
        if failures:
            pytest.fail("\n\n".join(failures), pytrace=False)

    def reportinfo(self):
        return self.path, 0, os.path.relpath(self.path)


def pytest_addoption(parser):  # make check: the checks of tests/ that need no build
    parser.addoption(
        "--without-site", action="store_true", help="leave out the checks of the built site"
    )


def pytest_collect_file(file_path, parent):
    if SYBIL.should_parse(file_path):
        return Snippet.from_parent(parent, path=file_path)
    return None


def pytest_itemcollected(item):
    """*.cuda.pycon examples are marked `cuda`, *.nocuda.pycon ones `nocuda`; each is
    skipped (collected and visible) where it does not apply."""
    if kind(item.path):
        item.add_marker(getattr(pytest.mark, kind(item.path)))
        if not for_this_machine(item.path):
            item.add_marker(pytest.mark.skip(reason=SKIPPED[kind(item.path)]))
