"""What a reader gets on every page, in each language (test_pages_en.py, test_pages_zh.py).

Each test opens a page, follows its language switcher to the twin, checks both loads, and
checks that the twin's switcher leads back: two loads a pair. The pages are split into two files, so that
pytest-xdist (--dist loadfile) runs them in parallel.
"""

import pytest

from tests.browser.reader import DESKTOP, PHONE
from tests.sitetools import LANGUAGES, pages

OTHER = dict(zip(LANGUAGES, reversed(LANGUAGES), strict=True))  # en <-> zh
FONT_FILES = (".woff2", ".woff", ".ttf", ".otf", ".eot")
KB = 1024
# The bytes a first visit transfers (gzip for text, as GitHub Pages and tools/browser.py send
# it), search index and worker included: a page, and a page built from a notebook.
BUDGET = {"page": 300 * KB, "notebook": 1024 * KB}


def links_out_of_language(reader, lang):
    """Links on the page (but the language switcher) that lead to a page in another language."""
    hrefs = reader.page.eval_on_selector_all(
        "a[href]:not(.md-select__link)", "links => links.map(a => a.href)"
    )
    return sorted({h for h in hrefs if reader.server.language_of(h) not in (None, lang)})


def is_search(url):
    """A file Material's search loads after the page: its index, its worker, lunr's scripts."""
    return any(part in url for part in ("/search/search_index.json", "/workers/search.", "/lunr/"))


SEARCH_BYTES = {}


def search_bytes(reader, lang):
    """The bytes search transfers on a first visit to a page of `lang`, weighed once per
    worker on the language's home page, waiting until search is ready."""
    if lang not in SEARCH_BYTES:
        visit = reader.open(reader.server.url(lang, "index.md"), ready=True)
        searched = {url: size for url, size in visit.sent.items() if is_search(url)}
        assert any("search_index.json" in url for url in searched), visit.url
        SEARCH_BYTES[lang] = sum(searched.values())
    return SEARCH_BYTES[lang]


def check_visit(reader, lang, page, visit):
    """What a reader gets on one page: clean console, this site only, the right language."""
    server = reader.server
    url = server.url(lang, page)
    name = f"docs/{lang}/{page} ({url})"

    # A clean console, loads only from this site, no web fonts.
    assert not visit.problems, f"{name}:\n  " + "\n  ".join(visit.problems)
    assert reader.language() == lang, f"{name}: <html lang={reader.language()!r}>"
    fonts = [u for u in visit.requests if u.split("?")[0].endswith(FONT_FILES)]
    assert not fonts, f"{name} downloads web fonts: {fonts}"

    # What a first visit transfers stays within budget: what Chromium loaded for the page,
    # and what its search loads after the load event (the same for every page of a
    # language, so weighed once: search_bytes).
    kind = "notebook" if page.endswith(".ipynb") else "page"
    own = {url: size for url, size in visit.sent.items() if not is_search(url)}
    sent = sum(own.values()) + SEARCH_BYTES[lang]
    heaviest = sorted(own.items(), key=lambda item: -item[1])[:4]
    assert sent <= BUDGET[kind], (
        f"{name}: a first visit transfers {sent / KB:.0f} KB, over the {BUDGET[kind] // KB} KB "
        f"budget of a {kind}: search {SEARCH_BYTES[lang] / KB:.0f} KB, then "
        + ", ".join(f"{url.removeprefix(server.base)} {size / KB:.0f} KB" for url, size in heaviest)
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

    Search is not waited for here: what it loads is the same on every page of a language,
    weighed once (search_bytes), and test_search.py uses it on pages of both languages.
    """
    for language in LANGUAGES:
        search_bytes(reader, language)
    visit = reader.open(reader.server.url(lang, page), ready=False)
    check_visit(reader, lang, page, visit)
    visit = switch_language(reader, lang, page)
    check_visit(reader, OTHER[lang], page, visit)
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
