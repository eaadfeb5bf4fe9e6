"""The interface speaks the page's language: the colour toggle, the permalinks, the notebook
copy buttons (hooks/ui_strings.py and the i18n config). The 404 page: tests/browser/test_not_found.py."""

import pytest

from hooks.ui_strings import translate
from torch_verified.project import config, pages
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
