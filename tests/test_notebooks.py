"""The notebooks: one program for both languages (comments and labels translated), stored
outputs that a fresh run of each copy reproduces, the same numbers in every language, plots
that draw every character, and built pages that show them, in their language, with alt
text and the notebook to download."""

import ast
import html
import re
from urllib.parse import urljoin, urlparse

import nbformat
import pytest

from hooks.notebooks import plot_alts
from tests.sitetools import LANGUAGES, headings, site_page
from tools.run_notebooks import (
    code_cells,
    comparable,
    differences,
    execute,
    missing_glyphs,
    notebooks,
    read,
)

NOTEBOOKS = notebooks()
EACH = [(rel, lang) for rel in NOTEBOOKS for lang in LANGUAGES]
EN = LANGUAGES[0]
REWRITE = "if the change is intended, store the new outputs: python -m tools.run_notebooks --write"


@pytest.fixture(scope="module")
def fresh_runs():
    """Each copy of each notebook run once: the languages print and plot their own labels."""
    return {
        (rel, lang): execute(path)
        for rel, paths in NOTEBOOKS.items()
        for lang, path in paths.items()
    }


class _Program(ast.NodeTransformer):
    """The code without what a translation changes: comments (dropped by the parser) and
    the text of strings; an f-string keeps its replacement fields and their formats."""

    def visit_JoinedStr(self, node):
        node.values = [v for v in node.values if isinstance(v, ast.FormattedValue)]
        for value in node.values:
            value.value = self.visit(value.value)  # the format spec (`.4f`) stays as written
        return node

    def visit_Constant(self, node):
        return ast.Constant("…") if isinstance(node.value, str) else node


def program(source):
    return ast.dump(_Program().visit(ast.parse(source)))


def numbers(outputs):
    """The numbers a cell printed, in order (`1-250` is 1 and 250; `-10.19` is negative)."""
    text = "\n".join(comparable(outputs))
    return re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?", text)


def test_a_translated_label_is_the_same_program_and_a_changed_value_is_not():
    en = 'print(f"epoch {epoch:3d}  loss {loss.item():.4f}")  # 1. forward pass'
    zh = 'print(f"第 {epoch:3d} 轮  损失 {loss.item():.4f}")  # 1. 前向传播'
    assert program(en) == program(zh)
    assert program(en) != program(zh.replace(":.4f", ":.2f"))
    assert program(en) != program(zh.replace("loss.item()", "loss"))


def test_the_lab_notebook_is_found():
    assert "lab/linear-regression.ipynb" in NOTEBOOKS, sorted(NOTEBOOKS)


@pytest.mark.parametrize("rel", NOTEBOOKS)
def test_code_cells_are_the_same_program_in_every_language(rel):
    cells = {lang: code_cells(read(path)) for lang, path in NOTEBOOKS[rel].items()}
    for lang in LANGUAGES[1:]:
        mine, theirs = cells[EN], cells[lang]
        assert len(theirs) == len(mine), (
            f"docs/{lang}/{rel} has {len(theirs)} code cells, docs/{EN}/{rel} {len(mine)}"
        )
        for (i, a), (j, b) in zip(mine, theirs, strict=True):
            assert program(a.source) == program(b.source), (
                f"cell {j} of docs/{lang}/{rel} differs from cell {i} of docs/{EN}/{rel}: "
                f"the languages run the same code; only comments and the text of strings "
                f"are translated\n--- {EN}:\n{a.source}\n--- {lang}:\n{b.source}"
            )


@pytest.mark.parametrize(("rel", "lang"), [e for e in EACH if e[1] != EN])
def test_every_language_prints_the_same_numbers(fresh_runs, rel, lang):
    runs = {code: code_cells(fresh_runs[rel, code]) for code in (EN, lang)}
    for (i, a), (_, b) in zip(runs[EN], runs[lang], strict=True):
        assert numbers(a.outputs) == numbers(b.outputs), (
            f"cell {i} of docs/{lang}/{rel} prints other numbers than docs/{EN}/{rel}:\n"
            f"{comparable(a.outputs)}\n{comparable(b.outputs)}"
        )


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_plots_draw_every_character(fresh_runs, rel, lang):
    problems = missing_glyphs(fresh_runs[rel, lang], f"docs/{lang}/{rel}")
    assert not problems, "\n\n".join(problems)


def test_a_missing_glyph_is_an_error():
    warning = (
        "/x/pylabtools.py:158: UserWarning: Glyph 25968 (\\N{CJK UNIFIED IDEOGRAPH-6570}) "
        "missing from font(s) DejaVu Sans.\n"
    )
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("plt.show()")
    cell.outputs = [nbformat.v4.new_output("stream", name="stderr", text=warning)]
    nb.cells = [cell]
    (problem,) = missing_glyphs(nb, "docs/zh/lab/x.ipynb")
    assert "docs/zh/lab/x.ipynb, cell 0" in problem and "fonts-noto-cjk" in problem


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_stored_outputs_match_a_fresh_run(fresh_runs, rel, lang):
    name = f"docs/{lang}/{rel}"
    problems = differences(read(NOTEBOOKS[rel][lang]), fresh_runs[rel, lang], name)
    assert not problems, "\n\n".join(problems) + "\n\n" + REWRITE


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_is_stored_as_run_top_to_bottom(rel, lang):
    nb = read(NOTEBOOKS[rel][lang])
    counts = [cell.execution_count for _, cell in code_cells(nb)]
    assert counts == list(range(1, len(counts) + 1)), (
        f"docs/{lang}/{rel}: execution counts {counts}: store the outputs of one run; {REWRITE}"
    )
    assert nb.metadata.kernelspec.name == "python3", f"docs/{lang}/{rel}: kernel is not python3"
    description = nb.metadata.get("description", "")
    assert 0 < len(description) < 160, (
        f'docs/{lang}/{rel}: metadata "description" must be one sentence < 160 characters, in '
        f"the notebook's language (it becomes the page's <meta name=description>)"
    )


def built(site, rel, lang):
    path = site_page(site, lang, rel)
    assert path.is_file(), f"docs/{lang}/{rel} was not built to {path.relative_to(site)}"
    return path, path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_page_shows_its_cells_and_outputs(site, rel, lang):
    nb = read(NOTEBOOKS[rel][lang])
    _, html = built(site, rel, lang)
    name = f"docs/{lang}/{rel}"
    assert '"cell_type"' not in html and "jp-Notebook" in html, (
        f"{name}: the built page is not the rendered notebook (raw JSON? see hooks/notebooks.py)"
    )
    at = [html.find(f'id="cell-id={cell.id}"') for cell in nb.cells]
    missing = [cell.id for cell, pos in zip(nb.cells, at, strict=True) if pos < 0]
    assert not missing and at == sorted(at), f"{name}: cells missing or out of order: {missing}"
    images = sum("image/png" in o.get("data", {}) for _, c in code_cells(nb) for o in c.outputs)
    # hooks/notebook_assets.py writes each plot as a PNG file next to the page
    page_dir = site_page(site, lang, rel).parent
    srcs = re.findall(r'<img\b[^>]*src="([^"]+\.png)"', html)
    shown = [src for src in srcs if (page_dir / src).is_file()]
    assert len(shown) == images, f"{name}: {images} stored plots, {len(shown)} shown on the page"
    description = nb.metadata["description"]
    assert f'<meta name="description" content="{description}">' in html, (
        f"{name}: the page's description is not the notebook's metadata description"
    )
    assert "cdnjs" not in html, f"{name}: the page still refers to cdnjs (MathJax/Mermaid)"


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_headings_keep_their_anchors_on_the_page(site, rel, lang):
    _, html = built(site, rel, lang)
    for _, title, anchor in headings(NOTEBOOKS[rel][lang]):
        assert re.search(rf'<h[1-6] id="{anchor}">', html), (
            f"docs/{lang}/{rel}: no heading with id={anchor!r} on the page ({title})"
        )
        assert f'href="#{anchor}"' in html, f"docs/{lang}/{rel}: no link to #{anchor} (contents)"


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_page_offers_the_notebook_for_download(site, rel, lang):
    page, html = built(site, rel, lang)
    links = re.findall(r'<a href="([^"]+\.ipynb)" download\b', html)
    assert links, f"docs/{lang}/{rel}: no download link to the .ipynb on the page"
    base = "http://site/" + page.relative_to(site).as_posix()
    target = site / urlparse(urljoin(base, links[0])).path.lstrip("/")
    assert target.is_file(), f"docs/{lang}/{rel}: the download link leads to a missing file"
    assert target.read_bytes() == NOTEBOOKS[rel][lang].read_bytes(), (
        f"docs/{lang}/{rel}: the downloadable {target.relative_to(site)} is not this notebook"
    )


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_page_stays_under_one_megabyte(site, rel, lang):
    page, _ = built(site, rel, lang)
    size = page.stat().st_size
    assert size < 1_000_000, (
        f"docs/{lang}/{rel}: the built page is {size:,} bytes; make the plots smaller "
        "(figsize, dpi)"
    )


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_every_plot_is_described_in_the_page_language(site, rel, lang):
    nb = read(NOTEBOOKS[rel][lang])
    alts = [alt for _, alt in plot_alts(nb)]
    name = f"docs/{lang}/{rel}"
    assert alts and all(alts), (
        f'{name}: give each plot a description: "alt": "..." in its code cell\'s metadata'
    )
    if lang == "zh":
        assert all(re.search(r"[\u4e00-\u9fff]", alt) for alt in alts), f"{name}: {alts}"
    _, page = built(site, rel, lang)
    shown = [html.unescape(a) for a in re.findall(r'<img\b[^>]*\balt="([^"]*)"', page)]
    assert shown == alts, f"{name}: the page's images are described as {shown}, not {alts}"
