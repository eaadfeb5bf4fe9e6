"""Every teaching page as a notebook: made from the page's snippets at build time, in the
page's language, linked from the page, and printing the page's outputs when run.

The notebooks are generated here from docs/ by the build's own function
(torch_verified/notebooks.py), and the built site must hold exactly those. The code cells are
the same in both languages (checked below), so each page's English notebook is run, top to
bottom, with IPython's own shell, as a Jupyter kernel runs its cells, in this process (a
kernel's round trip per cell cost 25 s of `make test` for the same outputs; a real kernel
runs the lab notebooks, tests/test_notebooks.py). Each cell's outputs are compared with the
expected outputs of its examples in the snippet file, with the doctests' checker and flags.
Cells of a `*.cuda.pycon` snippet run too: where there is no GPU, `%%needs_cuda` must skip
each with its note and nothing else (Run All goes on to the end); `*.nocuda.pycon` cells are
left unexecuted where there is a GPU.
"""

import json
import re
from urllib.parse import urlsplit

import pytest

from torch_verified.citations import with_links
from torch_verified.notebooks import (
    COLAB_BRANCH,
    CUDA_MAGIC,
    REFERENCE_PAGES,
    cells_vs_snippets,
    code_of,
    colab_url,
    is_teaching,
    notebook,
    notebook_name,
    page_notebook,
    run,
)
from torch_verified.project import (
    DEFAULT_LANGUAGE,
    DOCS,
    LANGUAGES,
    built_file,
    config,
    markdown_pages,
    url,
)
from torch_verified.strings import STRINGS

EN = DEFAULT_LANGUAGE
SKIPPED = STRINGS[EN]["notebook_skipped"] + "\n"
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
    anchor = re.compile(r' <a id="[\w-]+"></a>$')
    markdown = [anchor.sub("", c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    headings = re.findall(
        r"^(#{1,3} .*?)\s*\{\s*#", (DOCS / lang / page).read_text("utf-8"), re.MULTILINE
    )
    missing = [h for h in headings if h not in markdown]
    assert not missing, f"docs/{lang}/{page}: headings missing from its notebook: {missing}"
    assert markdown[1].startswith(STRINGS[lang]["notebook_from_local"].split("{")[0]), (
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

    gpu = torch.cuda.is_available()
    nb = run(page_notebook(EN, page), skip=["no-cuda"] if gpu else [])
    skipped = [{"output_type": "stream", "name": "stdout", "text": SKIPPED}]
    for index, cell in enumerate(nb["cells"]):
        if not gpu and "needs-cuda" in cell["metadata"].get("tags", []):
            assert cell["source"].startswith(CUDA_MAGIC + "\n") and cell["outputs"] == skipped, (
                f"the notebook of docs/{EN}/{page}, cell {index}: needs a GPU, and without one "
                f"printed {cell['outputs']} instead of being skipped with its note"
            )
            cell["metadata"]["unexecuted"] = True
    problems = cells_vs_snippets(nb, f"the notebook of docs/{EN}/{page}")
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_exercises_leave_room_and_the_answers_come_last(page, lang):
    """After each exercise, a link to its answer and an empty code cell to try in; every
    answer (its snippet exercise_*.pycon) after the last exercise, under a heading that the
    exercise's link leads to, with a link back; a hint stays collapsed where it is, and so does
    the answer of a practice exercise inside a lesson's going-deeper box."""
    cells, words = page_notebook(lang, page)["cells"], STRINGS[lang]
    ids = [re.search(r'<a id="([\w-]+)"></a>$', c["source"]) for c in cells]
    ids = {m[1]: n for n, m in enumerate(ids) if m and cells[n]["cell_type"] == "markdown"}
    name = f"the notebook of docs/{lang}/{page}"
    assert "answers" in ids, f"{name}: no section of answers"
    exercises = [a for a in ids if a.startswith("exercise-") or a == "challenge"]
    first = min((ids[a] for a in exercises), default=0)
    answers = [  # of the exercises (a practice box in a lesson keeps its answer, collapsed)
        n
        for n, c in enumerate(cells)
        if n > first
        and re.search(
            r"/exercise_(?!.*_question)", c["metadata"].get("snippet", {}).get("file", "")
        )
    ]
    assert answers and min(answers) > ids["answers"], f"{name}: an answer before the exercises end"
    assert exercises[-1] == "challenge" and len(exercises) >= 3, f"{name}: exercises {exercises}"
    for anchor in exercises:
        link = words["notebook_try"].format(anchor=f"answer-{anchor}")
        at = next((n for n in range(ids[anchor], ids["answers"]) if cells[n]["source"] == link), 0)
        assert at and cells[at + 1]["cell_type"] == "code" and not cells[at + 1]["source"], (
            f"{name}: {anchor} is not followed by a link to its answer and an empty code cell"
        )
        answer = ids.get(f"answer-{anchor}", 0)
        assert answer > ids["answers"], f"{name}: the link of {anchor} leads nowhere"
        back = words["notebook_back"].format(anchor=anchor)
        assert back in [c["source"] for c in cells[answer:]], f"{name}: no link back to {anchor}"
        hidden = [c for c in cells[answer:] if c["metadata"].get("jupyter")]
        assert not hidden, f"{name}: a hidden cell among the answers"
    hint = f"**{words['hint']}**"
    for n in (n for n, c in enumerate(cells) if c["source"] == hint):
        assert cells[n + 1]["metadata"].get("jupyter", {}).get("source_hidden"), (
            f"{name}: cell {n + 1}, the hint, is shown"
        )


def test_a_notebook_links_the_site_only_at_its_real_address(site):
    """Built without SITE_URL (a local build), no notebook names an address, let alone the
    placeholder of mkdocs.yml; with one, its page and its links lead to the published site."""
    placeholder = urlsplit(config()["site_url"]).netloc
    found = [
        p.relative_to(site).as_posix()
        for p in site.rglob("*.ipynb")
        if placeholder in p.read_text(encoding="utf-8")
    ]
    assert not found, f"notebooks that name the placeholder {placeholder}: {found}"
    page, base = "operations/broadcasting.md", "https://o.github.io/torch-verified/"
    for lang in LANGUAGES:
        nb = notebook(
            with_links((DOCS / lang / page).read_text("utf-8")), lang, page=page, site=base
        )
        text = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "markdown")
        assert f"]({url(base, lang, page)})" in text, f"docs/{lang}/{page}: no link to its page"
        shapes = url(base, lang, "operations/shapes.md") + "#strides"
        assert f"]({shapes})" in text, f"docs/{lang}/{page}: its links do not lead to the site"
        assert not re.search(r"\]\((?!https?://|#)", text), f"docs/{lang}/{page}: a relative link"


def test_a_page_offers_colab_from_the_notebooks_branch_only_for_a_github_repository():
    """A plain link (nothing loads from Google before a click) to the notebook that ci.yml
    pushes to the branch COLAB_BRANCH, at the page's path on the site."""
    from types import SimpleNamespace

    import yaml

    from hooks import page_notebooks
    from torch_verified.project import ROOT

    page = SimpleNamespace(file=SimpleNamespace(src_uri="zh/tensors/numpy.md", locale="zh"))
    colab = (
        f"https://colab.research.google.com/github/o/r/blob/{COLAB_BRANCH}/zh/tensors/numpy/"
        "numpy.ipynb"
    )
    for repository, expected in (("https://github.com/o/r", colab), ("", None)):
        assert colab_url(repository, "zh", "tensors/numpy.md") == expected
        page_notebooks._notebooks[page.file.src_uri] = {}
        config = SimpleNamespace(extra={"repository": repository}, theme={"language": "zh"})
        html = page_notebooks.on_page_content("<h1>T</h1><p>x</p>", page, config, None)
        page_notebooks._notebooks.pop(page.file.src_uri)
        link = f'<a href="{colab}">{STRINGS["zh"]["colab_link"]}</a>'
        assert (link in html) == bool(expected), html
    assert colab_url("https://gitlab.com/o/r", "en", "tensors/numpy.md") is None

    jobs = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text("utf-8"))["jobs"]
    uploaded = {
        step["with"]["name"]: step["with"]["path"]
        for job in jobs.values()
        for step in job["steps"]
        if "upload-artifact" in step.get("uses", "")
    }
    pushers = [
        job
        for job in jobs.values()
        if any(
            "git push" in s.get("run", "") and s["run"].rstrip().endswith(f" {COLAB_BRANCH}")
            for s in job["steps"]
        )
    ]
    assert len(pushers) == 1, f"ci.yml: one job pushes the branch {COLAB_BRANCH!r}"
    (job,) = pushers
    assert job["needs"] == "test" and job["permissions"] == {"contents": "write"}
    (download,) = [s for s in job["steps"] if "download-artifact" in s.get("uses", "")]
    assert uploaded[download["with"]["name"]] == "site/**/*.ipynb", uploaded
