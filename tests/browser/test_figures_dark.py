"""The figures as a reader's browser shows them. The audit (tools/audit.py) runs
browser.figure_problems on every page in the dark scheme at a phone's width, in its one visit
of every page; here, that the check passes a page as it is and fails a white panel, in the
harder case of a system set to light and the site switched to dark (the site's toggle, not
the system's setting, must reach the figures)."""

import pytest

from torch_verified.browser import FIGURES, PHONE, figure_problems
from torch_verified.project import LANGUAGES

PAGE = "autograd/computation-graph.md"  # a figure of tools/figures
WHITE = (
    "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' width='300' height='100'>"
    "<rect width='300' height='100' fill='white'/></svg>"
)


def open_dark(reader, lang):
    reader.setup(PHONE, "light")
    reader.open(reader.server.url(lang, PAGE), ready=False)
    tab = reader.page
    if tab.evaluate("document.body.dataset.mdColorScheme") != "slate":
        tab.click("form[data-md-component=palette] label[for='__palette_1']")
    assert tab.evaluate("document.body.dataset.mdColorScheme") == "slate"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_figures_follow_the_dark_scheme_the_reader_picks(reader, lang):
    open_dark(reader, lang)
    assert reader.page.locator(FIGURES).count(), f"docs/{lang}/{PAGE}: no figure found"
    assert figure_problems(reader) == [], f"docs/{lang}/{PAGE}"


def test_the_figure_check_finds_a_white_panel(reader):
    open_dark(reader, "en")
    reader.page.evaluate(
        "src => { const i = document.querySelector(\"article img[src*='assets/figures/']\");"
        " i.setAttribute('src', src + '#assets/figures/white.svg') }",
        WHITE,
    )
    found = figure_problems(reader)
    assert any("light panel" in line for line in found), found
