"""What every figure is drawn with: one palette for the light and the dark scheme, fonts, and
a few shapes.

The pages show the figures as `<img>`, and an image cannot see the page's CSS. What it does
see: inside an SVG image, `prefers-color-scheme` reflects the used `color-scheme` of the
element that embeds it (Media Queries 5, after https://github.com/w3c/csswg-drafts/issues/7213;
Firefox since 105; Chromium 156 does it, tests/test_figures.py checks it on the site), and
Material sets `color-scheme: light` on its default scheme and `dark` on slate. So each SVG
carries its own style block: colours by class, light by default, dark under
`@media (prefers-color-scheme: dark)`, and no background: the page shows through. A browser
that does not pass the page's scheme on follows the reader's system setting, which is also
what Material follows until the reader toggles.

Every figure is at most WIDTH_MAX wide with text of at least FONT_MIN: on a 390 px phone
the page is 358 px wide, so text is shown at 13 × 358 / 420 ≈ 11 px or more
(tests/test_figures.py checks both, and the rendered size in the built site).
"""

from html import escape

WIDTH_MAX = 420
FONT_MIN = 13
PHONE_CONTENT = 358  # px: the width of Material's content column on a 390 px screen

MONO = (
    "'DejaVu Sans Mono', Menlo, Consolas, 'Noto Sans Mono CJK SC', 'PingFang SC', "
    "'Microsoft YaHei', monospace"
)
SANS = (
    "-apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, 'PingFang SC', "
    "'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif"
)

# class -> (property, light value, dark value). Text colours are at least 4.5:1 on the
# page (white; Material's slate #1e2129) and on the fills they sit on.
PALETTE = {
    "ink": ("fill", "#263238", "#e3e5ea"),
    "muted": ("fill", "#5f6b73", "#a3a9b5"),
    "edge": ("stroke", "#607d8b", "#8f97a5"),
    "edge-arrow": ("fill", "#607d8b", "#8f97a5"),
    # blue: what is there (memory, inputs, the forward pass, views)
    "blue": ("fill", "#e3f2fd", "#1a2c45"),
    "blue-edge": ("stroke", "#1565c0", "#64b5f6"),
    "blue-ink": ("fill", "#0d47a1", "#90caf9"),
    "blue-arrow": ("fill", "#1565c0", "#64b5f6"),
    "blue-strong": ("fill", "#bbdefb", "#27507f"),
    # orange (the site's colour): results, gradients, the backward pass, new memory
    "orange": ("fill", "#fbe9e7", "#3d2620"),
    "orange-edge": ("stroke", "#bf360c", "#ff8a65"),
    "orange-ink": ("fill", "#bf360c", "#ffab91"),
    "orange-arrow": ("fill", "#bf360c", "#ff8a65"),
    # amber: a result built from the oranges (broadcasting's a + b)
    "amber": ("fill", "#ffe0b2", "#3b2c14"),
    "amber-edge": ("stroke", "#e65100", "#ffb74d"),
    # pale: a size or value that is not really there (broadcasting's repeats)
    "pale": ("fill", "#fff8ee", "#2a2722"),
    "pale-edge": ("stroke", "#ef8d00", "#c98a3a"),
    # grey: a plain node or cell
    "grey": ("fill", "#eceff1", "#2b2f3a"),
    # violet: a size that must match on both sides (matmul's inner size)
    "violet-ink": ("fill", "#6a1b9a", "#ce93d8"),
    # red: an error
    "red-ink": ("fill", "#b71c1c", "#ff8a80"),
    "red-edge": ("stroke", "#b71c1c", "#ff8a80"),
}


def style():
    light = "".join(f".{c}{{{p}:{v}}}" for c, (p, v, _) in PALETTE.items())
    dark = "".join(f".{c}{{{p}:{v}}}" for c, (p, _, v) in PALETTE.items())
    return f"<style>{light}@media (prefers-color-scheme:dark){{{dark}}}</style>"


def arrow_markers(*colours):
    """Arrowheads `url(#arrow-COLOUR)`, filled by class (a marker takes the document's style)."""
    marks = "".join(
        f'<marker id="arrow-{c}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        f'class="{c}-arrow"/></marker>'
        for c in colours
    )
    return f"<defs>{marks}</defs>"


def svg(width, height, title, parts, font=MONO, size=FONT_MIN + 1, lang=None, markers=()):
    """The SVG text: a transparent picture of `parts`, with its palette and a title."""
    width, height = round(width), round(height)
    if width > WIDTH_MAX:
        raise ValueError(f"a figure {width} px wide is too small to read on a phone")
    lang_attr = f' xml:lang="{lang}"' if lang else ""
    head = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{font}" font-size="{size}" '
            f'role="img"{lang_attr}>'
        ),
        f"<title>{escape(title)}</title>",
        style(),
    ]
    if markers:
        head.append(arrow_markers(*markers))
    return "\n".join(head + list(parts) + ["</svg>"]) + "\n"


def text(x, y, s, cls="ink", size=None, anchor="middle", weight=None, font=None):
    if size is not None and size < FONT_MIN:
        raise ValueError(f"{size} px text is too small to read on a phone: {s!r}")
    attrs = f'x="{x:g}" y="{y:g}" class="{cls}" text-anchor="{anchor}"'
    if size is not None:
        attrs += f' font-size="{size}"'
    if weight:
        attrs += f' font-weight="{weight}"'
    if font:
        attrs += f' font-family="{font}"'
    return f"<text {attrs}>{escape(s)}</text>"


def rect(x, y, w, h, fill="grey", edge="edge", rx=0, dashed=False, width=1.5):
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    corner = f' rx="{rx:g}"' if rx else ""
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{corner} '
        f'class="{fill} {edge}" stroke-width="{width:g}"{dash}/>'
    )


def line(x1, y1, x2, y2, edge="edge", arrow=None, width=1.5, dashed=False):
    """A line; `arrow` names a marker colour of arrow_markers() for its end."""
    end = f' marker-end="url(#arrow-{arrow})"' if arrow else ""
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" class="{edge}" '
        f'stroke-width="{width:g}"{dash}{end}/>'
    )


def cell(x, y, w, h, label, fill="grey", edge="edge", ink="ink", dashed=False, size=None):
    """A box with a label centred in it."""
    size_ = size or FONT_MIN + 1
    return rect(x, y, w, h, fill, edge, dashed=dashed) + text(
        x + w / 2, y + h / 2 + size_ * 0.36, label, ink, size=size
    )


def text_width(s, size, mono=True):
    """About how wide `s` is drawn: CJK characters are square, the others 0.6 em (mono)."""
    wide = sum(1 for ch in s if ord(ch) >= 0x2E80)
    return size * (wide + (len(s) - wide) * (0.6 if mono else 0.58))


def grid(t, x0, y0, w, h, fill="blue", edge="blue-edge", ink="ink", marked=(), mark="orange"):
    """A 2-D tensor as a table of cells w × h, its values printed as torch prints integers;
    the (row, column) pairs in `marked` are filled with the class `mark`."""
    parts = []
    rows, cols = t.shape
    for i in range(rows):
        for j in range(cols):
            colour = mark if (i, j) in marked else fill
            parts.append(
                cell(x0 + j * w, y0 + i * h, w, h, f"{t[i, j].item():g}", colour, edge, ink)
            )
    return parts
