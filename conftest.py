"""Sybil wiring: every snippet, and every python/pycon fence written inline in a page, runs.

It sits at the repository root because pytest applies a conftest's collection hooks only
to files below its own folder.
"""

import re
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE, REPORT_UDIFF

import pytest
from sybil import Sybil
from sybil.parsers.abstract.codeblock import PythonDocTestOrCodeBlockParser
from sybil.parsers.markdown import CodeBlockParser
from sybil.parsers.rest import DocTestParser

# Sybil's NUMBER flag is deliberately absent: torch prints `2.` for whole floats, and with
# NUMBER `tensor([2., 2., 3.])` passed against `[2., 2., 2.]`.
FLAGS = ELLIPSIS | NORMALIZE_WHITESPACE | REPORT_UDIFF
INCLUDE = re.compile(r'^\s*--8<--\s+"[^"]+"\s*$')


class InlineFenceParser(CodeBlockParser):
    """python/py/pycon fences, also with attributes (```pycon title="x.pycon").

    A fence that only includes a snippet (`--8<-- "chapter/topic.pycon"`) is skipped here:
    the snippet file itself is collected and run from snippets/.
    """

    def __call__(self, document):
        for region in self.lexers(document):
            words = region.lexemes["arguments"].split()
            if not words or words[0] not in ("python", "py", "pycon"):
                continue
            lines = [line for line in str(region.lexemes["source"]).splitlines() if line.strip()]
            if lines and all(INCLUDE.match(line) for line in lines):
                continue
            region.parsed = region.lexemes["source"]
            region.evaluator = self._evaluator
            yield region


class PageFenceParser(PythonDocTestOrCodeBlockParser):
    codeblock_parser_class = InlineFenceParser


snippets = Sybil(
    parsers=[DocTestParser(optionflags=FLAGS)],
    patterns=["*.pycon"],
    path="snippets",
    name="snippets",
)
pages = Sybil(
    parsers=[PageFenceParser(doctest_optionflags=FLAGS)],
    patterns=["*.md"],
    path="docs",
    name="pages",
)

pytest_collect_file = (snippets + pages).pytest()


def pytest_collection_modifyitems(config, items):
    """*.cuda.pycon: examples that need a GPU, marked `cuda`, skipped (collected and visible)
    where there is none. *.nocuda.pycon: what a machine without a GPU prints (device "cpu",
    no accelerator), marked `nocuda`, skipped where there is one."""
    kinds = {
        item: kind
        for item in items
        for kind in ("cuda", "nocuda")
        if str(item.path).endswith(f".{kind}.pycon")
    }
    if not kinds:
        return
    import torch

    has_cuda = torch.cuda.is_available()
    skips = {
        "cuda": None if has_cuda else "needs a CUDA GPU; gpu.yml runs these with -m cuda",
        "nocuda": "shows what a machine without a GPU prints; this one has a GPU"
        if has_cuda
        else None,
    }
    for item, kind in kinds.items():
        item.add_marker(getattr(pytest.mark, kind))
        if skips[kind]:
            item.add_marker(pytest.mark.skip(reason=skips[kind]))
