"""What a reader gets on every page, in each language (test_pages_en.py, test_pages_zh.py).

Split by language into two files, so that pytest-xdist (--dist loadfile) runs them in parallel.
"""

import pytest

from tests.browser.reader import DESKTOP, PHONE
from tests.sitetools import LANGUAGES, pages
from tools.page_weight import ORIGIN, resources

OTHER = dict(zip(LANGUAGES, reversed(LANGUAGES), strict=True))  # en <-> zh
FONT_FILES = (".woff2", ".woff", ".ttf", ".otf", ".eot")


def links_out_of_language(reader, lang):
    """Links on the page (but the language switcher) that lead to a page in another language."""
    hrefs = reader.page.eval_on_selector_all(
        "a[href]:not(.md-select__link)", "links => links.map(a => a.href)"
    )
    return sorted({h for h in hrefs if reader.server.language_of(h) not in (None, lang)})


def check_page(reader, site, lang, page):
    server = reader.server
    url = server.url(lang, page)
    name = f"docs/{lang}/{page} ({url})"

    # Opens with a clean console, loads only from this site, no web fonts. Search is not
    # waited for here (its worker and index are the same on every page of a language, and
    # test_search.py waits for them on pages of both): that would double this test's time.
    visit = reader.open(url, ready=False)
    assert not visit.problems, f"{name}:\n  " + "\n  ".join(visit.problems)
    assert reader.language() == lang, f"{name}: <html lang={reader.language()!r}>"
    fonts = [u for u in visit.requests if u.split("?")[0].endswith(FONT_FILES)]
    assert not fonts, f"{name} downloads web fonts: {fonts}"

    # What the browser loaded is what tools/page_weight.py weighs.
    expected, lazy = resources(site, server.file(url))
    expected = {server.base + e.removeprefix(ORIGIN) for e in expected}
    lazy = {server.base + e.removeprefix(ORIGIN) for e in lazy}
    # requested after the load event: search (index, worker, lunr) and the favicon
    lazy |= {e for e in expected if "/search/" in e or "/lunr/" in e or "favicon" in e}
    loaded = set(visit.requests) - {url}
    assert loaded - expected == set() and expected - loaded <= lazy, (
        f"{name}: tools/page_weight.py does not weigh what Chromium loads;\n"
        f"  loaded, not weighed: {sorted(loaded - expected)}\n"
        f"  weighed, not loaded: {sorted(expected - loaded - lazy)}"
    )

    # Every link stays in the reader's language.
    leaving = links_out_of_language(reader, lang)
    assert not leaving, f"{name}: links leave the reader's language ({lang}): {leaving}"

    # Nothing is wider than the window, on a desktop or a phone.
    overflow = reader.horizontal_overflow()
    assert overflow == 0, f"{name}: {overflow} px wider than a {DESKTOP['width']} px window"
    reader.page.set_viewport_size(PHONE)
    overflow = reader.horizontal_overflow()
    assert overflow == 0, f"{name}: {overflow} px wider than a {PHONE['width']} px phone"

    # The language switcher leads to the same page in the other language (and back: the
    # twin's own test follows its switcher to this page). Keyboard: focus the link, Enter.
    other = OTHER[lang]
    target = server.url(other, page)
    reader.page.focus(f"a.md-select__link[hreflang={other}]")
    visit = reader.follow(lambda: reader.page.keyboard.press("Enter"))
    assert visit.url == target and reader.language() == other, (
        f"{name}: the language switcher to {other!r} leads to {visit.url} "
        f"(lang={reader.language()!r}), not {target}"
    )
    assert not visit.problems, f"{name}, switching to {other!r}: {visit.report()}"


def page_params(lang):
    return [pytest.param(page, id=page) for page in pages(lang)]
