"""docs/assets/figures/strides[.zh].svg: one block of memory read three ways, and a copy
(snippets/operations/strides.pycon).

`x`, `v = x.view(2, 6)`, `t = x.T` and `c = t.contiguous()` are the snippet's tensors after
it ran. Each is drawn as the table it prints, with its own `stride()` as the two steps: one
column to the right, one row down. Which memory a tensor reads is asked of the tensor
(`untyped_storage().data_ptr()`), and the strips show the two blocks of memory as they are.
"""

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, SANS, cell, grid, line, svg, text

LABELS = {
    "en": {
        "shared": "memory of {names}",
        "own": "memory of {name}: a copy",
        "stride": "stride {stride}",
    },
    "zh": {
        "shared": "{names} 共用的内存",
        "own": "{name} 自己的内存（复制出来的）",
        "stride": "步幅 {stride}",
    },
}
CELL = 28


def _memory(t):
    """The elements of t's memory block, in memory order (t's storage as a tensor)."""
    import torch

    return torch.tensor([], dtype=t.dtype).set_(t.untyped_storage())


def _panel(name, code, t, x0, y0, words, colours):
    """Header (code and strides), the step arrows, the table; returns (parts, bottom)."""
    row_step, col_step = t.stride()
    parts = [
        text(x0, y0, code, anchor="start", weight="bold"),
        text(
            x0,
            y0 + 18,
            words["stride"].format(stride=t.stride()),
            "muted",
            size=FONT_MIN,
            anchor="start",
        ),
    ]
    top, left = y0 + 44, x0 + 34
    # one step right: + the column stride; one step down: + the row stride
    parts.append(line(left + CELL / 2, top - 9, left + 1.5 * CELL, top - 9, "edge", "edge"))
    parts.append(
        text(left + 1.5 * CELL + 6, top - 4, f"+{col_step}", anchor="start", size=FONT_MIN)
    )
    parts.append(line(left - 9, top + CELL / 2, left - 9, top + 1.5 * CELL, "edge", "edge"))
    parts.append(text(left - 14, top + 1.5 * CELL + 4, f"+{row_step}", anchor="end", size=FONT_MIN))
    parts += grid(t, left, top, CELL, CELL, *colours)
    return parts, top + t.shape[0] * CELL


def _strip(t, x0, y0, label, colours):
    memory = _memory(t)
    parts = [text(x0, y0, label, "muted", anchor="start", font=SANS, size=FONT_MIN)]
    for i, value in enumerate(memory.tolist()):
        parts.append(cell(x0 + i * CELL, y0 + 8, CELL, CELL, f"{value:g}", *colours))
    return parts


def render(lang="en"):
    page = snippet("operations/strides.pycon")
    x, v, t, c = page["x"], page["v"], page["t"], page["c"]
    words = LABELS[lang]
    blue, orange = ("blue", "blue-edge", "ink"), ("orange", "orange-edge", "ink")
    block = x.untyped_storage().data_ptr()
    sharing = [n for n in "xvtc" if page[n].untyped_storage().data_ptr() == block]
    own = [n for n in "xvtc" if n not in sharing]
    if sharing != ["x", "v", "t"] or own != ["c"]:
        raise AssertionError(f"the snippet's tensors share memory differently: {sharing}")
    names = "、".join(sharing) if lang == "zh" else ", ".join(sharing[:-1]) + " and " + sharing[-1]

    parts = _strip(x, 12, 18, words["shared"].format(names=names), blue)
    y_row1, right = 86, 190
    panel, bottom1 = _panel("x", "x", x, 12, y_row1, words, blue)
    parts += panel
    panel, bottom2 = _panel("v", "v = x.view(2, 6)", v, right, y_row1, words, blue)
    parts += panel
    y_row2 = max(bottom1, bottom2) + 34
    panel, bottom3 = _panel("t", "t = x.T", t, 12, y_row2, words, blue)
    parts += panel
    panel, bottom4 = _panel("c", "c = t.contiguous()", c, right, y_row2, words, orange)
    parts += panel
    y_strip = max(bottom3, bottom4) + 32
    parts += _strip(c, 12, y_strip, words["own"].format(name="c"), orange)
    width = max(12 + x.numel() * CELL, right + 34 + v.shape[1] * CELL) + 12
    height = y_strip + 8 + CELL + 10
    title = (
        f"x {tuple(x.shape)} stride {x.stride()}; v = x.view(2, 6) stride {v.stride()}; "
        f"t = x.T stride {t.stride()}; c = t.contiguous() stride {c.stride()}, new memory"
    )
    return svg(width, height, title, parts, lang=lang, markers=("edge",))
