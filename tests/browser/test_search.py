"""Search as a reader uses it: a pasted error message lands on its entry, a term on the page
that teaches it, in the reader's own language.

The ranking is Material's own (lunr): a word in a heading weighs a thousand times a word in
the text, and a page's `search: boost:` front matter multiplies its sections. The error
table's entries are headed by their messages (torch_verified/errors.py); these tests hold the
ranking to what a reader needs, query by query.

The queries and what each must find are data: data/search_queries.yml. The search box is
driven as a person drives it (typed, pasted, scrolled) by the tests at the end of this file. The two hundred ranking queries are asked of the same thing the box asks:
Material's search worker, built from the page's own config and index, in one batch per
language (torch_verified/search.py: ASK), its answers grouped as the result list renders them;
test_the_batch_ranks_as_the_search_box_shows holds the two to the same results.
"""

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from torch_verified import errors
from torch_verified import search as index
from torch_verified.project import DATA, LANGUAGES, built_file, pages

AUTOGRAD = "autograd/computation-graph.md"
# words a click on a result must not highlight on the page it opens (#32: 1,902 marks of
# "a", "to", "the"), with any single character
STOP_WORDS = {"a", "an", "the", "to", "is", "of", "and", "in", "not", "does", "的", "和", "是"}
ERRORS = "errors/error-table.md"
SNIPPETS = errors.error_snippets()
QUERIES = yaml.safe_load((DATA / "search_queries.yml").read_text(encoding="utf-8"))
PARTS = [tuple(part) for part in QUERIES["parts"]]
FIRST = [
    (lang, q, targets, miss[0] if miss else None)
    for lang, queries in QUERIES["first"].items()
    for q, targets, *miss in queries
]
NAMES = sorted(index.entry_names("zh").items())
WORDS = index.glossary_queries()
TERMS = [(lang, term, page) for lang, terms in QUERIES["terms"].items() for term, page in terms]
ARTICLE = re.compile(r'<article class="md-content__inner[^"]*">(.*?)</article>', re.DOTALL)
RESULTS = """items => items.map(li => {
  const links = [...li.querySelectorAll(":scope > a")].map(a => new URL(a.href))
  return {page: links[0].origin + links[0].pathname, sections: links.slice(1).map(u => u.hash)}
})"""


def page_text(site, lang, page):
    """The text of a built page's article, as the reader sees it."""
    article = ARTICLE.search(built_file(site, lang, page).read_text(encoding="utf-8"))
    return html.unescape(re.sub(r"<[^>]+>", "", article.group(1) if article else ""))


def pages_with(site, lang, word):
    """The pages of a language whose text contains a word (case-insensitive)."""
    return {p for p in pages(lang) if word.lower() in page_text(site, lang, p).lower()}


def pasted(message):
    """What a reader may paste of a message: all of it (as the page shows it, the `...` of a
    shortened one left out), and its first sentence without the exception type."""
    whole = message.removesuffix(" ...")
    first = re.split(r"(?<=[.!?]) ", re.sub(r"^[\w.]+: ", "", whole), maxsplit=1)[0]
    return {"whole": whole, "first": first}


def messages():
    """(error, form, text): what the pinned torch prints, and what the other releases of the
    version matrix print where it differs (data/releases.yml, checked by `make matrix`)."""
    found = []
    for name, path in sorted(SNIPPETS.items()):
        for message, releases in errors.message_variants(path):
            label = (
                "" if message == errors.error_message(path) else "torch-" + "-".join(releases) + "-"
            )
            found += [(name, label + form, text) for form, text in pasted(message).items()]
    return found


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


def ranking_queries(lang):
    """Every query the ranking tests ask in a language."""
    return sorted(
        {text for _, _, text in messages()}
        | {part for part, _ in PARTS}
        | {term for language, term, _ in TERMS if language == lang}
        | {query for language, query in QUERIES["languages"] if language == lang}
        | {query for language, query, _, _ in FIRST if language == lang}
        | ({title for _, title in NAMES} | {word for word, _ in WORDS} if lang == "zh" else set())
    )


@pytest.fixture(scope="module")
def ranked(session_reader):
    """lang, query -> the results (as search() returns them) of Material's search worker,
    asked every ranking query of the language at once, from the language's home page."""
    answers = {}

    def results(lang, query):
        if lang not in answers:
            reader = session_reader.setup()
            reader.open(reader.server.url(lang, "index.md"))
            answers[lang] = reader.page.evaluate(index.ASK, ranking_queries(lang))
        return answers[lang][query]

    return results


def first_results(found, n=3):
    return [f"{r['page']}{r['sections'][0] if r['sections'] else ''}" for r in found[:n]]


def assert_entry_first(found, server, lang, query, name):
    anchor = f"#{errors.anchor(name)}"
    where = f"pasting {query!r} into the search of docs/{lang}"
    assert found, f"{where}: no results"
    assert found[0]["page"] == server.url(lang, ERRORS) and (
        found[0]["sections"][:1] == [anchor]
    ), f"{where}: the first result is not the entry {ERRORS}{anchor}: {first_results(found)}"


@pytest.mark.parametrize(
    ("name", "text"), [(n, t) for n, _, t in messages()], ids=[f"{n}-{f}" for n, f, _ in messages()]
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pasted_message_finds_its_entry_first(ranked, server, lang, name, text):
    assert_entry_first(ranked(lang, text), server, lang, text, name)


@pytest.mark.parametrize(("part", "name"), PARTS, ids=[p for p, _ in PARTS])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pasted_part_of_a_message_finds_its_entry_first(ranked, server, lang, part, name):
    assert name in SNIPPETS, f"data/search_queries.yml: no snippets/errors/{name}.pycon"
    shown = errors.error_message(SNIPPETS[name])
    assert part in shown, (
        f"data/search_queries.yml: {part!r} is not in the message of {name}: {shown!r}"
    )
    assert_entry_first(ranked(lang, part), server, lang, part, name)


@pytest.mark.parametrize(
    ("lang", "term", "teaching"), TERMS, ids=[f"{lang}-{term}" for lang, term, _ in TERMS]
)
def test_a_term_finds_the_page_that_teaches_it(ranked, server, site, lang, term, teaching):
    teaching = [teaching] if isinstance(teaching, str) else teaching
    worded = QUERIES["worded"].get(term, term)
    for page in teaching:
        assert worded.lower() in page_text(site, lang, page).lower(), (
            f"docs/{lang}/{page} no longer mentions {worded!r}: update data/search_queries.yml"
        )
    found = ranked(lang, term)
    firsts = [r["page"] for r in found[:3]]
    assert any(server.url(lang, page) in firsts for page in teaching), (
        f"searching {term!r} in docs/{lang}: docs/{lang}/{teaching} is not among the first "
        f"three results: {first_results(found)}"
    )


def first_params():
    """A query the search does not yet answer first carries `miss: why` (a strict xfail:
    once it is answered, the test says so)."""
    return [
        pytest.param(
            lang,
            query,
            targets,
            id=f"{lang}-{query}",
            marks=[pytest.mark.xfail(reason=miss, strict=True)] if miss else [],
        )
        for lang, query, targets, miss in FIRST
    ]


@pytest.mark.parametrize(("lang", "query", "targets"), first_params())
def test_a_learners_query_opens_its_answer_first(ranked, server, lang, query, targets):
    found = ranked(lang, query)
    assert index.first_is(found, targets, lambda page: server.url(lang, page)), (
        f"searching {query!r} in docs/{lang}: the first result is not one of {targets}: "
        f"{index.shown(found)}"
    )


@pytest.mark.parametrize(("name", "title"), NAMES, ids=[n for n, _ in NAMES])
def test_an_entry_is_found_first_by_its_chinese_name(ranked, server, name, title):
    assert_entry_first(ranked("zh", title), server, "zh", title, name)


@pytest.mark.parametrize(("word", "teaching"), WORDS, ids=[w for w, _ in WORDS])
def test_a_chinese_glossary_term_finds_the_page_that_teaches_it(ranked, server, word, teaching):
    """glossary.yml's `taught:`: the page among the first three results."""
    found = ranked("zh", word)
    assert server.url("zh", teaching) in [r["page"] for r in found[:3]], (
        f"searching the glossary term {word!r} in docs/zh: docs/zh/{teaching} is not among "
        f"the first three results: {index.shown(found)}"
    )


@pytest.mark.parametrize(("lang", "query"), [tuple(q) for q in QUERIES["languages"]])
def test_search_finds_pages_in_the_readers_language_only(ranked, server, site, lang, query):
    """All the results (the batch's: the box renders them ten at a time as one scrolls)."""
    found = [r["page"] for r in ranked(lang, query)]
    where = f"searching {query!r} in docs/{lang}"
    wrong = [url for url in found if server.language_of(url) != lang]
    assert not wrong, f"{where}: results in another language: {wrong}"
    assert len(found) == len(set(found)), f"{where}: a page is listed twice: {found}"
    expected = {server.url(lang, p) for p in pages_with(site, lang, query)}
    assert expected, (
        f"no page of docs/{lang} has {query!r} any more: update data/search_queries.yml"
    )
    assert found, f"{where}: no results, while these pages have it: {sorted(expected)}"


@pytest.mark.parametrize(
    ("lang", "query", "paste"),
    [
        ("en", "second time", True),
        ("en", "retain_graph", False),
        ("zh", "mat1 and mat2 shapes cannot be multiplied", True),
        ("zh", "矩阵乘法", False),
    ],
)
def test_the_batch_ranks_as_the_search_box_shows(reader, ranked, lang, query, paste):
    """The results the box renders (the first ten) are the batch's, in the same order with
    the same sections: the ranking tests above ask what a reader would see."""
    shown = search(reader, lang, query, paste=paste)
    batch = ranked(lang, query)
    assert shown and shown == batch[: len(shown)] and len(shown) == min(10, len(batch)), (
        f"{query!r} in docs/{lang}: the search box shows {first_results(shown, 10)}, "
        f"the batch ranks {first_results(batch, 10)}"
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
    found = search(reader, lang, pasted(errors.error_message(SNIPPETS[name]))["whole"], True)
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
