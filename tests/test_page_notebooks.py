"""Every teaching page as a notebook: made from the page's snippets at build time, in the
page's language, linked from the page, and printing the page's outputs when run.

The notebooks are generated here from docs/ by the build's own function
(torch_verified/notebooks.py), and the built site must hold exactly those. The code cells are
the same in both languages (checked below), so each page's English notebook is run, top to
bottom, with IPython's own shell, as a Jupyter kernel runs its cells, in this process (a
kernel's round trip per cell cost 25 s of `make test` for the same outputs; a real kernel
runs the lab notebooks, tests/test_notebooks.py). Each cell's outputs are compared with the
expected outputs of its examples in the snippet file, with the doctests' checker and flags.
Cells of a `*.cuda.pycon` snippet are left unexecuted where there is no GPU (the notebook
says they need one); `*.nocuda.pycon` cells where there is one.
"""

import json
import re

import pytest

from torch_verified.notebooks import (
    REFERENCE_PAGES,
    cells_vs_snippets,
    code_of,
    is_teaching,
    notebook_name,
    page_notebook,
    run,
)
from torch_verified.project import DEFAULT_LANGUAGE, DOCS, LANGUAGES, built_file, markdown_pages
from torch_verified.strings import STRINGS

EN = DEFAULT_LANGUAGE
PAGES = [p for p in markdown_pages(EN) if is_teaching(p)]
EACH = [(page, lang) for page in PAGES for lang in LANGUAGES]


def test_reference_pages_exist():
    """The list of pages without notebook (and without exercises) names real pages."""
    missing = [p for p in sorted(REFERENCE_PAGES) if not (DOCS / EN / p).is_file()]
    assert not missing, (
        f"torch_verified/notebooks.py REFERENCE_PAGES names missing pages: {missing}"
    )


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_notebook_keeps_the_headings_and_text_of_its_page(page, lang):
    nb = page_notebook(lang, page)
    markdown = [c["source"] for c in nb["cells"] if c["cell_type"] == "markdown"]
    headings = re.findall(
        r"^(#{1,3} .*?)\s*\{\s*#", (DOCS / lang / page).read_text("utf-8"), re.MULTILINE
    )
    missing = [h for h in headings if h not in markdown]
    assert not missing, f"docs/{lang}/{page}: headings missing from its notebook: {missing}"
    assert markdown[1].startswith(STRINGS[lang]["notebook_from"].split("{")[0]), (
        f"docs/{lang}/{page}: the notebook does not start by saying where it comes from"
    )
    cells = nb["cells"]
    for index, cell in enumerate(cells):
        first = "needs-cuda" not in cells[index - 1]["metadata"].get("tags", [])
        if "needs-cuda" in cell["metadata"].get("tags", []) and first:
            assert cells[index - 1]["source"] == STRINGS[lang]["notebook_cuda"], (
                f"docs/{lang}/{page}: cell {index} needs a GPU, and no cell before it says so"
            )


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_built_page_links_its_notebook(site, built, page, lang):
    html = built(lang, page)
    nb_path = built_file(site, lang, page).parent / notebook_name(page)
    link = f'<a href="{notebook_name(page)}" download>{STRINGS[lang]["notebook_link"]}'
    assert link in html, f"docs/{lang}/{page}: no download link to its notebook on the page"
    assert nb_path.is_file(), f"docs/{lang}/{page}: the build wrote no {nb_path.name}"
    assert code_of(json.loads(nb_path.read_text(encoding="utf-8"))) == code_of(
        page_notebook(lang, page)
    ), f"docs/{lang}/{page}: the built {nb_path.name} is not the page's notebook"
    assert nb_path.name not in re.sub(r'href="[^"]*"', "", html.split(link)[0]), (
        f"docs/{lang}/{page}: the notebook must be a separate file, not inlined"
    )


@pytest.mark.parametrize("page", PAGES)
def test_notebook_prints_the_outputs_of_its_page(page):
    """Run top to bottom in a namespace of its own, every cell prints what its snippet says:
    a notebook downloaded from the page gives the page's outputs. Both languages' notebooks
    have the same code cells (test_built_page_links_its_notebook, with tests/test_structure.py's
    parity of includes), so the English one runs."""
    import torch

    skip = "no-cuda" if torch.cuda.is_available() else "needs-cuda"
    nb = run(page_notebook(EN, page), skip=[skip])
    problems = cells_vs_snippets(nb, f"the notebook of docs/{EN}/{page}")
    assert not problems, "\n\n".join(problems)
