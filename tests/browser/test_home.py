"""The home page speaks to a learner first (issue 32): on the first screen of a 390 px phone
and of a desktop, what you will learn and the start of the reading path (its first
chapter), before anything about how the outputs are verified."""

import pytest

from torch_verified.browser import DESKTOP, PHONE
from torch_verified.project import LANGUAGES

FIRST_SCREEN = """() => {
  const top = (e) => e.getBoundingClientRect().top + scrollY
  const chapter = document.querySelector("#start-here ~ ol > li")
  const verification = [...document.querySelectorAll(
    ".md-content a[href*='reference/verification'], .md-content a[href*='reference/check']")]
  return {
    screen: innerHeight,
    intro: top(document.querySelector(".md-content h1 ~ p")),
    chapter: chapter ? top(chapter) + chapter.querySelector("a").offsetHeight : null,
    verification: Math.min(...verification.map(top)),
  }
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_screen_shows_the_course_before_its_verification(reader, lang):
    reader.open(reader.server.url(lang, "index.md"), ready=False)
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        reader.page.set_viewport_size(viewport)
        found = reader.page.evaluate(FIRST_SCREEN)
        where = f"docs/{lang}/index.md at {viewport['width']} px ({name}): {found}"
        assert found["chapter"] is not None, f"{where}: no reading path under #start-here"
        assert found["intro"] < found["chapter"] <= found["screen"], (
            f"{where}: the first chapter of the reading path is not on the first screen"
        )
        assert found["verification"] > found["chapter"], (
            f"{where}: how the outputs are verified comes before the reading path"
        )
    reader.page.set_viewport_size(PHONE)
    reader.screenshot(f"{lang}-home-phone")
