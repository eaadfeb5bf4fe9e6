"""Checks of the built site (`mkdocs build --strict`, once per run): what a reader gets."""

import html
import json
import re
from urllib.parse import urljoin, urlparse

import pytest

from hooks.copy_code import runnable_code
from hooks.version import pinned_torch_version
from tests.sitetools import (
    DEFAULT_LANGUAGE,
    DOCS,
    LANGUAGES,
    SNIPPETS,
    includes,
    pages,
    site_page,
    site_url,
)

PAGES = [(lang, page) for lang in LANGUAGES for page in pages(lang)]
OTHER = {"en": "zh", "zh": "en"}
RESOURCE = re.compile(
    r"<(?:script|img|source|iframe|audio|video|embed)\b[^>]*?\bsrc=\"([^\"]+)\""
    r"|<link\b[^>]*?\bhref=\"([^\"]+)\"[^>]*>",
    re.IGNORECASE,
)
APP_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.DOTALL)
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)|@import\s+['\"]([^'\"]+)")


def read(site, lang, page):
    path = site_page(site, lang, page)
    assert path.is_file(), f"docs/{lang}/{page} was not built to {path.relative_to(site)}"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_page_declares_its_language(site, lang, page):
    match = re.search(r"<html\b[^>]*\blang=\"([^\"]+)\"", read(site, lang, page))
    assert match and match.group(1) == lang, (
        f"docs/{lang}/{page}: <html lang> is {match and match.group(1)!r}, expected {lang!r}"
    )


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_language_switcher_leads_to_the_twin(site, lang, page):
    built = site_page(site, lang, page)
    text = built.read_text(encoding="utf-8")
    other = OTHER[lang]
    links = re.findall(
        rf'<a\b[^>]*href="([^"]*)"[^>]*hreflang="{other}"[^>]*class="md-select__link"', text
    )
    assert links, f"docs/{lang}/{page}: no language switcher link to {other!r}"
    base = "http://site/" + built.relative_to(site).as_posix()
    target = urlparse(urljoin(base, links[0])).path
    prefix = urlparse(site_url()).path.rstrip("/")  # the switcher may use absolute site_url links
    target = target.removeprefix(prefix) if target.startswith(prefix + "/") else target
    expected = "/" + site_page(site, other, page).relative_to(site).as_posix()
    assert target in (expected, expected.removesuffix("index.html")), (
        f"docs/{lang}/{page}: the switcher to {other!r} leads to {target}, not {expected}"
    )


def code_blocks(text):
    """The data-copy text of every pycon block of a built page, in order."""
    return [
        html.unescape(m)
        for m in re.findall(r'<div class="language-pycon highlight" data-copy="([^"]*)"', text)
    ]


@pytest.mark.parametrize(("lang", "page"), [(lang, p) for lang, p in PAGES if p.endswith(".md")])
def test_every_included_snippet_shows_with_copyable_code(site, lang, page):
    """Each include renders as a pycon block whose copy button copies exactly its code."""
    shown = code_blocks(read(site, lang, page))
    wanted = [
        runnable_code((SNIPPETS / name).read_text(encoding="utf-8"))
        for name in includes(DOCS / lang / page)
    ]
    missing = [
        name
        for name, code in zip(includes(DOCS / lang / page), wanted, strict=True)
        if code not in shown
    ]
    assert not missing, (
        f"docs/{lang}/{page}: these snippets do not show on the built page as a pycon block "
        f"whose copy button copies their code: {missing}"
    )


def test_copy_text_has_no_prompts_or_outputs():
    session = ">>> x = 1\n>>> for i in range(2):\n...     x += i\n>>> x\n2\n"
    assert runnable_code(session) == "x = 1\nfor i in range(2):\n    x += i\n\nx\n"


def is_third_party(url):
    parsed = urlparse(url)
    return bool(parsed.scheme in ("http", "https") or url.startswith("//")) and parsed.netloc


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_no_resource_comes_from_another_host(site, lang, page):
    text = read(site, lang, page)
    found = []
    for match in RESOURCE.finditer(text):
        url = match.group(1) or match.group(2)
        tag = match.group(0)
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
def test_home_states_the_pinned_torch_version(site, lang):
    version = pinned_torch_version()
    text = read(site, lang, "index.md")
    assert f"<strong>{version}</strong>" in text, (
        f"docs/{lang}/index.md: the built page does not show PyTorch {version} (the pin)"
    )
    assert "{{" not in text, f"docs/{lang}/index.md: an unreplaced {{{{ placeholder }}}}"


def language_root(lang):
    """Where a language's pages live in the built site: "" or "zh/"."""
    return "" if lang == DEFAULT_LANGUAGE else f"{lang}/"


def search_index(site, lang):
    path = site / language_root(lang) / "search" / "search_index.json"
    assert path.is_file(), f"no search index for {lang!r} at {path.relative_to(site)}"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_searches_its_own_pages(site, lang):
    """hooks/search_scope.py: one index per language, and each page's `base` points to it."""
    root = language_root(lang)
    found = {d["location"].split("#")[0] for d in search_index(site, lang)["docs"]}
    expected = {
        site_page(site, lang, p).relative_to(site).as_posix()[len(root) :] for p in pages(lang)
    }
    expected = {e.removesuffix("index.html") for e in expected}
    assert found == expected, (
        f"the {lang!r} search index holds {sorted(found)}; expected exactly the {lang!r} pages "
        f"{sorted(expected)}, located relative to /{root}"
    )
    for page in pages(lang):
        built = site_page(site, lang, page)
        app = json.loads(APP_CONFIG.search(read(site, lang, page))[1])
        base = urljoin("http://site/" + built.relative_to(site).as_posix(), app["base"])
        assert base.rstrip("/") + "/" == f"http://site/{root}", (
            f"docs/{lang}/{page}: Material's base {app['base']!r} is not /{root}: its search "
            f"would load another language's index"
        )


def test_chinese_search_finds_the_autograd_page(site):
    index = search_index(site, "zh")
    separator = index["config"]["separator"]
    assert "\\u3000" in separator or "\u3000" in separator, f"search separator: {separator!r}"
    docs = [d for d in index["docs"] if d["location"].startswith("autograd/")]
    # jieba segments the Chinese text with zero-width spaces; the words are still there
    text = "".join(d["title"] + d["text"] for d in docs).replace("\u200b", "")
    for word in ("梯度", "计算图", "反向传播"):
        assert word in text, f"the search index holds no Chinese autograd page with {word!r}"


LOCAL_REF = re.compile(
    r"""<(?:img|script|source)\b[^>]*?\bsrc="([^"]+)"|<(?:a|link)\b[^>]*?\bhref="([^"]+)\""""
)


@pytest.mark.parametrize(("lang", "page"), PAGES)
def test_every_local_link_and_image_resolves(site, lang, page):
    """Images, stylesheets, scripts and links of a built page point at files that exist."""
    built = site_page(site, lang, page)
    text = built.read_text(encoding="utf-8")
    broken = []
    for match in LOCAL_REF.finditer(text):
        url = html.unescape(match.group(1) or match.group(2))
        parsed = urlparse(url)
        if parsed.scheme or url.startswith(("#", "//", "mailto:")) or not parsed.path:
            continue
        if parsed.path.startswith("/"):  # absolute: below site_url's path
            prefix = urlparse(site_url()).path
            target = site / parsed.path.removeprefix(prefix).lstrip("/")
        else:
            target = (built.parent / parsed.path).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            broken.append(url)
    assert not broken, f"docs/{lang}/{page}: the built page points at missing files: {broken}"
