"""The one 404 page, as GitHub Pages serves it for every missing path: a section for every
language, the reader's first (by the path), in the page's `lang` and title, with no console
errors and no navigation (one language's only)."""

import re

import pytest

from torch_verified.project import (
    IDEOGRAPHS,
    LANGUAGES,
    built_file,
    ideographic,
    root_of,
    search_index,
)
from torch_verified.strings import STRINGS

MISSING = {lang: f"{root_of(lang)}no/such/page/" for lang in LANGUAGES}
CJK = re.compile(f"[{IDEOGRAPHS}]")
# how the footer's stamp starts in each language, in a local build or a CI one
STAMP = {
    lang: tuple(STRINGS[lang][k].split("{")[0] for k in ("local", "verified")) for lang in LANGUAGES
}


@pytest.mark.parametrize("lang", MISSING)
def test_the_404_page_greets_the_reader_in_the_language_of_the_path(reader, site, lang):
    url = reader.server.base + MISSING[lang]  # the server answers as GitHub Pages: 404.html
    visit = reader.open(url)  # and waits for search, which reads the reader's index
    problems = [
        p
        for p in visit.problems
        if not p.endswith(f"404: {url}") and f"404 (Not Found) ({url})" not in p
    ]
    assert not problems, visit.report()
    index = reader.server.base + search_index("", lang).as_posix()
    assert index in visit.requests, f"404.html at {url}: search did not load {index}"
    labels = reader.page.eval_on_selector_all(
        "header [aria-label], header [title], header [placeholder]",
        "els => els.flatMap(el => ['aria-label', 'title', 'placeholder']"
        ".map(a => el.getAttribute(a)).filter(Boolean))",
    )
    chinese = [label for label in labels if CJK.search(label)]
    if not ideographic(lang):
        assert not chinese, f"404.html at {url}: the header reads in Chinese: {chinese}"
    else:
        assert "搜索" in labels, f"404.html at {url}: the header is not in Chinese: {labels}"
    first = reader.page.locator(".not-found").first
    assert first.get_attribute("lang") == lang and reader.language() == lang, (
        f"404.html at {url}: the {lang} section is not first, or <html lang> is not {lang}"
    )
    assert reader.page.title() == first.locator("h1").inner_text()
    sections = reader.page.eval_on_selector_all(
        ".not-found", "ss => ss.map(s => [s.lang, s.textContent, s.querySelectorAll('a').length])"
    )
    assert sorted(lang for lang, _, _ in sections) == sorted(LANGUAGES), f"404.html: {sections}"
    for language, text, links in sections:
        assert STRINGS[language]["not_found_text"] in text and links == 1, (language, text)
    assert not reader.page.locator(".md-sidebar").count(), (
        "404.html: the navigation is one language's"
    )
    header = reader.page.locator(".md-header__topic .md-ellipsis").first.inner_text()
    assert header and bool(CJK.search(header)) == ideographic(lang), (
        f"404.html at {url}: {header!r}"
    )
    stamp = reader.page.locator(".verified-stamp").inner_text()
    assert stamp.startswith(STAMP[lang]) and "None" not in stamp, f"404.html at {url}: {stamp!r}"
    reader.screenshot(f"{lang}-404")
    reader.follow(lambda: first.locator("a").click())
    assert reader.server.file(reader.page.url) == built_file(site, lang, "index.md"), (
        f"404.html at {url}: its first link leads to {reader.page.url}, not the {lang} home"
    )
