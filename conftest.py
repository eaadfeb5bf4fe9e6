"""Sybil wiring: every snippet runs as a doctest session.

Two runners, one job each: Sybil runs the snippet files (snippets/**/*.pycon), which hold
every example on the site; pytest-markdown-docs (`--markdown-docs` in pyproject.toml) runs
the python blocks of README.md and the CONTRIBUTING guides as scripts. Pages hold no
example code of their own (only includes of snippets: tests/test_structure.py), so
neither runner needs them. This file sits at the repository root because pytest applies
a conftest's collection hooks only to files below its own folder.
"""

from doctest import REPORT_UDIFF

import pytest
from sybil import Sybil
from sybil.parsers.rest import DocTestParser

from tools.examples import FLAGS, kind, not_for_this_machine

snippets = Sybil(
    parsers=[DocTestParser(optionflags=FLAGS | REPORT_UDIFF)],
    patterns=["*.pycon"],
    path="snippets",
    name="snippets",
)
pytest_collect_file = snippets.pytest()

SKIPPED = {
    "cuda": "needs a CUDA GPU; gpu.yml runs these with -m cuda",
    "nocuda": "shows what a machine without a GPU prints; this one has a GPU",
}


def pytest_itemcollected(item):
    """*.cuda.pycon examples are marked `cuda`, *.nocuda.pycon ones `nocuda`; each is
    skipped (collected and visible) where it does not apply (tools.examples says where).
    """
    if kind(item.path):
        item.add_marker(getattr(pytest.mark, kind(item.path)))
        if not_for_this_machine(item.path):
            item.add_marker(pytest.mark.skip(reason=SKIPPED[kind(item.path)]))
