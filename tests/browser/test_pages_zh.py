"""Every Chinese page, opened in Chromium (the checks are in every_page.py)."""

import pytest

from tests.browser.every_page import check_page, page_params


@pytest.mark.parametrize("page", page_params("zh"))
def test_page_reads_clean_and_switches_language(reader, site, page):
    check_page(reader, site, "zh", page)
