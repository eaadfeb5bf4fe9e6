"""The interface speaks the page's language: the colour toggle, the permalinks, the notebook
copy buttons (hooks/ui_strings.py and the i18n config), and the one 404 page speaks both."""

import re

import pytest

from hooks.ui_strings import translate
from torch_verified.project import LANGUAGES, built_file, config, pages, prefix
from torch_verified.strings import STRINGS

UI = ("permalink", "copy_cell", "copied")
TOGGLES = [option["toggle"]["name"] for option in config()["theme"]["palette"]]
# what an English page holds: our strings, Material's toggles, and nbconvert's button
ENGLISH = [*TOGGLES, *(STRINGS["en"][key] for key in UI), "Copy to Clipboard"]
CHINESE = [STRINGS["zh"][key] for key in UI]
NOTEBOOK_BUTTON = (
    '<clipboard-copy ,="" aria-label="Copy to Clipboard" for="cell-1">'
    '<div><span class="notice" hidden="">Copied!</span>'
)


def test_the_hook_translates_permalinks_and_notebook_buttons():
    heading = f'<h2 id="x">X<a class="headerlink" href="#x" title="{STRINGS["en"]["permalink"]}">&para;</a></h2>'
    html = translate(heading + NOTEBOOK_BUTTON, "zh")
    assert all(s in html for s in CHINESE) and not [s for s in ENGLISH if s in html], html


@pytest.mark.parametrize("page", pages("zh"))
def test_chinese_pages_show_no_english_interface_strings(built, page):
    found = [s for s in ENGLISH if s in built("zh", page)]
    assert not found, (
        f"docs/zh/{page}: the built page shows {found}; translate them in mkdocs.yml "
        "(i18n → languages → zh) or torch_verified/strings.py"
    )


@pytest.mark.parametrize("page", ["index.md", "lab/linear-regression.ipynb"])
def test_english_pages_keep_the_english_interface(built, page):
    html = built("en", page)
    assert TOGGLES[0] in html and f'title="{STRINGS["en"]["permalink"]}"' in html, page
    found = [s for s in CHINESE if s in html]
    assert not found, f"docs/en/{page}: the built page shows {found}"


def test_the_404_page_speaks_to_readers_of_every_language(site):
    html = (site / "404.html").read_text(encoding="utf-8")
    sections = re.findall(
        r'<section class="not-found" lang="(\w+)"[^>]*>(.*?)</section>', html, re.DOTALL
    )
    assert [lang for lang, _ in sections] == list(LANGUAGES), (
        "404.html: GitHub Pages serves this one page for every missing path; it needs a "
        f"section for each language, found {sections}"
    )
    for lang, body in sections:
        assert STRINGS[lang]["not_found_text"] in body, (
            f"404.html: the {lang} section lacks its message"
        )
        links = re.findall(r'<a href="([^"]+)"', body)
        assert len(links) == 1 and links[0].startswith(prefix()), (lang, links)
        home = site / links[0].removeprefix(prefix()) / "index.html"
        assert home == built_file(site, lang, "index.md"), (
            f"404.html: the {lang} section links to {links[0]}, not to the {lang} home page"
        )
    assert 'class="md-sidebar' not in html, "404.html: the navigation is one language's only"
