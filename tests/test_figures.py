"""Figures drawn by code from real tensors: the committed SVG must be what the code draws."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _load(relative):
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_broadcasting_figure_is_redrawn_from_tensors():
    figure = _load("tools/figures/broadcasting.py")
    committed = figure.OUT.read_text(encoding="utf-8")
    assert committed == figure.render(), (
        f"{figure.OUT.relative_to(ROOT)} differs from what torch draws now; "
        "run `python tools/figures/broadcasting.py` and commit the new SVG"
    )
