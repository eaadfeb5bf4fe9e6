"""The home page's reading path lists every page of the nav, in nav order, in both
languages, each with its reading time computed from its words (hooks/shortcodes.py:
{{ chapter N }}, {{ chapter_pages N }}); a page added to the nav and not to the path fails."""

import re
from urllib.parse import urljoin

import pytest

from hooks.shortcodes import minutes
from torch_verified.project import LANGUAGES, nav, root_of, site_path
from torch_verified.strings import STRINGS

LINK_AND_TIME = re.compile(r'<a href="([^"]+)">(?:(?!</a>).)*</a>\s*[(（](\d+)\D', re.DOTALL)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reading_path_lists_every_nav_page_in_order_with_its_time(built, lang):
    html = built(lang, "index.md")
    start = html.index('id="start-here"')
    section = html[start : html.index("<h2", start)]
    label = re.escape(STRINGS[lang]["path_pages"].split("{")[0])
    listed = []
    for paragraph in re.findall(rf"<p>{label}(.*?)</p>", section, re.DOTALL):
        for href, shown in LINK_AND_TIME.findall(paragraph):
            listed.append((urljoin(f"/{root_of(lang)}", href).lstrip("/"), int(shown)))
    expected = [
        (site_path(lang, page), minutes(page)) for name, pages in nav() if name for page in pages
    ]
    missing = [path for path, _ in expected if path not in [p for p, _ in listed]]
    assert not missing, f"docs/{lang}/index.md: nav pages missing from the reading path: {missing}"
    assert listed == expected, (
        f"docs/{lang}/index.md: the reading path (page, minutes) is not the nav's order and "
        f"times:\n{listed}\nexpected\n{expected}"
    )
