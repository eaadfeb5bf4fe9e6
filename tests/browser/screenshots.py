"""How the home and autograd pages look: both languages, desktop and phone, light and dark.

The screenshots land in artifacts/screenshots/ (CI uploads artifacts/); look at them.
One file per language (test_screenshots_en.py, test_screenshots_zh.py), so that
pytest-xdist (--dist loadfile) takes them in parallel.
"""

import pytest

from tests.browser.reader import ARTIFACTS, DESKTOP, PHONE
from tools.browser import SCHEMES

SHOTS = ARTIFACTS / "screenshots"
PAGES = {"index.md": "home", "autograd/computation-graph.md": "autograd-computation-graph"}


def parametrize(test):
    for decorator in (
        pytest.mark.parametrize("scheme", SCHEMES),
        pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"]),
        pytest.mark.parametrize("page", PAGES, ids=PAGES.values()),
    ):
        test = decorator(test)
    return test


def screenshot(reader, lang, page, viewport, scheme):
    url = reader.server.url(lang, page)
    reader.setup(viewport, scheme).open(url, ready=False)
    shown = reader.page.evaluate("document.body.dataset.mdColorScheme")
    assert shown == SCHEMES[scheme], (
        f"{url}: a reader who prefers {scheme} gets Material's {shown!r} scheme"
    )
    overflow = reader.horizontal_overflow()
    assert overflow == 0, f"{url}: {overflow} px wider than {viewport['width']} px"
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = f"{lang}-{PAGES[page]}-{viewport['width']}-{scheme}.png"
    reader.page.screenshot(path=SHOTS / name, full_page=True)
