"""Sybil wiring: every snippet runs, and so do the python blocks of the guides.

It sits at the repository root because pytest applies a conftest's collection hooks only
to files below its own folder. Pages hold no example code of their own (only includes of
snippets: tests/test_structure.py), so they need no runner.
"""

from doctest import REPORT_UDIFF

import pytest
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser
from sybil.parsers.rest import DocTestParser

from tools.examples import FLAGS, kind, not_for_this_machine

snippets = Sybil(
    parsers=[DocTestParser(optionflags=FLAGS | REPORT_UDIFF)],
    patterns=["*.pycon"],
    path="snippets",
    name="snippets",
)
guides = Sybil(
    parsers=[PythonCodeBlockParser(doctest_optionflags=FLAGS)],
    filenames=["README.md", "CONTRIBUTING.md", "CONTRIBUTING.zh.md"],
    name="guides",
)

pytest_collect_file = (snippets + guides).pytest()

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
