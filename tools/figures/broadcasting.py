"""docs/assets/figures/broadcasting.svg: the two examples of the Broadcasting page.

Every shape and number in the picture is a tensor of the page's snippets, taken from their
namespaces after they ran: `a` and `b` of snippets/operations/broadcast_rule.pycon (their
shapes) and `column` and `row` of snippets/operations/broadcast_values.pycon (their values).
`python -m tools.figures` redraws it.
"""

from html import escape

from tools.figures import snippet

CELL = 40
INK = "#263238"
REAL = ("#ffccbc", "#bf360c")  # fill, stroke: a size or value that is really there
STRETCHED = ("#fff3e0", "#ff9800")  # a size 1 or missing dimension, repeated
RESULT = ("#ffe0b2", "#e65100")
GHOST_INK = "#9e9e9e"


def _text(x, y, s, size=16, anchor="middle", fill=INK, weight="normal"):
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
        f'font-weight="{weight}">{escape(s)}</text>'
    )


def _cell(x, y, label, colours, dashed=False, ink=INK, w=CELL):
    fill, stroke = colours
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    rect = (
        f'<rect x="{x}" y="{y}" width="{w}" height="{CELL}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="1.5"{dash}/>'
    )
    return rect + _text(x + w / 2, y + CELL / 2 + 6, label, fill=ink)


def shape_rows(a_shape, b_shape, out_shape, x0, y0):
    """Shapes aligned on their trailing dimension; a stretched size is drawn dashed."""
    ndim = len(out_shape)
    parts = []
    rows = [("a", a_shape), ("b", b_shape), ("a + b", out_shape)]
    for r, (name, shape) in enumerate(rows):
        y = y0 + r * (CELL + 14) + (8 if r == 2 else 0)
        parts.append(_text(x0 - 16, y + CELL / 2 + 6, name, anchor="end", weight="bold"))
        padded = (None,) * (ndim - len(shape)) + tuple(shape)
        for d, size in enumerate(padded):
            x = x0 + d * (CELL + 8)
            if r == 2:
                parts.append(_cell(x, y, str(size), RESULT))
            elif size is None:
                parts.append(_cell(x, y, "(1)", STRETCHED, dashed=True, ink=GHOST_INK))
            elif size == 1 and out_shape[d] != 1:
                parts.append(_cell(x, y, "1", STRETCHED, dashed=True))
            else:
                parts.append(_cell(x, y, str(size), REAL))
        x_right = x0 + ndim * (CELL + 8) + 10
        parts.append(_text(x_right, y + CELL / 2 + 6, _shape(shape), size=15, anchor="start"))
        if r == 1:
            line_y = y + CELL + 10
            x_end = x0 + ndim * (CELL + 8) - 8
            parts.append(
                f'<line x1="{x0}" y1="{line_y}" x2="{x_end}" y2="{line_y}" '
                f'stroke="{INK}" stroke-width="1.5"/>'
            )
    return parts


def value_grid(t, out_shape, x0, y0, colours):
    """A 2-D grid of out_shape; cells that t really holds are solid, repeats are dashed."""
    view = t.reshape((1,) * (len(out_shape) - t.dim()) + tuple(t.shape))
    full = view.expand(out_shape)
    parts = []
    for i in range(out_shape[0]):
        for j in range(out_shape[1]):
            real = (view.shape[0] > 1 or i == 0) and (view.shape[1] > 1 or j == 0)
            label = str(full[i, j].item())
            x, y = x0 + j * CELL, y0 + i * CELL
            if real:
                parts.append(_cell(x, y, label, colours))
            else:
                parts.append(_cell(x, y, label, STRETCHED, dashed=True, ink=GHOST_INK))
    return parts


def render():
    # Top: the shapes of the rule's a + b, as torch computes them.
    rule = snippet("operations/broadcast_rule.pycon")
    a, b = rule["a"], rule["b"]
    out_shape = (a + b).shape

    # Bottom: the values of the page's (3, 1) column plus its (4,) row.
    values = snippet("operations/broadcast_values.pycon")
    column, row = values["column"], values["row"]
    total = column + row
    grid = tuple(total.shape)

    width, height = 660, 400
    fonts = "DejaVu Sans Mono, Menlo, Consolas, monospace"
    title = (
        f"{_shape(a.shape)} + {_shape(b.shape)} → {_shape(out_shape)}; "
        f"{_shape(column.shape)} + {_shape(row.shape)} → {_shape(total.shape)}"
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        + f'viewBox="0 0 {width} {height}" font-family="{fonts}" role="img">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" rx="8" fill="#ffffff"/>',
    ]
    parts += shape_rows(tuple(a.shape), tuple(b.shape), tuple(out_shape), 200, 24)

    gy = 230
    gw = grid[1] * CELL
    xs = [30, 30 + gw + 50, 30 + 2 * (gw + 50)]
    parts += value_grid(column, grid, xs[0], gy, REAL)
    parts += value_grid(row, grid, xs[1], gy, REAL)
    parts += value_grid(total, grid, xs[2], gy, RESULT)
    mid = gy + grid[0] * CELL / 2 + 8
    parts.append(_text(xs[1] - 25, mid, "+", size=26, weight="bold"))
    parts.append(_text(xs[2] - 25, mid, "=", size=26, weight="bold"))
    label_y = gy + grid[0] * CELL + 28
    for x, t in zip(xs, (column, row, total)):
        parts.append(_text(x + gw / 2, label_y, _shape(t.shape), size=15))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _shape(shape):
    return repr(tuple(shape))
