"""Screenshots of the Chinese pages (the checks are in screenshots.py)."""

from tests.browser.screenshots import parametrize, screenshot


@parametrize
def test_screenshot(reader, page, viewport, scheme):
    screenshot(reader, "zh", page, viewport, scheme)
