"""A reader does an exercise and takes a page home as a notebook, in a real browser.

Open an exercise, reveal its answer with the keyboard (Tab to the answer's summary,
Enter), copy the answer's code with the copy button and paste it into a fresh Python:
it prints what the answer shows. Then download the page's notebook with its link: it is the
page's notebook, with its headings and code cells, which tests/test_page_notebooks.py runs
top to bottom in a Jupyter kernel against the page's outputs (running it again here, in a
fresh kernel per language, costs `make test` about 10 s of CPU; set
READER_RUNS_NOTEBOOK=1 to do it as well). One screenshot of the
opened exercise per language lands in artifacts/screenshots/; look at it.
One file per language (test_exercises_en.py, test_exercises_zh.py), as xdist takes files
in parallel.
"""

import doctest
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from hooks.page_notebooks import TEXT, notebook, notebook_name
from tests.browser.reader import ARTIFACTS
from tests.sitetools import DOCS, SNIPPETS
from tests.test_page_notebooks import code_sources, differences

PAGE = "autograd/computation-graph.md"
PASTE = Path(__file__).with_name("paste.py")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
SUMMARY_FOCUSED = "document.activeElement && document.activeElement.tagName === 'SUMMARY'"


def reveal_answer_with_the_keyboard(reader, url):
    page = reader.page
    answer = page.locator("#exercise-1 ~ details").first
    assert answer.get_attribute("open") is None, f"{url}: the answer is open before asked"
    assert not answer.locator("div.language-pycon").is_visible(), f"{url}: answer shown"
    page.locator("#exercise-1 a.headerlink").focus()
    for _ in range(10):  # Tab, as a keyboard reader does, until the answer's summary
        page.keyboard.press("Tab")
        if page.evaluate(SUMMARY_FOCUSED):
            break
    assert page.evaluate(SUMMARY_FOCUSED), f"{url}: Tab never reaches the answer's summary"
    page.keyboard.press("Enter")
    assert answer.get_attribute("open") is not None, f"{url}: Enter did not open the answer"
    code = answer.locator("div.language-pycon")
    code.wait_for(state="visible")
    return answer, code


def copy_answer(reader, code):
    page = reader.page
    page.evaluate("navigator.clipboard.writeText('')")
    code.hover()
    code.locator("button.md-code__button[data-md-type=copy]").click()
    page.wait_for_function("async () => (await navigator.clipboard.readText()) !== ''")
    return code.locator("code").inner_text(), page.evaluate("navigator.clipboard.readText()")


def run_pasted(text, cwd):
    done = subprocess.run(
        [sys.executable, str(PASTE)],
        input=json.dumps([text]),
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)[0]


def download_notebook(reader, url, lang, tmp_path):
    page = reader.page
    link = page.get_by_role("link", name=TEXT[lang]["link"])
    assert link.get_attribute("href") == notebook_name(PAGE), f"{url}: wrong notebook link"
    with page.expect_download() as download:
        link.click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    return path


def do_an_exercise_and_take_the_notebook(reader, lang, tmp_path):
    url = reader.server.url(lang, PAGE)
    reader.open(url, ready=False)
    _, code = reveal_answer_with_the_keyboard(reader, url)

    # the screenshot: the exercise, its question and its opened answer
    reader.page.locator("#exercise-1").scroll_into_view_if_needed()
    reader.page.evaluate("document.getElementById('exercise-1').scrollIntoView()")
    shots = ARTIFACTS / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    reader.page.screenshot(path=shots / f"{lang}-exercise-open.png")

    shown, copied = copy_answer(reader, code)
    examples = doctest.DocTestParser().get_examples(shown)
    assert ">>>" not in copied and examples, f"{url}: the answer's copy button copied\n{copied}"
    out = run_pasted(copied, tmp_path)
    want = "".join(e.want for e in examples if e.exc_msg is None)
    assert doctest.OutputChecker().check_output(want, out["stdout"], FLAGS), (
        f"{url}: the answer's code, pasted into Python, prints\n{out['stdout']}\n"
        f"--- the answer shows\n{want}\n--- stderr:\n{out['stderr']}"
    )

    path = download_notebook(reader, url, lang, tmp_path)
    nb = nbformat.read(path, as_version=4)
    headings = [c.source for c in nb.cells if c.cell_type == "markdown"]
    title = reader.page.evaluate("document.querySelector('h1').firstChild.textContent").strip()
    assert headings[0] == f"# {title}", f"{path.name} of {url} starts with {headings[0]!r}"
    expected = notebook((DOCS / lang / PAGE).read_text(encoding="utf-8"), SNIPPETS, lang)
    assert code_sources(nb) == code_sources(expected), (
        f"{path.name} downloaded from {url} is not the page's notebook"
    )
    if os.environ.get("READER_RUNS_NOTEBOOK"):
        NotebookClient(nb, kernel_name="python3", timeout=120, allow_errors=True).execute()
        problems = differences(nb, f"{path.name} downloaded from {url}")
        assert not problems, "\n\n".join(problems)
    assert reader.visit.problems == [], reader.visit.report()
