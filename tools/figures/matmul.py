"""docs/assets/figures/matmul-shapes.svg: the shapes of `x @ w` and of the batched `xs @ ws`
(snippets/operations/matmul_2d.pycon and matmul_batched.pycon).

The shapes are the snippets' tensors' and their products' shapes, computed here with `@`.
A rectangle's sides grow with the sizes they stand for (not in proportion: 10 would be a
sliver next to 128); every side is labelled with its size, and the inner size, which must
be equal on both sides and is gone from the result, is drawn in its own colour. No words:
one file serves both languages.
"""

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, line, rect, svg, text, text_width

DEPTH = 3  # sheets drawn for a batch
SHIFT = 7  # px between two sheets


def _side(n):
    return round(14 + 0.62 * n)


def _label(n, violet):
    return f'<tspan class="violet-ink" font-weight="bold">{n}</tspan>' if violet else str(n)


def _matrix(x0, y0, rows, cols, fill, edge, batch=None, inner=None):
    """A (rows × cols) rectangle, stacked DEPTH deep for a batch, with its sizes on the top
    and the left side; `inner` ("rows" or "cols") is the side drawn in violet.
    Returns (parts, width)."""
    w, h = _side(cols), _side(rows)
    sheets = DEPTH if batch else 1
    stack = (sheets - 1) * SHIFT
    parts = [
        rect(x0 + k * SHIFT, y0 + stack - k * SHIFT, w, h, fill, edge)
        for k in reversed(range(sheets))
    ]
    top = y0 + stack  # the front sheet
    parts.append(
        f'<text x="{x0 + w / 2:g}" y="{y0 - 6:g}" class="ink" text-anchor="middle">'
        f"{_label(cols, inner == 'cols')}</text>"
    )
    parts.append(
        f'<text x="{x0 - 5:g}" y="{top + h / 2 + 5:g}" class="ink" text-anchor="end">'
        f"{_label(rows, inner == 'rows')}</text>"
    )
    return parts, w + stack


def _shape(x, y, batch, rows, cols, inner):
    """The shape as torch writes it, its batch size in blue and the inner size in violet."""
    sizes = [_label(rows, inner == "rows"), _label(cols, inner == "cols")]
    if batch:
        sizes.insert(0, f'<tspan class="blue-ink" font-weight="bold">{batch}</tspan>')
    return (
        f'<text x="{x:g}" y="{y:g}" class="muted" text-anchor="middle" '
        f'font-size="{FONT_MIN}">({", ".join(sizes)})</text>'
    )


def _product(names, shapes, y0, batch=None):
    """a @ b = c in one row, each in a slot wide enough for its labels; (parts, bottom, right)."""
    stack = (DEPTH - 1) * SHIFT if batch else 0
    tallest = max(_side(rows) for rows, _ in shapes) + stack
    top, label_y = y0 + 24, y0 + 24 + tallest + 22
    parts, x = [], 12
    for i, ((rows, cols), name, inner) in enumerate(
        zip(shapes, names, ("cols", "rows", None), strict=True)
    ):
        shape = str((batch, rows, cols) if batch else (rows, cols))
        w = _side(cols) + stack
        half = max(text_width(shape, FONT_MIN), text_width(name, FONT_MIN + 1)) / 2
        centre = x + max(26 + w / 2, half)  # 26: the size label left of the rectangle
        colours = ("orange", "orange-edge") if i == 2 else ("blue", "blue-edge")
        pieces, _ = _matrix(centre - w / 2, top, rows, cols, *colours, batch=batch, inner=inner)
        parts += pieces
        parts.append(text(centre, label_y, name, weight="bold"))
        parts.append(_shape(centre, label_y + 18, batch, rows, cols, inner))
        x = centre + max(w / 2, half)
        if i < 2:
            parts.append(text(x + 14, top + stack + 22, "@="[i], size=20, weight="bold"))
            x += 28
    return parts, label_y + 28, x


def render():
    two = snippet("operations/matmul_2d.pycon")
    x, w = two["x"], two["w"]
    out = (x @ w).shape
    batched = snippet("operations/matmul_batched.pycon")
    xs, ws = batched["xs"], batched["ws"]
    outs = (xs @ ws).shape
    if xs.shape[0] != ws.shape[0] or outs[0] != xs.shape[0]:
        raise AssertionError("one weight matrix per item of the batch, as the page says")
    parts, bottom, right1 = _product(
        ["x", "w", "x @ w"], [tuple(x.shape), tuple(w.shape), tuple(out)], 8
    )
    parts.append(line(12, bottom + 4, right1, bottom + 4, "edge"))
    more, bottom, right2 = _product(
        ["xs", "ws", "xs @ ws"],
        [tuple(xs.shape[1:]), tuple(ws.shape[1:]), tuple(outs[1:])],
        bottom + 14,
        batch=xs.shape[0],
    )
    parts += more
    width = max(right1, right2) + 12
    title = (
        f"x {tuple(x.shape)} @ w {tuple(w.shape)} → {tuple(out)}; "
        f"xs {tuple(xs.shape)} @ ws {tuple(ws.shape)} → {tuple(outs)}"
    )
    return svg(width, bottom + 6, title, parts)
