"""Search as a reader uses it: keyboard shortcut, typed words, results in their own language."""

import html
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.sitetools import LANGUAGES, pages, site_page

AUTOGRAD = "autograd/computation-graph.md"
# (language, page the reader is on, query, a page that must be found now)
QUERIES = [
    pytest.param("zh", "index.md", "梯度", AUTOGRAD, id="zh-gradient"),
    # jieba indexed it as 计算​图 (two tokens); Material segments the query against the index
    pytest.param("zh", AUTOGRAD, "计算图", AUTOGRAD, id="zh-computation-graph"),
    # broadcasting: the Operations chapter will have it; checked as soon as a page does
    pytest.param("zh", "index.md", "广播", None, id="zh-broadcasting"),
    # in the code of both languages: only the reader's own language may answer
    pytest.param("zh", AUTOGRAD, "backward", "autograd/backward.md", id="zh-backward"),
    pytest.param("en", AUTOGRAD, "gradient", AUTOGRAD, id="en-gradient"),
]
ARTICLE = re.compile(r'<article class="md-content__inner[^"]*">(.*?)</article>', re.DOTALL)


def page_text(site, lang, page):
    """The text of a built page's article, as the reader sees it."""
    built = site_page(site, lang, page).read_text(encoding="utf-8")
    article = ARTICLE.search(built)
    return html.unescape(re.sub(r"<[^>]+>", "", article.group(1) if article else ""))


def pages_with(site, lang, word):
    """The pages of a language whose text contains a word (case-insensitive)."""
    return {p for p in pages(lang) if word.lower() in page_text(site, lang, p).lower()}


def search(reader, query):
    """Type a query into the search box as a person does, and return the result URLs.

    Text typed through an IME arrives as one insertion with no key events, and Material
    searches on key events (keyup): so the typing ends with a real key press, End.
    """
    page = reader.page
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.matches('input.md-search__input')"), (
        f"{page.url}: the '/' key does not put the focus in the search box"
    )
    page.keyboard.insert_text(query)
    page.keyboard.press("End")
    meta = page.locator(".md-search-result__meta")
    placeholder = page.evaluate(
        "JSON.parse(document.getElementById('__config').textContent)"
        ".translations['search.result.placeholder']"
    )
    page.wait_for_function(
        "([el, text]) => el.textContent !== text", arg=[meta.element_handle(), placeholder]
    )
    items = page.locator(".md-search-result__list > .md-search-result__item")
    scroller = page.locator(".md-search__scrollwrap")
    # Material renders 10 results, more as the reader scrolls, until none are left. (The
    # "N matching documents" count is not the number of items: results are grouped by page.)
    while True:
        shown = items.count()
        scroller.evaluate("el => el.scrollTop = el.scrollHeight")
        try:
            page.wait_for_function(
                "([n]) => document.querySelectorAll('.md-search-result__list > li').length > n",
                arg=[shown],
                timeout=1000,
            )
        except PlaywrightTimeout:
            break
    return items.evaluate_all(  # one item per page: its first link is the page itself
        "items => items.map(li => li.querySelector('a').href.split('#')[0].split('?')[0])"
    )


@pytest.mark.parametrize(("lang", "start", "query", "must_find"), QUERIES)
def test_search_finds_pages_in_the_readers_language_only(
    reader, site, lang, start, query, must_find
):
    server = reader.server
    reader.open(server.url(lang, start))
    found = search(reader, query)
    where = f"searching {query!r} on docs/{lang}/{start}"

    wrong = [url for url in found if server.language_of(url) != lang]
    assert not wrong, f"{where}: results in another language: {wrong}"
    assert len(found) == len(set(found)), f"{where}: a page is listed twice: {found}"

    expected = {server.url(lang, p) for p in pages_with(site, lang, query)}
    if must_find:  # strict now; for the other words, as soon as a page has them
        assert server.url(lang, must_find) in expected, (
            f"docs/{lang}/{must_find} no longer contains {query!r}: update QUERIES"
        )
        assert server.url(lang, must_find) in found[:5], (
            f"{where}: docs/{lang}/{must_find} is not among the first five results: {found}"
        )
    assert bool(found) == bool(expected), f"{where}: found {found}, pages with it: {expected}"


def test_a_search_result_opens_the_page_in_the_readers_language(reader):
    server = reader.server
    reader.open(server.url("zh", "index.md"))
    found = search(reader, "计算图")
    assert server.url("zh", AUTOGRAD) in found[:5], f"计算图 found {found}"
    first = reader.page.locator(
        f'.md-search-result__list > li > a[href^="{server.url("zh", AUTOGRAD)}"]'
    ).first
    visit = reader.follow(first.click)
    assert visit.url.split("?")[0] == server.url("zh", AUTOGRAD) and reader.language() == "zh", (
        f"the first result for 计算图 opened {visit.url} (lang={reader.language()!r})"
    )
    assert not visit.problems, visit.report()


def test_search_queries_cover_each_language():
    assert {query.values[0] for query in QUERIES} == set(LANGUAGES)
