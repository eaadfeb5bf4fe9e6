"""Every teaching page as a notebook: made from the page's snippets at build time, in the
page's language, linked from the page, and printing the page's outputs when run.

The notebooks are generated here from docs/ by the build hook's own function
(hooks/page_notebooks.py), and the built site must hold exactly those. The code cells are
the same in both languages (checked below), so each page's English notebook is run, top to
bottom, in a namespace of its own, as a Jupyter kernel runs a cell: its code executed, the
value of its last line shown with repr() (the notebook's first cell turns IPython's pretty
printer off for that). They run in this process, like the snippets, not in a kernel: a
kernel's round trip per cell cost 25 s of `make test` for the same outputs. A real kernel
runs a page notebook in tests/browser/exercise.py (downloaded from the page) and the lab
notebooks in tests/test_notebooks.py. Each cell's outputs are compared with the expected
outputs of its examples in the snippet file, with the checker and flags of
tools/examples.py (those of the doctests). Cells of a `*.cuda.pycon` snippet are left
unexecuted where there is no GPU (the notebook says they need one); `*.nocuda.pycon` cells
where there is one.
"""

import json
import re
from doctest import DocTestParser

import pytest

from hooks.page_notebooks import (
    REFERENCE_PAGES,
    TEXT,
    is_teaching,
    notebook,
    notebook_name,
    page_of,
)
from tests.sitetools import DOCS, LANGUAGES, SNIPPETS, markdown_pages, site_page
from tools.examples import CHECKER, FLAGS

EN = LANGUAGES[0]
PAGES = [p for p in markdown_pages(EN) if is_teaching(p)]
EACH = [(page, lang) for page in PAGES for lang in LANGUAGES]


def generated(page, lang):
    return notebook((DOCS / lang / page).read_text(encoding="utf-8"), SNIPPETS, lang)


def code_sources(nb):
    return [
        (c["metadata"].get("snippet"), c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
    ]


def test_reference_pages_exist():
    """The list of pages without notebook (and without exercises) names real pages."""
    missing = [p for p in sorted(REFERENCE_PAGES) if not (DOCS / EN / p).is_file()]
    assert not missing, f"hooks/page_notebooks.py REFERENCE_PAGES names missing pages: {missing}"


def test_teaching_pages_are_found():
    assert "autograd/backward.md" in PAGES and "index.md" not in PAGES, PAGES


@pytest.mark.parametrize("page", PAGES)
def test_notebook_has_the_same_code_in_both_languages(page):
    cells = {lang: code_sources(generated(page, lang)) for lang in LANGUAGES}
    assert cells[EN], f"docs/{EN}/{page}: its notebook has no code cell (no snippet include?)"
    for lang in LANGUAGES[1:]:
        assert cells[lang] == cells[EN], (
            f"docs/{lang}/{page}: its notebook's code differs from docs/{EN}/{page}'s; "
            "the two pages must include the same snippets in the same order"
        )


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_notebook_keeps_the_headings_and_text_of_its_page(page, lang):
    nb = generated(page, lang)
    markdown = [c["source"] for c in nb["cells"] if c["cell_type"] == "markdown"]
    headings = re.findall(
        r"^(#{1,3} .*?)\s*\{\s*#", (DOCS / lang / page).read_text("utf-8"), re.MULTILINE
    )
    missing = [h for h in headings if h not in markdown]
    assert not missing, f"docs/{lang}/{page}: headings missing from its notebook: {missing}"
    first = markdown[1]
    assert first.startswith(TEXT[lang]["from"].split("{")[0]), (
        f"docs/{lang}/{page}: the notebook does not start by saying where it comes from"
    )


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_gpu_cells_are_announced_in_the_notebook(page, lang):
    cells = generated(page, lang)["cells"]
    for index, cell in enumerate(cells):
        tags = cell["metadata"].get("tags", [])
        first = index and "needs-cuda" not in cells[index - 1]["metadata"].get("tags", [])
        if "needs-cuda" in tags and first:
            assert cells[index - 1]["source"] == TEXT[lang]["cuda"], (
                f"docs/{lang}/{page}: cell {index} needs a GPU, and no cell before it says so"
            )


def built_notebook(site, page, lang):
    html_path = site_page(site, lang, page)
    return html_path, html_path.parent / notebook_name(page)


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_built_page_links_its_notebook(site, page, lang):
    html_path, nb_path = built_notebook(site, page, lang)
    html = html_path.read_text(encoding="utf-8")
    link = f'<a href="{notebook_name(page)}" download>{TEXT[lang]["link"]}'
    assert link in html, f"docs/{lang}/{page}: no download link to its notebook on the page"
    assert nb_path.is_file(), f"docs/{lang}/{page}: the build wrote no {nb_path.name}"
    built = json.loads(nb_path.read_text(encoding="utf-8"))
    assert code_sources(built) == code_sources(generated(page, lang)), (
        f"docs/{lang}/{page}: the built {nb_path.name} is not the page's notebook"
    )
    assert nb_path.name not in re.sub(r'href="[^"]*"', "", html.split(link)[0]), (
        f"docs/{lang}/{page}: the notebook must be a separate file, not inlined"
    )


def test_page_of_reads_the_language_and_page():
    class File:
        src_uri, locale = "zh/autograd/backward.md", "zh"

    assert page_of(File()) == ("zh", "autograd/backward.md")


# Running the notebooks ------------------------------------------------------------------


def expected_output(cell):
    """(expected text, exception message or None, flags) of a code cell, from its snippet."""
    ref = cell["metadata"]["snippet"]
    text = (SNIPPETS / ref["file"]).read_text(encoding="utf-8")
    examples = DocTestParser().get_examples(text, ref["file"])
    chosen = [examples[n] for n in ref["examples"]]
    flags = FLAGS
    for example in chosen:
        for flag, on in example.options.items():
            flags = flags | flag if on else flags & ~flag
    return "".join(e.want for e in chosen), chosen[-1].exc_msg, flags


def got_output(cell, expected_exc):
    """(printed text, exception line or None) of an executed cell; stderr is not compared,
    as doctest does not see it."""
    printed, exc = "", None
    for out in cell.outputs:
        if out.output_type == "stream" and out.name == "stdout":
            printed += out.text
        elif out.output_type == "execute_result":
            printed += out.data.get("text/plain", "") + "\n"
        elif out.output_type == "error":
            name = out.ename
            if expected_exc and expected_exc.split(":")[0].endswith("." + name):
                name = expected_exc.split(":")[0]  # torch.OutOfMemoryError: the kernel says
            exc = f"{name}: {out.evalue}\n"  # OutOfMemoryError, doctest the qualified name
    return printed, exc


def differences(nb, name):
    problems = []
    for index, cell in enumerate(nb.cells):
        if "snippet" not in cell.metadata or cell.metadata.get("unexecuted"):
            continue
        want, exc_msg, flags = expected_output(cell)
        printed, exc = got_output(cell, exc_msg)
        where = f"{name}, cell {index} ({cell.metadata['snippet']['file']})"
        if exc_msg is None and exc is not None:
            problems.append(f"{where}: raised {exc.strip()}\n{cell.source}")
        elif exc_msg is not None and (exc is None or not CHECKER.check_output(exc_msg, exc, flags)):
            problems.append(f"{where}: expected {exc_msg.strip()!r}, got {exc or printed!r}")
        elif exc_msg is None and not CHECKER.check_output(want, printed, flags):
            problems.append(f"{where}:\n--- expected\n{want}--- got\n{printed}")
    return problems


def run_cell(source, namespace):
    """A code cell run as a kernel runs it: its outputs (nbformat), the last line's value
    shown with repr() unless it is None."""
    import ast
    import contextlib
    import io
    import traceback

    import nbformat

    out, outputs, value = io.StringIO(), [], None
    try:
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        with contextlib.redirect_stdout(out):
            exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
    except Exception as error:  # noqa: BLE001 (an exception is the cell's output)
        name, _, message = traceback.format_exception_only(error)[-1].partition(": ")
        outputs.append(
            nbformat.v4.new_output("error", ename=name.split(".")[-1], evalue=message.rstrip("\n"))
        )
    if out.getvalue():
        outputs.insert(0, nbformat.v4.new_output("stream", name="stdout", text=out.getvalue()))
    if value is not None:
        outputs.append(nbformat.v4.new_output("execute_result", data={"text/plain": repr(value)}))
    return outputs


@pytest.mark.parametrize("page", PAGES)
def test_notebook_prints_the_outputs_of_its_page(page):
    """Run top to bottom in a namespace of its own, every cell prints what its snippet says:
    a notebook downloaded from the page gives the page's outputs."""
    import nbformat
    import torch

    nb = nbformat.from_dict(generated(page, EN))
    skip = "no-cuda" if torch.cuda.is_available() else "needs-cuda"
    namespace = {"__name__": "__main__"}
    for cell in nb.cells:
        if cell.cell_type != "code" or "snippet" not in cell.metadata:
            continue  # the first cell: IPython's %config, which a kernel alone runs
        if skip in cell.metadata.get("tags", []):
            cell.metadata["unexecuted"] = True
            continue
        cell.outputs = run_cell(cell.source, namespace)
    problems = differences(nb, f"the notebook of docs/{EN}/{page}")
    assert not problems, "\n\n".join(problems)
