"""What search engines read: descriptions, canonical URLs, hreflang alternates, the sitemap.

The static half of the audit; tools/audit.py runs Lighthouse and axe-core on the pages.
"""

import html
import json
import re
import xml.etree.ElementTree as ET

import pytest

from torch_verified import project
from torch_verified.markdown import front_matter
from torch_verified.project import (
    DEFAULT_LANGUAGE,
    DOCS,
    IDEOGRAPHS,
    LANGUAGES,
    ideographic,
    pages,
    site_url,
)

PAGES = [(lang, page) for lang in LANGUAGES for page in pages(lang)]
CJK = re.compile(f"[{IDEOGRAPHS}]")
CJK_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff00-\uffef]")
MAX_DESCRIPTION = 160  # what search results show of it
SEARCH_LABEL = {"en": "Search", "zh": "搜索"}  # Material's own (its language packs)
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


def description(lang, page):
    """The `description` of a page: front matter, or a notebook's metadata."""
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    if page.endswith(".ipynb"):
        return json.loads(text).get("metadata", {}).get("description")
    return front_matter(text)[0].get("description")


def url_of(lang, page):
    """The absolute URL of a page below site_url, as in its canonical link."""
    return project.url(site_url(), lang, page)


def head(text):
    return text.split("</head>", 1)[0]


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_every_page_has_a_description_in_its_language(lang, page):
    text = description(lang, page)
    where = "notebook metadata" if page.endswith(".ipynb") else "front matter"
    assert isinstance(text, str) and text.strip(), (
        f"docs/{lang}/{page}: give the page a `description:` in its {where} (one sentence, "
        f"in the page's language): search results show it"
    )
    assert len(text) <= MAX_DESCRIPTION, (
        f"docs/{lang}/{page}: the description has {len(text)} characters; search results "
        f"cut it after about {MAX_DESCRIPTION}"
    )
    ideographs = len(CJK.findall(text))
    if ideographic(lang):
        assert ideographs >= 10 and ideographs >= 0.2 * len(text.replace(" ", "")), (
            f"docs/zh/{page}: the description is not written in Chinese: {text!r}"
        )
    else:
        assert not ideographs and not CJK_PUNCTUATION.search(text), (
            f"docs/{lang}/{page}: the description holds Chinese text: {text!r}"
        )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_descriptions_differ_from_page_to_page(lang):
    seen = {}
    for page in pages(lang):
        seen.setdefault(description(lang, page), []).append(page)
    repeated = {text: found for text, found in seen.items() if len(found) > 1}
    assert not repeated, f"docs/{lang}: pages share a description: {repeated}"


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_built_page_carries_its_description_and_canonical_url(built, lang, page):
    text = head(built(lang, page))
    found = re.findall(r'<meta name="description" content="([^"]*)"', text)
    assert [html.unescape(d) for d in found] == [description(lang, page)], (
        f"docs/{lang}/{page}: the built page's meta description is {found}, not the page's"
    )
    canonical = re.findall(r'<link rel="canonical" href="([^"]*)"', text)
    assert canonical == [url_of(lang, page)], (
        f"docs/{lang}/{page}: canonical link {canonical}, expected [{url_of(lang, page)}]"
    )


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_head_links_no_alternate_language_pages(built, lang, page):
    """Material's JavaScript fetches `sitemap.xml` below every <link rel=alternate> of the
    head: with the i18n plugin's per-page alternates that is a 404 on every page (and, with
    absolute links, a request to site_url's host). The alternates are in the sitemap."""
    found = re.findall(r"<link\b[^>]*\bhreflang=[^>]*>", head(built(lang, page)))
    assert not found, f"docs/{lang}/{page}: hreflang links in the head: {found}"


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_search_dialog_has_a_name_in_the_page_language(built, lang, page):
    text = built(lang, page)
    match = re.search(r'<div class="md-search"[^>]*role="dialog"[^>]*>', text)
    assert match, f"docs/{lang}/{page}: no search dialog"
    assert f'aria-label="{SEARCH_LABEL[lang]}"' in match.group(0), (
        f"docs/{lang}/{page}: the search dialog needs aria-label={SEARCH_LABEL[lang]!r}: "
        f"{match.group(0)}"
    )


def sitemap_entries(site):
    """{loc: {hreflang: href}} of sitemap.xml."""
    root = ET.parse(site / "sitemap.xml").getroot()
    entries = {}
    for url in root.findall("s:url", NS):
        loc = url.find("s:loc", NS).text
        assert loc not in entries, f"sitemap.xml lists {loc} twice"
        entries[loc] = {
            link.get("hreflang"): link.get("href")
            for link in url.findall("x:link", NS)
            if link.get("rel") == "alternate"
        }
    return entries


def test_sitemap_lists_every_page_of_both_languages_with_its_twins(site):
    entries = sitemap_entries(site)
    expected = {url_of(lang, page) for lang, page in PAGES}
    assert set(entries) == expected, (
        f"sitemap.xml: missing {sorted(expected - set(entries))}, "
        f"not pages {sorted(set(entries) - expected)}"
    )
    problems = []
    for lang, page in PAGES:
        twins = {other: url_of(other, page) for other in LANGUAGES}
        wanted = {**twins, "x-default": twins[DEFAULT_LANGUAGE]}
        got = entries[url_of(lang, page)]
        if got != wanted:
            problems.append(f"{url_of(lang, page)}: {got}, expected {wanted}")
    assert not problems, "sitemap.xml hreflang alternates:\n" + "\n".join(problems)


def test_sitemap_urls_are_absolute_below_site_url(site):
    entries = sitemap_entries(site)
    urls = set(entries) | {href for links in entries.values() for href in links.values()}
    outside = sorted(u for u in urls if not u.startswith(site_url()))
    assert not outside, f"sitemap.xml: URLs outside {site_url()}: {outside}"
    gzipped = site / "sitemap.xml.gz"
    assert gzipped.is_file(), "sitemap.xml.gz is missing"
