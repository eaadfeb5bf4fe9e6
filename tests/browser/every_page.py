"""What a reader gets on every page, in each language (test_pages_en.py, test_pages_zh.py).

Each test opens a page, follows its language switcher to the twin, checks both loads, and
checks that the twin's switcher leads back: two loads a pair. The pages are split into two files, so that
pytest-xdist (--dist loadfile) runs them in parallel.
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


def check_visit(reader, site, lang, page, visit):
    """What a reader gets on one page: clean console, this site only, the right language."""
    server = reader.server
    url = server.url(lang, page)
    name = f"docs/{lang}/{page} ({url})"

    # A clean console, loads only from this site, no web fonts.
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

    # Nothing is wider than the window, on a desktop (where it loaded) or a phone.
    overflow = reader.horizontal_overflow()
    assert overflow == 0, f"{name}: {overflow} px wider than a {DESKTOP['width']} px window"
    reader.page.set_viewport_size(PHONE)
    overflow = reader.horizontal_overflow()
    assert overflow == 0, f"{name}: {overflow} px wider than a {PHONE['width']} px phone"


def switch_language(reader, lang, page):
    """The language switcher, by keyboard (focus the link, Enter): the twin page opens."""
    server = reader.server
    other = OTHER[lang]
    target = server.url(other, page)
    reader.page.set_viewport_size(DESKTOP)  # the twin loads at desktop width, as this one did
    reader.page.focus(f"a.md-select__link[hreflang={other}]")
    visit = reader.follow(lambda: reader.page.keyboard.press("Enter"))
    assert visit.url == target and reader.language() == other, (
        f"docs/{lang}/{page}: the language switcher to {other!r} leads to {visit.url} "
        f"(lang={reader.language()!r}), not {target}"
    )
    return visit


def check_twins(reader, site, lang, page):
    """A page, its twin through the language switcher, and the way back: each load checked.

    Search is not waited for here (its worker and index are the same on every page of a
    language, and test_search.py waits for them on pages of both languages).
    """
    visit = reader.open(reader.server.url(lang, page), ready=False)
    check_visit(reader, site, lang, page, visit)
    visit = switch_language(reader, lang, page)
    check_visit(reader, site, OTHER[lang], page, visit)
    # The way back: the twin's switcher points at this page (followed by the tests of the
    # other half, which start in the other language).
    back = reader.page.eval_on_selector(f"a.md-select__link[hreflang={lang}]", "a => a.href")
    assert back == reader.server.url(lang, page), (
        f"docs/{OTHER[lang]}/{page}: the language switcher to {lang!r} leads to {back}"
    )


def page_params(half):
    """Every page that has twins, in two halves (one per test file, for xdist): the first
    starts in English, the second in Chinese; each test visits both languages."""
    twins = sorted(set(pages(LANGUAGES[0])) & set(pages(LANGUAGES[1])))
    return [pytest.param(page, id=page) for page in twins[half::2]]
