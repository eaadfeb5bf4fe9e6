"""Chinese text: the reader's system fonts through a CJK-aware stack, no web fonts."""

import re

AUTOGRAD = "autograd/computation-graph.md"
# Simplified Chinese system fonts named in docs/assets/site.css
CHINESE_FONTS = re.compile(
    r"PingFang SC|Hiragino Sans GB|Microsoft YaHei|Noto Sans CJK SC|Source Han Sans (SC|CN)"
    r"|WenQuanYi|Chinese Punctuation"
)


# Two animation frames after the fonts are ready: the specimen is laid out and painted.
PAINTED = """async () => {
  await document.fonts.ready
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))
}"""


def platform_fonts(reader, selector):
    """{font family: glyph count} that Chromium really used to draw an element's text.

    Asked again after each painted frame (up to 30) while Chromium reports none: right after
    a font is installed, its first use can take a frame or more (the fresh-machine flake)."""
    cdp = reader.context.new_cdp_session(reader.page)
    try:
        cdp.send("DOM.getDocument", {"depth": 0})
        cdp.send("CSS.enable")  # after the DOM agent
        for _ in range(30):
            reader.page.evaluate(PAINTED)
            root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
            node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})
            fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
            if fonts:
                break
        return {f["familyName"]: f["glyphCount"] for f in fonts}
    finally:
        cdp.detach()


def test_chinese_text_uses_a_chinese_system_font_and_line_height(reader):
    """One load of a Chinese page: its line heights, then a specimen of every kind of text."""
    url = reader.server.url("zh", AUTOGRAD)
    reader.open(url, ready=False)
    line_height_suits_chinese_prose_and_code(reader, url)
    page = reader.page
    # a test paragraph: Chinese, Chinese quotes and dashes, Latin
    page.evaluate(
        """() => {
          const p = document.createElement("p")
          p.id = "type-specimen"
          p.innerHTML = '<span id="hanzi">计算图与梯度</span> <span id="marks">“——”……</span>'
            + ' <span id="latin">backward</span>'
          document.querySelector("article").prepend(p)
        }"""
    )
    hanzi = platform_fonts(reader, "#hanzi")
    assert hanzi and all(CHINESE_FONTS.search(f) for f in hanzi), (
        f"{url}: Chinese text is drawn with {hanzi}, not a Simplified Chinese system font "
        f"of the stack in docs/assets/site.css (is fonts-noto-cjk installed?)"
    )
    marks = platform_fonts(reader, "#marks")
    assert marks and all(CHINESE_FONTS.search(f) for f in marks), (
        f"{url}: Chinese quotes and dashes are drawn with {marks} (half-width Latin glyphs)"
    )
    latin = platform_fonts(reader, "#latin")
    assert not any(CHINESE_FONTS.search(f) for f in latin), (
        f"{url}: Latin text is drawn with {latin}: the Latin fonts should come first"
    )


def line_height_suits_chinese_prose_and_code(reader, url):
    def ratio(selector):
        return reader.page.evaluate(
            """sel => { const s = getComputedStyle(document.querySelector(sel))
                        return parseFloat(s.lineHeight) / parseFloat(s.fontSize) }""",
            selector,
        )

    prose, code = ratio("article > p"), ratio("article pre > code")
    assert 1.7 <= prose <= 1.9, f"{url}: Chinese prose line height {prose:.2f} (want about 1.8)"
    assert 1.3 <= code <= 1.5, f"{url}: code line height {code:.2f} (want about 1.4)"
    mono = reader.page.evaluate(
        "getComputedStyle(document.querySelector('article pre > code')).fontFamily"
    )
    assert "Noto Sans Mono CJK SC" in mono and "monospace" in mono, f"{url}: code font {mono}"
