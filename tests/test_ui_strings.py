"""The interface speaks the page's language: the colour toggle, the permalinks, the notebook
copy buttons (hooks/ui_strings.py and the i18n config), and the one 404 page speaks both."""

import re
from urllib.parse import urlparse

import pytest

from hooks.ui_strings import translate
from tests.sitetools import LANGUAGES, pages, site_page, site_url

# strings of the English interface that no Chinese page may show
ENGLISH = [
    "Switch to dark mode",
    "Switch to light mode",
    "Permanent link",
    "Copy to Clipboard",
    "Copied!",
]
CHINESE = ["切换到深色模式", "切换到浅色模式", "永久链接", "复制到剪贴板", "已复制"]
NOTEBOOK_BUTTON = (
    '<clipboard-copy ,="" aria-label="Copy to Clipboard" for="cell-1">'
    '<div><span class="notice" hidden="">Copied!</span>'
)


def test_the_hook_translates_permalinks_and_notebook_buttons():
    heading = '<h2 id="x">X<a class="headerlink" href="#x" title="Permanent link">&para;</a></h2>'
    html = translate(heading + NOTEBOOK_BUTTON, "zh")
    assert 'href="#x" title="永久链接"' in html
    assert 'aria-label="复制到剪贴板"' in html and ">已复制</span>" in html
    assert not [s for s in ENGLISH if s in html], html


def test_the_hook_leaves_a_language_without_strings_alone():
    assert translate(NOTEBOOK_BUTTON, "fr") == NOTEBOOK_BUTTON


@pytest.mark.parametrize("page", pages("zh"))
def test_chinese_pages_show_no_english_interface_strings(site, page):
    html = site_page(site, "zh", page).read_text(encoding="utf-8")
    found = [s for s in ENGLISH if s in html]
    assert not found, (
        f"docs/zh/{page}: the built page shows {found}; translate them in mkdocs.yml "
        "(i18n → languages → zh) or hooks/ui_strings.py"
    )


@pytest.mark.parametrize("page", ["index.md", "lab/linear-regression.ipynb"])
def test_english_pages_keep_the_english_interface(site, page):
    html = site_page(site, "en", page).read_text(encoding="utf-8")
    assert "Switch to dark mode" in html and 'title="Permanent link"' in html, page
    found = [s for s in CHINESE if s in html]
    assert not found, f"docs/en/{page}: the built page shows {found}"


def not_found_sections(site):
    html = (site / "404.html").read_text(encoding="utf-8")
    return html, re.findall(
        r'<section class="not-found" lang="(\w+)"[^>]*>(.*?)</section>', html, re.DOTALL
    )


def test_the_404_page_speaks_to_readers_of_every_language(site):
    html, sections = not_found_sections(site)
    assert [lang for lang, _ in sections] == list(LANGUAGES), (
        "404.html: GitHub Pages serves this one page for every missing path; it needs a "
        f"section for each language, found {sections}"
    )
    prefix = urlparse(site_url()).path.rstrip("/")
    for lang, body in sections:
        assert "404 - Not found" not in body
        links = re.findall(r'<a href="([^"]+)"', body)
        assert len(links) == 1 and links[0].startswith(prefix + "/"), (lang, links)
        home = site / links[0][len(prefix) + 1 :] / "index.html"
        assert home == site_page(site, lang, "index.md"), (
            f"404.html: the {lang} section links to {links[0]}, not to the {lang} home page"
        )
    assert 'class="md-sidebar' not in html, "404.html: the navigation is one language's only"
