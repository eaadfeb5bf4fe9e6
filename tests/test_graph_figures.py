"""The graph pictures on the site are what tools/graph_svg.py draws from PyTorch now."""

import doctest
import inspect
import re
from pathlib import Path

import pytest

from tools import graph_svg

ROOT = Path(__file__).resolve().parent.parent
WALKER_SNIPPET = ROOT / "snippets" / "autograd" / "graph_walker.pycon"
REGENERATE = "run `python -m tools.graph_svg` and commit the changed SVG"


@pytest.mark.parametrize("name", sorted(graph_svg.FIGURES))
def test_committed_figure_matches_pytorch_now(name):
    path = graph_svg.FIGURES_DIR / f"{name}.svg"
    assert path.exists(), f"{path} is missing: {REGENERATE}"
    assert path.read_text(encoding="utf-8") == graph_svg.render(name), (
        f"{path.relative_to(ROOT)} differs from the graph PyTorch builds now: {REGENERATE}"
    )


@pytest.mark.parametrize("function", [graph_svg.walk, graph_svg.label])
def test_page_walker_is_the_figure_walker(function):
    examples = doctest.DocTestParser().get_examples(WALKER_SNIPPET.read_text(encoding="utf-8"))
    shown = [e.source for e in examples if e.source.startswith(f"def {function.__name__}(")]
    assert shown == [inspect.getsource(function)], (
        f"{WALKER_SNIPPET.relative_to(ROOT)}: `def {function.__name__}` must be, line for line, "
        f"the one in tools/graph_svg.py (the code that draws the figures); copy it over"
    )


@pytest.mark.parametrize("name", sorted(graph_svg.FIGURES))
def test_every_figure_is_shown_in_both_languages(name):
    image = re.compile(r"!\[[^\]]+\]\(\.\./assets/figures/" + re.escape(name) + r"\.svg\)")
    for lang in ("en", "zh"):
        pages = [p for p in (ROOT / "docs" / lang).rglob("*.md") if image.search(p.read_text())]
        assert pages, f"no docs/{lang} page shows figures/{name}.svg (with alt text)"
