"""docs/assets/figures/view-or-copy[.zh].svg: basic indexing reads the memory of x, advanced
indexing copies it (snippets/operations/views_write_through.pycon and advanced_copies.pycon).

Top: `x` and `corners = x[::2, ::3]` after the writes of views_write_through.pycon; the cells
of x that corners reads are found from corners' own storage offset and strides. Bottom: `x`
and `rows = x[torch.tensor([0, 2])]` of advanced_copies.pycon after `rows[0, 0] = 999`, before
the assignments that follow; the rows of x it copied are the rows equal to `rows` before that
write. Whether a result shares x's memory is asked of the tensors.
"""

import torch

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, SANS, grid, line, svg, text

LABELS = {
    "en": {
        "view": "basic indexing: a view of x's memory",
        "copy": "advanced indexing: a copy in new memory",
        "changed": "x[{i}, {j}] is {v} too",
        "kept": "x[{i}, {j}] is still {v}",
    },
    "zh": {
        "view": "基本索引：视图，读的就是 x 的内存",
        "copy": "高级索引：副本，放在新的内存里",
        "changed": "x[{i}, {j}] 也变成了 {v}",
        "kept": "x[{i}, {j}] 仍是 {v}",
    },
}
CELL = 34


def _shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def _cells_of(view, x):
    """The (row, column) of x where each element of view lies, from view's strides."""
    if not x.is_contiguous():
        raise AssertionError("x is expected to be contiguous")
    cells = []
    for i in range(view.shape[0]):
        for j in range(view.shape[1]):
            at = view.storage_offset() + i * view.stride(0) + j * view.stride(1)
            cells.append(divmod(at - x.storage_offset(), x.stride(0)))
    return cells


def _panel(
    code, note, note_cls, subtitle, x, x_marked, x_dashed, result, result_colours, result_marked, y0
):
    """Code line, subtitle, x and the result side by side, and the note under them."""
    parts = [
        text(12, y0, code, anchor="start", weight="bold"),
        text(12, y0 + 20, subtitle, "muted", anchor="start", font=SANS, size=FONT_MIN),
    ]
    top = y0 + 40
    parts += grid(x, 12, top, CELL, CELL, marked=x_marked, mark="blue-strong")
    for r in x_dashed:  # the rows a copy was taken from
        parts.append(
            f'<rect x="9" y="{top + r * CELL - 3}" width="{x.shape[1] * CELL + 6}" '
            f'height="{CELL + 6}" class="orange-edge" fill="none" stroke-width="2" '
            'stroke-dasharray="5 3"/>'
        )
    left = 12 + x.shape[1] * CELL + 62
    mid = top + CELL * min(x.shape[0], result.shape[0]) / 2
    parts.append(line(left - 52, mid, left - 10, mid, "edge", "edge"))
    parts += grid(
        result, left, top, CELL, CELL, *result_colours, marked=result_marked, mark="blue-strong"
    )
    bottom = top + max(x.shape[0], result.shape[0]) * CELL
    parts.append(text(12 + x.shape[1] * CELL / 2, bottom + 18, "x", "muted", size=FONT_MIN))
    name = code.split(" = ")[0]
    parts.append(text(left + result.shape[1] * CELL / 2, bottom + 18, name, "muted", size=FONT_MIN))
    parts.append(text(12, bottom + 42, note, note_cls, anchor="start", size=FONT_MIN))
    return parts, bottom + 42


def render(lang="en"):
    words = LABELS[lang]
    views = snippet("operations/views_write_through.pycon")
    x1, corners = views["x"], views["corners"]
    if not _shares(corners, x1):
        raise AssertionError("corners is expected to be a view of x")
    shared = _cells_of(corners, x1)
    written = (1, 1)  # corners[1, 1] = -1, a line of the snippet
    wi, wj = shared[written[0] * corners.shape[1] + written[1]]
    if x1[wi, wj].item() != corners[written].item():
        raise AssertionError("corners and x disagree")
    parts, bottom = _panel(
        "corners = x[::2, ::3]",
        f"corners[1, 1] = {corners[written].item():g} → "
        + words["changed"].format(i=wi, j=wj, v=f"{x1[wi, wj].item():g}"),
        "blue-ink",
        words["view"],
        x1,
        set(shared),
        (),
        corners,
        ("blue-strong", "blue-edge", "ink"),
        (),
        24,
    )

    name = "operations/advanced_copies.pycon"
    fresh = snippet(name, before="rows[0, 0] = 999")
    taken = [
        r
        for r in range(fresh["x"].shape[0])
        for q in fresh["rows"]
        if torch.equal(fresh["x"][r], q)
    ]
    copies = snippet(name, before="x[x > 5] = 0")
    x2, rows = copies["x"], copies["rows"]
    if _shares(rows, x2) or taken != [0, 2]:
        raise AssertionError(f"rows is expected to be a copy of rows [0, 2] of x: {taken}")
    panel, bottom = _panel(
        "rows = x[torch.tensor([0, 2])]",
        f"rows[0, 0] = {rows[0, 0].item():g} → "
        + words["kept"].format(i=0, j=0, v=f"{x2[0, 0].item():g}"),
        "orange-ink",
        words["copy"],
        x2,
        (),
        taken,
        rows,
        ("orange", "orange-edge", "ink"),
        (),
        bottom + 40,
    )
    parts += panel
    width = 12 + 4 * CELL + 62 + 4 * CELL + 12
    title = (
        "corners = x[::2, ::3] reads four cells of x's memory; "
        "rows = x[torch.tensor([0, 2])] is a copy in new memory"
    )
    return svg(width, bottom + 12, title, parts, lang=lang, markers=("edge",))
