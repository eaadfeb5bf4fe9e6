"""The figures (tools/figures): each committed SVG is what the snippets draw now, each is on a
page of its language (both, for a figure without words), with its alt text; each follows the
page's light or dark scheme and stays readable on a 390 px phone, checked in the SVG text
(in Chromium: tests/browser/test_figures_dark.py, and the audit on every page)."""

import re

import pytest

from tools import figures
from tools.figures import draw
from torch_verified.browser import LEGIBLE
from torch_verified.project import DOCS, LANGUAGES, ROOT, language_of_name


def _language(name):
    """The language of NAME.zh.svg or of NAME.svg with a twin in another language, else None
    (one figure for both)."""
    twins = [n for n in figures.FIGURES if n.split(".")[0] == name.split(".")[0]]
    return language_of_name(name) if len(twins) > 1 else None


@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_committed_figure_is_what_its_snippets_draw_now(name):
    path = figures.DIR / name
    assert path.is_file() and path.read_text(encoding="utf-8") == figures.FIGURES[name](), (
        f"{path.relative_to(ROOT)} differs from what the snippets draw now: "
        "run `python -m tools.figures` and commit the SVG"
    )


def test_every_committed_figure_is_drawn_by_the_tool():
    drawn_by_hand = {p.name for p in figures.DIR.glob("*.svg")} - set(figures.FIGURES)
    assert not drawn_by_hand, f"{sorted(drawn_by_hand)}: not in tools/figures FIGURES"


@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_every_figure_is_shown_with_alt_text_in_its_languages(name):
    alt = r"(?:[^\[\]]|\[(?:[^\[\]]|\[[^\[\]]*\])*\])+"  # brackets nest two deep: x[t([0])]
    image = re.compile(r"!\[" + alt + r"\]\(\.\./assets/figures/" + re.escape(name) + r"\)")
    lang = _language(name)
    for language in LANGUAGES:
        shown = [p for p in (DOCS / language).rglob("*.md") if image.search(p.read_text("utf-8"))]
        if lang in (None, language):
            assert shown, f"no docs/{language} page shows assets/figures/{name} (with alt text)"
        else:
            assert not shown, f"docs/{language} pages show the {lang} figure {name}: {shown}"


def test_the_check_names_a_figure_that_differs(tmp_path, monkeypatch, capsys):
    for name in figures.FIGURES:
        (tmp_path / name).write_text(figures.FIGURES[name](), encoding="utf-8")
    hand = "strides.zh.svg"
    (tmp_path / hand).write_text("<svg/>\n", encoding="utf-8")  # drawn by hand
    monkeypatch.setattr(figures, "DIR", tmp_path)
    monkeypatch.setattr(figures, "ROOT", tmp_path.parent)
    assert figures.main(["--check"]) == 1
    assert f"{hand} in" in capsys.readouterr().err


# --- in the SVG text ---------------------------------------------------------------------


def _root(svg):
    """width, height and the default text size (the browser's 16 px if unset) of an SVG."""
    root = _attrs(re.search(r"<svg ([^>]*)>", svg)[1])
    return int(root["width"]), int(root["height"]), int(root.get("font-size", 16))


TEXT = re.compile(r"<text ([^>]*)>(.*?)</text>", re.DOTALL)


def _attrs(s):
    return dict(re.findall(r'([\w-]+)="([^"]*)"', s))


@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_figure_follows_the_page_scheme(name):
    """Colours by class from tools/figures/draw.py's palette, with their dark values, and no
    background: an <img> cannot see the page's CSS, but its prefers-color-scheme is the
    page's color-scheme (tools/figures/draw.py)."""
    svg = (figures.DIR / name).read_text(encoding="utf-8")
    width, height, _ = _root(svg)
    assert draw.style() in svg and "@media (prefers-color-scheme:dark)" in draw.style(), (
        f"{name}: not drawn with the palette of tools/figures/draw.py"
    )
    for attrs in map(_attrs, re.findall(r"<rect ([^>]*?)/?>", svg)):
        covers = (
            float(attrs.get("width", 0)) * float(attrs.get("height", 0)) >= 0.5 * width * height
        )
        assert not covers or attrs.get("fill") == "none", (
            f"{name}: a rect {attrs} paints a background; the page must show through"
        )
    for attrs, content in TEXT.findall(svg):
        assert "class" in _attrs(attrs) and "fill" not in _attrs(attrs), (
            f"{name}: text {content!r} has no colour of the palette (a class)"
        )


@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_figure_text_is_legible_on_a_phone_and_inside_the_picture(name):
    svg = (figures.DIR / name).read_text(encoding="utf-8")
    width, height, default = _root(svg)
    shown = min(1, draw.PHONE_CONTENT / width)  # never wider than the page, never scaled up
    for raw, content in TEXT.findall(svg):
        attrs = _attrs(raw)
        size = int(attrs.get("font-size", default))
        words = re.sub(r"<[^>]+>", "", content).replace("&lt;", "<").replace("&gt;", ">")
        assert size * shown >= LEGIBLE, (
            f"{name}: {words!r} is {size * shown:.1f} px on a 390 px phone (< {LEGIBLE})"
        )
        x, y = float(attrs["x"]), float(attrs["y"])
        half = draw.text_width(words, size) / 2
        left, right = {
            "start": (x, x + 2 * half),
            "middle": (x - half, x + half),
            "end": (x - 2 * half, x),
        }[attrs["text-anchor"]]
        assert 0 <= left and right <= width and size * 0.7 <= y <= height, (
            f"{name}: {words!r} ({left:.0f}..{right:.0f} px, baseline {y:.0f}) leaves the "
            f"{width} × {height} picture"
        )
