"""Half of the pages, opened in Chromium in English first, then their twin and back
(the checks are in every_page.py; test_pages_zh.py has the other half)."""

import pytest

from tests.browser.every_page import check_twins, page_params


@pytest.mark.parametrize("page", page_params(0))
def test_page_and_its_twin_read_clean_and_switch_language(reader, site, page):
    check_twins(reader, site, "en", page)
