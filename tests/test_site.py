"""Checks of the built site (`make build`, once per run), every page of both languages: what a
reader gets without a browser. The browser visits every page in the audit's reader's pass
(tools/audit.py, every CI run) and some pages in tests/browser/."""

import html
import json
import re
from urllib.parse import urljoin, urlparse

import pytest

from torch_verified import search
from torch_verified.examples import runnable_code
from torch_verified.markdown import includes
from torch_verified.project import (
    DOCS,
    LANGUAGES,
    SNIPPETS,
    file_of_url,
    pages,
    pinned_torch,
    prefix,
    root_of,
    search_index,
    site_path,
)
from torch_verified.project import url as page_url

PAGES = [(lang, page) for lang in LANGUAGES for page in pages(lang)]
RESOURCE = re.compile(
    r"<(?:script|img|source|iframe|audio|video|embed)\b[^>]*?\bsrc=\"([^\"]+)\""
    r"|<link\b[^>]*?\bhref=\"([^\"]+)\"[^>]*>",
    re.IGNORECASE,
)
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)|@import\s+['\"]([^'\"]+)")
LOCAL_REF = re.compile(
    r"""<(?:img|script|source)\b[^>]*?\bsrc="([^"]+)"|<(?:a|link)\b[^>]*?\bhref="([^"]+)\""""
)


@pytest.mark.parametrize(("lang", "page"), [(lang, p) for lang, p in PAGES if p.endswith(".md")])
def test_every_included_snippet_shows_with_copyable_code(built, lang, page):
    """Each include renders as a pycon block whose copy button copies exactly its code."""
    shown = [
        html.unescape(m)
        for m in re.findall(
            r'<div class="language-pycon highlight" data-copy="([^"]*)"', built(lang, page)
        )
    ]
    missing = [
        name
        for name in includes((DOCS / lang / page).read_text(encoding="utf-8"))
        if runnable_code((SNIPPETS / name).read_text(encoding="utf-8")) not in shown
    ]
    assert not missing, (
        f"docs/{lang}/{page}: these snippets do not show on the built page as a pycon block "
        f"whose copy button copies their code: {missing}"
    )


DOCTEST_ONLY = re.compile(r"&lt;BLANKLINE&gt;|#\s*doctest:")
ANSWER_TWICE = re.compile(
    r"<summary>([^<]+)</summary>\s*<div[^>]*>\s*<span class=\"filename\">\1\b"
)


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_a_page_shows_no_doctest_marker_and_each_answer_label_once(built, lang, page):
    """`<BLANKLINE>` and `# doctest:` directives are for doctest, not readers
    (hooks/copy_code.py); an answer's code does not repeat the box's title as its caption."""
    text = built(lang, page)
    assert not DOCTEST_ONLY.search(text), f"docs/{lang}/{page}: a doctest marker on the page"
    assert not ANSWER_TWICE.search(text), f"docs/{lang}/{page}: an answer labelled twice"


def is_third_party(url):
    parsed = urlparse(url)
    return bool(parsed.scheme in ("http", "https") or url.startswith("//")) and parsed.netloc


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_no_resource_comes_from_another_host(built, lang, page):
    text, found = built(lang, page), []
    for match in RESOURCE.finditer(text):
        url, tag = match.group(1) or match.group(2), match.group(0)
        if match.group(2) and not re.search(
            r'rel="(stylesheet|icon|preload|prefetch|modulepreload|manifest|preconnect|'
            r'dns-prefetch|apple-touch-icon)"',
            tag,
        ):
            continue  # <link rel="canonical|alternate"> is a link, not a resource
        if is_third_party(url):
            found.append(url)
    found += [u for pair in CSS_URL.findall(text) for u in pair if u and is_third_party(u)]
    assert not found, f"docs/{lang}/{page} loads from another host: {found}"


def test_no_stylesheet_or_script_reaches_another_host(site):
    found = []
    for path in list(site.rglob("*.css")) + list(site.rglob("*.js")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for pair in CSS_URL.findall(text) if path.suffix == ".css" else []:
            found += [f"{path.relative_to(site)}: {u}" for u in pair if u and is_third_party(u)]
        if "fonts.googleapis" in text or "fonts.gstatic" in text:
            found.append(f"{path.relative_to(site)}: Google Fonts")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_states_the_pinned_torch_version(built, lang):
    text = built(lang, "index.md")
    assert f"<strong>{pinned_torch()}</strong>" in text, (
        f"docs/{lang}/index.md: the built page does not show PyTorch {pinned_torch()} (the pin)"
    )
    assert "{{" not in text, f"docs/{lang}/index.md: an unreplaced {{{{ marker }}}}"


def index_of(site, lang):
    path = search_index(site, lang)
    assert path.is_file(), f"no search index for {lang!r} at {path.relative_to(site)}"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_searches_its_own_pages(site, built, lang):
    """hooks/search_scope.py: one index per language, and each page's `base` points to it."""
    root = root_of(lang)
    found = {d["location"].split("#")[0] for d in index_of(site, lang)["docs"]}
    expected = {site_path(lang, p).removeprefix(root) for p in pages(lang)}
    assert found == expected, (
        f"the {lang!r} search index holds {sorted(found)}; expected exactly the {lang!r} pages "
        f"{sorted(expected)}, located relative to /{root}"
    )
    for page in pages(lang):
        app = json.loads(search.CONFIG.search(built(lang, page))[2])
        base = urljoin("http://site/" + site_path(lang, page), app["base"])
        assert base.rstrip("/") + "/" == f"http://site/{root}", (
            f"docs/{lang}/{page}: Material's base {app['base']!r} is not /{root}: its search "
            f"would load another language's index"
        )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_index_leaves_out_answers_and_hints(site, built, lang):
    """torch_verified/search.py: an exercise's answer and hint are not searched (a result in an
    answer gives it away), nor the text of the exercises and key takeaways (their titles stay:
    with them the zh index put a first visit over its budget); the pages still show them."""
    docs = {d["location"]: d for d in index_of(site, lang)["docs"]}
    page = "autograd/backward.md"
    answer = re.search(r'<details class="success" data-search-exclude', built(lang, page))
    assert answer, f"docs/{lang}/{page}: no answer marked data-search-exclude"
    text = "\n".join(d["text"] for loc, d in docs.items() if loc.startswith("autograd/backward/#"))
    assert "Σᵢ gᵢ Σⱼ Wᵢⱼ vⱼ" not in text, "an answer is in the index"
    for section in ("exercise-1", "key-takeaways"):
        found = docs[f"autograd/backward/#{section}"]
        assert found["title"] and not found["text"], f"#{section}: its text is in the index"
    assert docs["autograd/backward/#non-scalar"]["text"], "a teaching section lost its text"


def test_chinese_search_never_splits_a_glossary_word(site):
    """jieba cut 把张量变大 as 把 / 张 / 量变 / 大 (so that 叶子张量 found that heading first), and
    计算·图, 叶子·张量, 不·匹配: the build gives it every Chinese word of glossary.yml
    (torch_verified/search.py), so none is split in the zh index."""
    words = search.chinese_words()
    assert {"张量", "计算图", "叶子张量", "不匹配", "梯度累积"} <= set(words), words
    text = "\n".join(doc["title"] + doc["text"] for doc in index_of(site, "zh")["docs"])
    split = {}  # a word cut into words of its own (计算·图), not a cut between two longer words
    for word in words:
        for i in range(1, len(word)):
            pieces = re.escape(word[:i]) + "\u200b" + re.escape(word[i:])
            if found := re.findall(rf"(?<!\w){pieces}(?!\w)", text):
                split[word] = split.get(word, 0) + len(found)
    assert not split, f"the zh search index splits glossary words (times): {split}"


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_every_local_link_and_image_resolves(site, built, lang, page):
    """Images, stylesheets, scripts and links of a built page point at files that exist."""
    broken = []
    for match in LOCAL_REF.finditer(built(lang, page)):
        url = html.unescape(match.group(1) or match.group(2))
        parsed = urlparse(url)
        if parsed.scheme or url.startswith(("#", "//", "mailto:")) or not parsed.path:
            continue
        target = file_of_url(site, prefix(), urljoin(page_url(prefix(), lang, page), url))
        if not target.is_file():
            broken.append(url)
    assert not broken, f"docs/{lang}/{page}: the built page points at missing files: {broken}"
