"""The language switch keeps the reader's place (issue 32): the section in the address, or
the section scrolled to (docs/assets/keep-place.js); both languages share heading ids."""

PAGE = "operations/broadcasting.md"
ON_SCREEN = (
    "id => { const r = document.getElementById(id).getBoundingClientRect();"
    " return r.top >= 0 && r.top < innerHeight / 2 }"
)


def switch(reader, lang):
    """The switcher's link, clicked once its menu is open and still: Playwright retries a click
    during the menu's transition (a loaded machine) with the page scrolled, another place."""
    reader.page.hover(".md-select")
    link = f"a.md-select__link[hreflang={lang}]"
    reader.page.wait_for_function(
        """link => { const a = document.querySelector(link), r = a.getBoundingClientRect()
          return !a.closest(".md-select").getAnimations({ subtree: true }).length
            && document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest("a") === a
        }""",
        arg=link,
    )
    return reader.follow(reader.page.locator(link).click)


def test_the_language_switch_keeps_the_section_and_the_place(reader):
    server = reader.server
    reader.open(server.url("en", PAGE) + "#incompatible", ready=False)
    visit = switch(reader, "zh")
    assert visit.url == server.url("zh", PAGE) + "#incompatible", (
        f"{server.url('en', PAGE)}#incompatible: the switch to Chinese opened {visit.url}"
    )
    assert reader.page.evaluate(ON_SCREEN, "incompatible"), "#incompatible is not on the screen"

    # no section in the address: the one the reader scrolled to
    reader.page.evaluate("history.replaceState(null, '', location.pathname)")
    # every image loaded first: a lazy figure above that loads after the scroll moves the
    # sections down, and the place on screen is then the section before (on a slow machine)
    reader.page.evaluate(
        "() => Promise.all([...document.images].map(i => { i.loading = 'eager';"
        " return i.complete ? 0 : new Promise(r => { i.onload = i.onerror = r }) }))"
    )
    section = reader.page.evaluate(
        "() => { const h = document.querySelectorAll('.md-content h2[id]')[2];"
        " h.scrollIntoView(); scrollBy(0, 40); return h.id }"
    )
    visit = switch(reader, "en")
    assert visit.url == server.url("en", PAGE) + f"#{section}", (
        f"{server.url('zh', PAGE)} scrolled to #{section}: the switch opened {visit.url}"
    )
    assert reader.page.evaluate(ON_SCREEN, section), f"#{section} is not on the screen"
