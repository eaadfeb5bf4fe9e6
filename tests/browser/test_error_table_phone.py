"""The error table on a phone (390 px): no sideways scrolling, each row a card whose message
wraps between words, never inside one, with its cause, fix and example link in view. Widened
to a desktop's width, it is a table, as wide as the page.

The audit photographs the page at both widths (artifacts/screenshots/, tools/audit.py).
"""

import pytest

from torch_verified.browser import DESKTOP, PHONE
from torch_verified.project import LANGUAGES

PAGE = "errors/error-table.md"
# The words of code (split at spaces, and after a hyphen, where English may break a line
# too) that the browser drew on two lines: of the messages (in the table and the entries),
# or of all the table's code.
MESSAGES = ".error-message code, h3.error-entry code"
ALL_CODE = ".error-table code, h3.error-entry code"
BROKEN_WORDS = """selector => {
  const broken = []
  for (const code of document.querySelectorAll(selector)) {
    const texts = document.createTreeWalker(code, NodeFilter.SHOW_TEXT)
    for (let node = texts.nextNode(); node; node = texts.nextNode())
      for (const word of node.textContent.matchAll(/[^\\s-]+-?/g)) {
        const range = document.createRange()
        range.setStart(node, word.index)
        range.setEnd(node, word.index + word[0].length)
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)))
        if (lines.size > 1) broken.push(word[0])
      }
  }
  return broken
}"""
# Each card: its cells' labels and the boxes of what a reader must see, in page pixels.
CARDS = """() => [...document.querySelectorAll(".error-table tbody tr")].map(tr => ({
  labels: [...tr.cells].map(td => getComputedStyle(td, "::before").content),
  boxes: [...tr.cells].map(td => td.getBoundingClientRect()).map(r => [r.left, r.right, r.height]),
  link: tr.cells[tr.cells.length - 1].querySelector("a[href^='#']") !== null,
}))"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_error_table_reads_on_a_phone_and_stays_a_table_on_a_wide_screen(reader, lang):
    url = reader.server.url(lang, PAGE)
    visit = reader.setup(PHONE).open(url, ready=False)
    page = reader.page
    assert reader.horizontal_overflow() == 0, (
        f"{url}: {reader.horizontal_overflow()} px wider than a {PHONE['width']} px phone"
    )
    cards = page.evaluate(CARDS)
    assert cards, f"{url}: no error table"
    width = PHONE["width"]
    for number, card in enumerate(cards, 1):
        assert all(label not in ("none", "normal", '""') for label in card["labels"]), (
            f"{url}: card {number} has cells without their column's name: {card['labels']}"
        )
        assert all(
            0 <= left and right <= width and height > 0 for left, right, height in card["boxes"]
        ), f"{url}: card {number} does not fit the screen: {card}"
        assert card["link"], f"{url}: card {number} has no link to its example"
    broken = page.evaluate(BROKEN_WORDS, ALL_CODE)
    assert not broken, f"{url}: these words of code are split over two lines: {broken}"
    assert not visit.problems, visit.report()

    reader.setup(DESKTOP)  # the same page, widened
    table = page.locator(".error-table table")
    assert table.evaluate("el => getComputedStyle(el).display") == "table", (
        f"{url}: the error table is not a table at {DESKTOP['width']} px"
    )
    sideways = table.evaluate(
        "el => el.closest('.md-typeset__scrollwrap').scrollWidth"
        " - el.closest('.md-typeset__scrollwrap').clientWidth"
    )
    assert sideways <= 0, f"{url}: the table scrolls sideways by {sideways} px"
    # Causes and fixes may break a long name of code after a `.` there (torch_verified/errors.py)
    broken = page.evaluate(BROKEN_WORDS, MESSAGES)
    assert not broken, f"{url}: these words of messages are split over two lines: {broken}"
