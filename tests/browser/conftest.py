"""Fixtures of the browser tests: one site server and one Chromium per pytest worker, and the
worker's tab (torch_verified/browser.py: Reader)."""

import pytest

from torch_verified.browser import DESKTOP, Reader, SiteServer, launch


@pytest.fixture(scope="session")
def server(site):
    served = SiteServer(site)
    yield served
    served.close()


@pytest.fixture(scope="session")
def session_reader(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        try:
            browser = launch(playwright)
        except RuntimeError as error:
            pytest.fail(str(error), pytrace=False)
        context = browser.new_context(
            viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"]
        )
        context.set_default_timeout(10_000)
        yield Reader(context, server)
        browser.close()


@pytest.fixture
def reader(session_reader):
    """The worker's browser tab, at desktop width in the light scheme."""
    return session_reader.setup()
