"""The keyboard alone reaches the search box and the language switcher; so does the mouse."""

from torch_verified.project import other

AUTOGRAD = "autograd/computation-graph.md"
SEARCH_BOX = "input.md-search__input"
FOCUSED = """() => {
  const el = document.activeElement
  return el ? el.outerHTML.split(">")[0] + ">" : ""
}"""


def the_s_key_opens_search(reader):
    """Material's shortcuts: s, f or / (the search tests type their words after a /)."""
    reader.page.keyboard.press("s")
    assert reader.page.evaluate(f"document.activeElement.matches({SEARCH_BOX!r})"), (
        f"{reader.page.url}: pressing 's' focuses {reader.page.evaluate(FOCUSED)}, not the search box"
    )
    reader.page.wait_for_function("document.getElementById('__search').checked")


def tab_until(reader, selector, limit=30):
    """Press Tab until the focus is on an element matching `selector`; the elements passed."""
    passed = []
    for _ in range(limit):
        reader.page.keyboard.press("Tab")
        if reader.page.evaluate(f"document.activeElement.matches({selector!r})"):
            return passed
        passed.append(reader.page.evaluate(FOCUSED))
    raise AssertionError(f"{reader.page.url}: {limit} Tabs never reach {selector}: {passed}")


def test_tab_reaches_search_and_the_language_switcher(reader):
    server, lang = reader.server, "zh"
    url, twin = server.url(lang, AUTOGRAD), other(lang)
    reader.open(url, ready=False)
    tab_until(reader, f"a.md-select__link[hreflang={twin}]")
    # the focused link shows: the menu opens on focus, it is not an invisible target
    reader.page.wait_for_function(
        "() => getComputedStyle(document.activeElement.closest('.md-select__inner'))"
        ".opacity === '1'"
    )
    visit = reader.follow(lambda: reader.page.keyboard.press("Enter"))
    assert visit.url == server.url(twin, AUTOGRAD) and reader.language() == twin, (
        f"{url}: Enter on the focused language link opened {visit.url}"
    )
    tab_until(reader, f"a.md-select__link[hreflang={lang}]")
    visit = reader.follow(lambda: reader.page.keyboard.press("Enter"))
    assert visit.url == url and reader.language() == lang, (
        f"{server.url(twin, AUTOGRAD)}: Enter on the focused language link opened {visit.url}"
    )
    tab_until(reader, SEARCH_BOX)  # from the top of the page it came back to


def test_the_mouse_switches_language_and_back_and_the_s_key_opens_search(reader):
    """On the page each click opens, in each language, `s` puts the focus in the search box."""
    server = reader.server
    url = server.url("zh", AUTOGRAD)
    reader.open(url, ready=False)
    for lang, target in (("en", server.url("en", AUTOGRAD)), ("zh", url)):
        reader.page.hover(".md-select")
        visit = reader.follow(reader.page.locator(f"a.md-select__link[hreflang={lang}]").click)
        assert visit.url == target and reader.language() == lang, (
            f"clicking the {lang!r} language link opened {visit.url}, not {target}"
        )
        the_s_key_opens_search(reader)
        reader.page.keyboard.press("Escape")
