"""The one 404 page, as GitHub Pages serves it for a missing path: the reader's language
first (by the path), in the page's `lang` and title, with no console errors."""

import pytest

from tests.browser.reader import ARTIFACTS
from tests.sitetools import site_page

MISSING = {"en": "no/such/page/", "zh": "zh/no/such/page/"}


@pytest.mark.parametrize("lang", MISSING)
def test_the_404_page_greets_the_reader_in_the_language_of_the_path(reader, site, lang):
    url = reader.server.base + MISSING[lang]
    body = (site / "404.html").read_text(encoding="utf-8")
    reader.page.route(
        url, lambda route: route.fulfill(status=404, body=body, content_type="text/html")
    )
    try:
        visit = reader.open(url, ready=False)
    finally:
        reader.page.unroute(url)
    problems = [
        p
        for p in visit.problems
        if not p.endswith(f"404: {url}") and f"404 (Not Found) ({url})" not in p
    ]
    assert not problems, visit.report()
    first = reader.page.locator(".not-found").first
    assert first.get_attribute("lang") == lang and reader.language() == lang, (
        f"404.html at {url}: the {lang} section is not first, or <html lang> is not {lang}"
    )
    assert reader.page.title() == first.locator("h1").inner_text()
    header = reader.page.locator(".md-header__topic .md-ellipsis").first.inner_text()
    assert header == first.get_attribute("data-site-name") != "", header
    footer = reader.page.locator(".md-copyright__highlight").inner_text()
    assert footer == first.get_attribute("data-copyright") != "", footer
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    reader.page.screenshot(path=ARTIFACTS / "screenshots" / f"{lang}-404.png")
    reader.follow(lambda: first.locator("a").click())
    assert reader.server.file(reader.page.url) == site_page(site, lang, "index.md"), (
        f"404.html at {url}: its first link leads to {reader.page.url}, not the {lang} home"
    )
