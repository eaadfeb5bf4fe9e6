"""The figures (tools/figures): each committed SVG is what the snippets draw now, and each is
on a page of both languages, with its alt text."""

import re

import pytest

from tools import figures
from torch_verified.project import DOCS, LANGUAGES, ROOT


@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_committed_figure_is_what_its_snippets_draw_now(name):
    path = figures.DIR / name
    assert path.is_file() and path.read_text(encoding="utf-8") == figures.FIGURES[name](), (
        f"{path.relative_to(ROOT)} differs from what the snippets draw now: "
        "run `python -m tools.figures` and commit the SVG"
    )


@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_every_figure_is_shown_with_alt_text_in_both_languages(name):
    image = re.compile(r"!\[[^\]]+\]\(\.\./assets/figures/" + re.escape(name) + r"\)")
    for lang in LANGUAGES:
        shown = [p for p in (DOCS / lang).rglob("*.md") if image.search(p.read_text("utf-8"))]
        assert shown, f"no docs/{lang} page shows assets/figures/{name} (with alt text)"


def test_the_check_names_a_figure_that_differs(tmp_path, monkeypatch, capsys):
    for name in figures.FIGURES:
        (tmp_path / name).write_text(figures.FIGURES[name](), encoding="utf-8")
    (tmp_path / "broadcasting.svg").write_text("<svg/>\n", encoding="utf-8")  # drawn by hand
    monkeypatch.setattr(figures, "DIR", tmp_path)
    monkeypatch.setattr(figures, "ROOT", tmp_path.parent)
    assert figures.main(["--check"]) == 1
    assert "broadcasting.svg in" in capsys.readouterr().err
