"""Search as a reader uses it, a smoke test in the box (a pasted message in each language, a
concept question, a result that opens the reader's page); the search terms file's errors.

Every ranking case (each error message pasted, each entry's name, each term, each learner
question of data/search_queries.yml: more than 500) is asked by CI's audit
(tools/search_queries.py, from tools/audit.py), of the same worker the box uses
(torch_verified/search.py: ASK); test_the_batch_ranks_as_the_search_box_shows holds the
two to the same results.
"""

from urllib.parse import parse_qs, urlsplit

import pytest

from torch_verified import errors
from torch_verified import search as index
from torch_verified.project import LANGUAGES

AUTOGRAD = "autograd/computation-graph.md"
# words a click on a result must not highlight on the page it opens (#32: 1,902 marks of
# "a", "to", "the"), with any single character
STOP_WORDS = {"a", "an", "the", "to", "is", "of", "and", "in", "not", "does", "的", "和", "是"}
ERRORS = "errors/error-table.md"
SNIPPETS = errors.error_snippets()
RESULTS = """items => items.map(li => {
  const links = [...li.querySelectorAll(":scope > a")].map(a => new URL(a.href))
  return {page: links[0].origin + links[0].pathname, sections: links.slice(1).map(u => u.hash)}
})"""


def search(reader, lang, query, paste=False):
    """Type (or paste) a query into the search box of a page in `lang`, as a person does.

    Returns one {page, sections} per result Material rendered (the first ten), in order:
    `sections` are the anchors of the sections the result shows first (the best match first).
    Text typed through an IME arrives as one insertion with no key events, and Material
    searches on key events (keyup): so typing ends with a real key press, End. The box is
    emptied between queries, as a reader does; the page stays open.
    """
    page = reader.page
    home = reader.server.url(lang, "index.md")
    if page.url.split("#")[0] != home:
        reader.open(home)
    box = page.locator("input.md-search__input")
    if not box.evaluate("el => el === document.activeElement"):
        page.keyboard.press("/")
        assert box.evaluate("el => el === document.activeElement"), (
            f"{page.url}: the '/' key does not put the focus in the search box"
        )
    meta = page.locator(".md-search-result__meta")
    placeholder = page.evaluate(
        "JSON.parse(document.getElementById('__config').textContent)"
        ".translations['search.result.placeholder']"
    )
    if box.input_value():
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.press("Backspace")
        page.wait_for_function(
            "([el, text]) => el.textContent === text", arg=[meta.element_handle(), placeholder]
        )
    if paste:
        page.evaluate("text => navigator.clipboard.writeText(text)", query)
        page.keyboard.press("ControlOrMeta+V")
    else:
        page.keyboard.insert_text(query)
        page.keyboard.press("End")
    assert box.input_value() == query, f"the search box holds {box.input_value()!r}"
    page.wait_for_function(
        "([el, text]) => el.textContent !== text", arg=[meta.element_handle(), placeholder]
    )
    return page.locator(".md-search-result__list > .md-search-result__item").evaluate_all(RESULTS)


@pytest.mark.parametrize(
    ("lang", "query", "paste", "first"),
    [
        ("en", "what does backward do", False, [AUTOGRAD, "autograd/backward.md"]),
        ("zh", "mat1 and mat2 shapes cannot be multiplied", True, [f"{ERRORS}#matmul-shapes"]),
    ],
)
def test_the_batch_ranks_as_the_search_box_shows(reader, lang, query, paste, first):
    """The results the box renders (the first ten) are the batch's, in the same order with
    the same sections: the audit's ranking cases ask what a reader would see. A concept
    question opens a lesson, not an error-table entry; a pasted message its entry."""
    batch = index.ask(reader, lang, [query])[query]
    shown = search(reader, lang, query, paste=paste)
    assert index.among(shown, first, lambda page: reader.server.url(lang, page)), (
        f"{query!r} in docs/{lang}: the first result is not one of {first}: {index.shown(shown)}"
    )
    assert shown and shown == batch[: len(shown)] and len(shown) == min(10, len(batch)), (
        f"{query!r} in docs/{lang}: the search box shows {index.shown(shown, 10)}, "
        f"the batch ranks {index.shown(batch, 10)}"
    )
    # what a reader reads and copies of the results: no zero-width space (the index's word
    # breaks), no snippet file name
    text = reader.page.locator(".md-search-result__list").inner_text()
    assert "\u200b" not in text and ".pycon" not in text, (
        f"{query!r} in docs/{lang}: the results show a zero-width space or a file name"
    )


def test_a_search_result_opens_the_page_in_the_readers_language(reader):
    server = reader.server
    found = search(reader, "zh", "计算图")
    assert server.url("zh", AUTOGRAD) in [r["page"] for r in found[:3]], f"计算图 found {found}"
    first = reader.page.locator(
        f'.md-search-result__list > li > a[href^="{server.url("zh", AUTOGRAD)}"]'
    ).first
    visit = reader.follow(first.click)
    assert visit.url.split("?")[0] == server.url("zh", AUTOGRAD) and reader.language() == "zh", (
        f"the first result for 计算图 opened {visit.url} (lang={reader.language()!r})"
    )
    assert not visit.problems, visit.report()


@pytest.mark.parametrize("lang", LANGUAGES[::-1])  # the box's tests share a language's tab
def test_the_first_result_for_a_message_opens_its_entry(reader, lang):
    name = "no_grad_fn"
    found = search(reader, lang, index.pasted(errors.error_message(SNIPPETS[name]))["whole"], True)
    assert found, f"{lang}: no results for the message of {name}"
    section = reader.page.locator(".md-search-result__list > li").first.locator(":scope > a")
    visit = reader.follow(section.nth(1).click)
    url = reader.page.url
    highlighted = parse_qs(urlsplit(url).query).get("h", [""])[0].split()
    noise = [w for w in highlighted if len(w) < 2 or w in STOP_WORDS]
    assert highlighted and not noise, f"{lang}: the opened entry highlights {highlighted}"
    assert url.startswith(reader.server.url(lang, ERRORS)) and url.endswith(
        f"#{errors.anchor(name)}"
    ), f"{lang}: the first result for the message of {name} opened {url}"
    assert reader.language() == lang and not visit.problems, visit.report()
    heading = reader.page.locator(f"#{errors.anchor(name)}")
    top = heading.evaluate("el => el.getBoundingClientRect().top")
    assert 0 <= top < reader.page.viewport_size["height"] / 2, (
        f"{lang}: the entry's heading is not in view after the click (top at {top} px)"
    )


def test_a_search_term_that_names_no_section_is_an_error(tmp_path):
    terms = tmp_path / "search_terms.yml"
    terms.write_text("autograd/backward.md#leaves:\n  zh: [x]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"search_terms.yml, line 1: .*no section of docs/zh"):
        index.tags([{"location": "autograd/backward/"}], "zh", terms)
    terms.write_text("autograd/backward.md:\n  fr: [x]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"search_terms.yml, line 1: .*no language \['fr'\]"):
        index.tags([{"location": "autograd/backward/"}], "zh", terms)
