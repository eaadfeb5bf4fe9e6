"""The lab notebooks: one program for both languages (comments and labels translated), stored
outputs that a fresh run of each copy reproduces, the same numbers in every language, plots
that draw every character, and built pages that show them, in their language, with alt
text and the notebook to download, as light as the other pages (hooks/jupyter_pages.py)."""

import ast
import base64
import html
import re
import struct
import zlib
from urllib.parse import urljoin, urlparse

import nbformat
import pytest

from hooks.jupyter_pages import lighten, move_images, plot_alts, prune_css
from torch_verified.markdown import headings, markdown_of
from torch_verified.notebooks import (
    code_cells,
    comparable,
    lab_notebooks,
    missing_glyphs,
    read,
    run,
    stored_vs_fresh,
)
from torch_verified.project import LANGUAGES, built_file
from torch_verified.strings import STRINGS

NOTEBOOKS = lab_notebooks()
EACH = [(rel, lang) for rel in NOTEBOOKS for lang in LANGUAGES]
EN = LANGUAGES[0]
REWRITE = "if the change is intended, store the new outputs: python -m tools.run_notebooks --write"


@pytest.fixture(scope="module")
def fresh_runs():
    """Each copy of each notebook run once, as its kernel runs it (torch_verified.notebooks.run):
    the languages print and plot their own labels."""
    return {
        (rel, lang): run(read(path), folder=path.parent)
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
    problems = stored_vs_fresh(read(NOTEBOOKS[rel][lang]), fresh_runs[rel, lang], name)
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


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_page_shows_its_cells_and_outputs(site, built, rel, lang):
    nb = read(NOTEBOOKS[rel][lang])
    html = built(lang, rel)
    name = f"docs/{lang}/{rel}"
    assert '"cell_type"' not in html and "jp-Notebook" in html, (
        f"{name}: the built page is not the rendered notebook (raw JSON? see hooks/jupyter_pages.py)"
    )
    at = [html.find(f'id="cell-id={cell.id}"') for cell in nb.cells]
    missing = [cell.id for cell, pos in zip(nb.cells, at, strict=True) if pos < 0]
    assert not missing and at == sorted(at), f"{name}: cells missing or out of order: {missing}"
    images = sum("image/png" in o.get("data", {}) for _, c in code_cells(nb) for o in c.outputs)
    # hooks/jupyter_pages.py writes each plot as a PNG file next to the page
    page_dir = built_file(site, lang, rel).parent
    srcs = re.findall(r'<img\b[^>]*src="([^"]+\.png)"', html)
    shown = [src for src in srcs if (page_dir / src).is_file()]
    assert len(shown) == images, f"{name}: {images} stored plots, {len(shown)} shown on the page"
    description = nb.metadata["description"]
    assert f'<meta name="description" content="{description}">' in html, (
        f"{name}: the page's description is not the notebook's metadata description"
    )


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_headings_keep_their_anchors_on_the_page(built, rel, lang):
    html = built(lang, rel)
    for _, title, anchor in headings(markdown_of(NOTEBOOKS[rel][lang])):
        assert re.search(rf'<h[1-6] id="{anchor}">', html), (
            f"docs/{lang}/{rel}: no heading with id={anchor!r} on the page ({title})"
        )
        assert f'href="#{anchor}"' in html, f"docs/{lang}/{rel}: no link to #{anchor} (contents)"


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_page_offers_the_notebook_for_download(site, built, rel, lang):
    page, html = built_file(site, lang, rel), built(lang, rel)
    text = re.escape(STRINGS[lang]["notebook_link"])  # a line of text, as on every page
    links = re.findall(
        rf'</h1>\s*<p class="page-notebook"><a href="([^"]+\.ipynb)" download>{text}', html
    )
    assert links, f"docs/{lang}/{rel}: no download link (text, under the title) to the .ipynb"
    base = "http://site/" + page.relative_to(site).as_posix()
    target = site / urlparse(urljoin(base, links[0])).path.lstrip("/")
    assert target.is_file(), f"docs/{lang}/{rel}: the download link leads to a missing file"
    assert target.read_bytes() == NOTEBOOKS[rel][lang].read_bytes(), (
        f"docs/{lang}/{rel}: the downloadable {target.relative_to(site)} is not this notebook"
    )


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_notebook_page_is_light(site, built, rel, lang):
    """No inline image, little CSS, under a megabyte: a notebook page weighed 780 kB before."""
    html, size = built(lang, rel), built_file(site, lang, rel).stat().st_size
    assert not re.search(r'<img\b[^>]*src="data:', html), f"docs/{lang}/{rel}: inline images"
    css = sum(len(m) for m in re.findall(r"<style[^>]*>(.*?)</style>", html, re.DOTALL))
    assert css < 100_000, f"docs/{lang}/{rel}: {css:,} characters of inline CSS"
    assert size < 1_000_000, (
        f"docs/{lang}/{rel}: the built page is {size:,} bytes; make the plots smaller"
    )


@pytest.mark.parametrize(("rel", "lang"), EACH)
def test_every_plot_is_described_in_the_page_language(built, rel, lang):
    nb = read(NOTEBOOKS[rel][lang])
    alts = [alt for _, alt in plot_alts(nb)]
    name = f"docs/{lang}/{rel}"
    assert alts and all(alts), (
        f'{name}: give each plot a description: "alt": "..." in its code cell\'s metadata'
    )
    if lang == "zh":
        assert all(re.search(r"[\u4e00-\u9fff]", alt) for alt in alts), f"{name}: {alts}"
    shown = [html.unescape(a) for a in re.findall(r'<img\b[^>]*\balt="([^"]*)"', built(lang, rel))]
    assert shown == alts, f"{name}: the page's images are described as {shown}, not {alts}"


# -- lighter pages: hooks/jupyter_pages.py --------------------------------------------------


def tiny_png(width, height):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x00" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def test_prune_keeps_what_can_match_and_drops_the_rest():
    css = (
        '@charset "UTF-8";.w .used{color:red}.w .gone{color:blue}.w .used,.w .gone .x{margin:0}'
        ".w :root{--a:1}.w pre{padding:0}.w .used:not(.gone){top:0}.w :is(.gone,.used){left:0}"
        '.w .used::after{content:"{.gone}"}@media (min-width:10em){.w .gone{x:1}}'
        "@media print{.w .used{x:2}}@font-face{font-family:F;src:local(F)}"
        "@keyframes spin{from{opacity:0}to{opacity:1}}"
    )
    assert prune_css(css, frozenset({"w", "used"})) == (
        '@charset "UTF-8";.w .used{color:red}.w .used{margin:0}.w pre{padding:0}'
        '.w .used:not(.gone){top:0}.w :is(.gone,.used){left:0}.w .used::after{content:"{.gone}"}'
        "@media print{.w .used{x:2}}@font-face{font-family:F;src:local(F)}"
        "@keyframes spin{from{opacity:0}to{opacity:1}}"
    )


def test_data_images_become_files_with_their_size(tmp_path):
    png = tiny_png(3, 2)
    html = f'<p><img alt="plot" src="data:image/png;base64,{base64.b64encode(png).decode()}"/><img src="x.svg"/></p>'
    out = move_images(html, tmp_path)
    (file,) = tmp_path.iterdir()
    assert (
        file.read_bytes() == png
        and f'<img alt="plot" src="{file.name}" width="3" height="2"/>' in out
    )
    assert '<img src="x.svg"/>' in out and "data:" not in out
    other = '<style>.gone{color:red}</style><img src="data:image/png;base64,AAAA">'
    assert lighten(other, tmp_path / "other") == other, "a page that is no notebook is left alone"


def test_a_notebook_plots_inline_after_this_process_switched_to_agg():
    """bench's plots switch the pytest worker to Agg; a notebook run after them in the same
    worker must still plot inline, as its kernel would (the lab lost its two plots so)."""
    import matplotlib

    before = matplotlib.get_backend()
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("import matplotlib.pyplot as plt\nplt.plot([1, 2])\n")]
    )
    try:
        run(nbformat.v4.new_notebook())  # the worker's shell exists, as after earlier runs
        matplotlib.use("Agg")
        outputs = run(nb)["cells"][0]["outputs"]
    finally:
        matplotlib.pyplot.switch_backend(before)
    assert [o["output_type"] for o in outputs if "image/png" in o.get("data", {})] == [
        "display_data"
    ], outputs
