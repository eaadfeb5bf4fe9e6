"""Half of the pages, opened in Chromium in Chinese first, then their twin and back
(the checks are in every_page.py; test_pages_en.py has the other half)."""

import pytest

from tests.browser.every_page import check_twins, page_params


@pytest.mark.parametrize("page", page_params(1))
def test_page_and_its_twin_read_clean_and_switch_language(reader, site, page):
    check_twins(reader, site, "zh", page)
