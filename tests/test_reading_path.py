"""The home page's reading path lists every page of the nav once, in nav order, in both
languages, each with its reading time computed from its words (hooks/shortcodes.py): the
core pages under "Start here" ({{ chapter_pages DIR }}), the going-deeper pages (`status:
deeper`) under "Going deeper" ({{ deeper_pages }}); and the core path's time is theirs. A page
added to the nav and not to the path fails, and so does a page on the wrong track."""

import re
from urllib.parse import urljoin

import pytest

from hooks.shortcodes import core, minutes, section
from torch_verified.project import LANGUAGES, nav, root_of, site_path
from torch_verified.strings import STRINGS

LINK_AND_TIME = re.compile(r'<a href="([^"]+)">(?:(?!</a>).)*</a>\s*[(（](\d+)\D', re.DOTALL)


def listed(html, lang, anchor):
    """(site path, minutes) of each page the section `anchor` of the home page lists."""
    start = html.index(f'id="{anchor}"')
    section = html[start : html.index("<h2", start + 1) if "<h2" in html[start + 1 :] else None]
    return [
        (urljoin(f"/{root_of(lang)}", href).lstrip("/"), int(shown))
        for href, shown in LINK_AND_TIME.findall(section)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reading_path_lists_every_nav_page_on_its_track_with_its_time(built, lang):
    html = built(lang, "index.md")
    numbers = [n for n, (name, _) in enumerate(nav()) if name]
    for anchor, deeper in (("start-here", False), ("going-deeper", True)):
        expected = [(site_path(lang, p), minutes(p)) for n in numbers for p in core(n, deeper)]
        shown = [page for page in listed(html, lang, anchor) if page in expected]
        assert shown == expected, (
            f"docs/{lang}/index.md, #{anchor}: the pages (page, minutes) are not the nav's "
            f"{'going-deeper' if deeper else 'core'} pages in order:\n{shown}\nexpected\n{expected}"
        )
    last = section("devices")  # the core path's time: {{ path_time devices }}
    hours = round(sum(minutes(p) for n in range(1, last + 1) for p in core(n)) / 60)
    assert STRINGS[lang]["path_hours"].format(hours=hours) in html, f"docs/{lang}/index.md"
