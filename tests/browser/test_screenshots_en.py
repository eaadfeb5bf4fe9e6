"""Screenshots of the English pages (the checks are in screenshots.py)."""

from tests.browser.screenshots import parametrize, screenshot


@parametrize
def test_screenshot(reader, page, viewport, scheme):
    screenshot(reader, "en", page, viewport, scheme)
