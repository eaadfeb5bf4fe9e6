"""A reader does an exercise and takes a page home as a notebook, in a real browser.

Open an exercise, reveal its answer with the keyboard (Tab to the answer's summary, Enter),
copy the answer's code with the copy button: it is the answer's code (test_copy.py pastes
the same answers into Python). Then download the page's notebook with its link: it is the
page's notebook, with its headings and code cells (tests/test_page_notebooks.py runs it).
One screenshot of the opened exercise per language lands in artifacts/screenshots/; look
at it. One file per language (test_exercises_en.py, test_exercises_zh.py), as xdist takes
files in parallel.
"""

import nbformat

from torch_verified.examples import runnable_code
from torch_verified.notebooks import code_of, notebook_name, page_notebook
from torch_verified.strings import STRINGS

PAGE = "autograd/computation-graph.md"
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
    return code


def do_an_exercise_and_take_the_notebook(reader, lang, tmp_path):
    url = reader.server.url(lang, PAGE)
    reader.open(url, ready=False)
    code = reveal_answer_with_the_keyboard(reader, url)
    reader.page.evaluate("document.getElementById('exercise-1').scrollIntoView()")
    reader.screenshot(f"{lang}-exercise-open")

    reader.page.evaluate("navigator.clipboard.writeText('')")
    code.hover()
    code.locator("button.md-code__button[data-md-type=copy]").click()
    reader.page.wait_for_function("async () => (await navigator.clipboard.readText()) !== ''")
    copied = reader.page.evaluate("navigator.clipboard.readText()")
    assert copied == runnable_code(code.locator("code").inner_text()).rstrip(), (
        f"{url}: the answer's copy button copied\n{copied}"
    )

    link = reader.page.get_by_role("link", name=STRINGS[lang]["notebook_link"])
    assert link.get_attribute("href") == notebook_name(PAGE), f"{url}: wrong notebook link"
    with reader.page.expect_download() as download:
        link.click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    nb = nbformat.read(path, as_version=4)
    headings = [c.source for c in nb.cells if c.cell_type == "markdown"]
    title = reader.page.evaluate("document.querySelector('h1').firstChild.textContent").strip()
    assert headings[0] == f"# {title}", f"{path.name} of {url} starts with {headings[0]!r}"
    assert code_of(nb) == code_of(page_notebook(lang, PAGE)), (
        f"{path.name} downloaded from {url} is not the page's notebook"
    )
    assert reader.visit.problems == [], reader.visit.report()
