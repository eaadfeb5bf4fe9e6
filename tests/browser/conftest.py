"""Fixtures of the browser tests: one site server and one Chromium per pytest worker."""

import pytest

from tests.browser.reader import DESKTOP, Reader
from tools.browser import CHROMIUM_ARGS, SiteServer, chromium_executable


@pytest.fixture(scope="session")
def server(site):
    served = SiteServer(site)
    yield served
    served.close()


@pytest.fixture(scope="session")
def browser():
    executable = chromium_executable()
    if executable is None:
        pytest.fail(
            "the browser tests need Chromium: run tools/ensure-browser (`make test` does), "
            "or point $CHROMIUM at a Chromium binary",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def session_reader(browser, server):
    context = browser.new_context(
        viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"]
    )
    context.set_default_timeout(10_000)
    yield Reader(context, server)
    context.close()


@pytest.fixture
def reader(session_reader):
    """The worker's browser tab, at desktop width in the light scheme."""
    return session_reader.setup()
