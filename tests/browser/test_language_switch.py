"""The language switch keeps the reader's place (issue 32): the section in the address, or
the section scrolled to (docs/assets/keep-place.js); both languages share heading ids."""

PAGE = "operations/broadcasting.md"
ON_SCREEN = (
    "id => { const r = document.getElementById(id).getBoundingClientRect();"
    " return r.top >= 0 && r.top < innerHeight / 2 }"
)


def switch(reader, lang):
    reader.page.hover(".md-select")
    return reader.follow(reader.page.locator(f"a.md-select__link[hreflang={lang}]").click)


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
    # the third section scrolled to, once the page holds still: a figure or a font that loads
    # after the scroll moves the sections down, and the place on screen is then the section
    # before (seen on a loaded machine); scrolled again until three frames agree
    section = reader.page.evaluate(
        """async () => {
          for (const i of document.images) i.loading = "eager"
          await Promise.all([...document.images].map(i => i.decode().catch(() => 0)))
          await document.fonts.ready
          const h = document.querySelectorAll(".md-content h2[id]")[2]
          const frame = () => new Promise(r => requestAnimationFrame(r))
          for (let still = 0, top = null, n = 0; still < 3 && n < 300; n++) {
            h.scrollIntoView()
            scrollBy(0, 40)
            await frame()
            still = h.getBoundingClientRect().top === top ? still + 1 : 0
            top = h.getBoundingClientRect().top
          }
          return h.id
        }"""
    )
    visit = switch(reader, "en")
    assert visit.url == server.url("en", PAGE) + f"#{section}", (
        f"{server.url('zh', PAGE)} scrolled to #{section}: the switch opened {visit.url}"
    )
    assert reader.page.evaluate(ON_SCREEN, section), f"#{section} is not on the screen"
