"""docs/assets/figures/broadcasting.svg: the two examples of the Broadcasting page.

Every shape and number in the picture is a tensor of the page's snippets, taken from their
namespaces after they ran: `a` and `b` of snippets/operations/broadcast_rule.pycon (their
shapes) and `column` and `row` of snippets/operations/broadcast_values.pycon (their values).
Code and numbers only: one file serves both languages.
"""

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, cell, line, svg, text

CELL = 36
REAL = ("orange", "orange-edge")  # a size or value that is really there
STRETCHED = ("pale", "pale-edge")  # a size 1 or missing dimension, repeated
RESULT = ("amber", "amber-edge")


def _cell(x, y, label, colours, dashed=False, ink="ink"):
    return cell(x, y, CELL, CELL, label, *colours, ink=ink, dashed=dashed, size=15)


def shape_rows(a_shape, b_shape, out_shape, x0, y0):
    """Shapes aligned on their trailing dimension; a stretched size is drawn dashed."""
    ndim = len(out_shape)
    parts = []
    rows = [("a", a_shape), ("b", b_shape), ("a + b", out_shape)]
    for r, (name, shape) in enumerate(rows):
        y = y0 + r * (CELL + 12) + (8 if r == 2 else 0)
        parts.append(text(x0 - 12, y + CELL / 2 + 5, name, anchor="end", weight="bold"))
        padded = (None,) * (ndim - len(shape)) + tuple(shape)
        for d, size in enumerate(padded):
            x = x0 + d * (CELL + 6)
            if r == 2:
                parts.append(_cell(x, y, str(size), RESULT))
            elif size is None:
                parts.append(_cell(x, y, "(1)", STRETCHED, dashed=True, ink="muted"))
            elif size == 1 and out_shape[d] != 1:
                parts.append(_cell(x, y, "1", STRETCHED, dashed=True))
            else:
                parts.append(_cell(x, y, str(size), REAL))
        x_right = x0 + ndim * (CELL + 6) + 8
        parts.append(text(x_right, y + CELL / 2 + 5, _shape(shape), anchor="start"))
        if r == 1:
            line_y = y + CELL + 10
            parts.append(line(x0, line_y, x0 + ndim * (CELL + 6) - 6, line_y, "edge"))
    return parts


def value_grid(t, out_shape, x0, y0, colours):
    """A 2-D grid of out_shape; cells that t really holds are solid, repeats are dashed."""
    view = t.reshape((1,) * (len(out_shape) - t.dim()) + tuple(t.shape))
    full = view.expand(out_shape)
    real, repeated = [], []  # the real cells last: their solid sides stay on top
    for i in range(out_shape[0]):
        for j in range(out_shape[1]):
            label = str(full[i, j].item())
            x, y = x0 + j * CELL, y0 + i * CELL
            if (view.shape[0] > 1 or i == 0) and (view.shape[1] > 1 or j == 0):
                real.append(_cell(x, y, label, colours))
            else:
                repeated.append(_cell(x, y, label, STRETCHED, dashed=True, ink="muted"))
    return repeated + real


def render():
    # Top: the shapes of the rule's a + b, as torch computes them.
    rule = snippet("operations/broadcast_rule.pycon")
    a, b = rule["a"], rule["b"]
    out_shape = (a + b).shape

    # Bottom: the values of the page's (3, 1) column plus its (4,) row, and their sum below.
    values = snippet("operations/broadcast_values.pycon")
    column, row = values["column"], values["row"]
    total = column + row
    grid = tuple(total.shape)
    gw, gh = grid[1] * CELL, grid[0] * CELL

    parts = shape_rows(tuple(a.shape), tuple(b.shape), tuple(out_shape), 70, 12)
    gy = 12 + 3 * (CELL + 12) + 8 + 30
    xs = [12, 12 + gw + 34]
    parts += value_grid(column, grid, xs[0], gy, REAL)
    parts += value_grid(row, grid, xs[1], gy, REAL)
    parts.append(text(xs[1] - 17, gy + gh / 2 + 8, "+", size=24, weight="bold"))
    for x, t in zip(xs, (column, row)):
        parts.append(text(x + gw / 2, gy + gh + 20, _shape(t.shape), "muted", size=FONT_MIN))
    ty = gy + gh + 44
    tx = xs[1]
    parts += value_grid(total, grid, tx, ty, RESULT)
    parts.append(text(tx - 17, ty + gh / 2 + 8, "=", size=24, weight="bold"))
    parts.append(text(tx + gw / 2, ty + gh + 20, _shape(total.shape), "muted", size=FONT_MIN))
    width = xs[1] + gw + 12
    height = ty + gh + 30
    title = (
        f"{_shape(a.shape)} + {_shape(b.shape)} → {_shape(out_shape)}; "
        f"{_shape(column.shape)} + {_shape(row.shape)} → {_shape(total.shape)}"
    )
    return svg(width, height, title, parts)


def _shape(shape):
    return repr(tuple(shape))
