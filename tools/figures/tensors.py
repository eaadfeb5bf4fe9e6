"""The figures of the Tensors chapter, of reductions and of gather, each drawn from the
tensors of its page's snippet after it ran:

- tensor-parts[.zh].svg: what `x` of snippets/tensors/attributes.pycon carries besides its
  numbers, each value asked of `x` itself;
- numpy-shared[.zh].svg: snippets/tensors/tensor_copies.pycon after `arr[0] = -1.0`; which
  tensor shares the array's memory is asked of the addresses;
- ranges[.zh].svg: `quarters` and `points` of snippets/tensors/ranges.pycon on one line;
- reduce-sum.svg: `x` of snippets/operations/reduce_dim.pycon and its sums over each dim;
- gather.svg: `scores.gather(1, index)` of snippets/operations/gather.pycon, each source
  column in its own colour, so that each result shows the column its index names.
"""

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, SANS, cell, grid, line, svg, text

WORDS = {
    "en": {
        "data": "the numbers: {n} × {dtype}, one block of memory",
        "rows": ("shape", "dtype", "device", "strides", "elements"),
        "after": "after arr[0] = -1.0:",
        "one": "one block of memory",
        "own": "memory of its own",
        "excluded": "end 1 not included",
        "included": "{n} points, both ends",
    },
    "zh": {
        "data": "数值：{n} 个 {dtype}，放在一块内存里",
        "rows": ("形状", "数据类型", "设备", "步幅", "元素个数"),
        "after": "执行 arr[0] = -1.0 之后：",
        "one": "同一块内存",
        "own": "各自的内存",
        "excluded": "不含终点 1",
        "included": "{n} 个点，含两端",
    },
}
COLUMNS = [("blue", "blue-edge"), ("amber", "amber-edge"), ("orange", "orange-edge")]


def _label(x, y, s, **kw):
    return text(x, y, s, "muted", size=FONT_MIN, anchor="start", font=SANS, **kw)


def _strip(x0, y, labels, colours):
    return [cell(x0 + i * 40, y, 40, 30, s, *colours) for i, s in enumerate(labels)]


def tensor_parts(lang):
    x, words = snippet("tensors/attributes.pycon")["x"], WORDS[lang]
    dtype = str(x.dtype).removeprefix("torch.")
    parts = [_label(12, 20, words["data"].format(n=x.numel(), dtype=dtype))]
    shown = [f"{v:g}" for v in x.flatten()[:6].tolist()] + ["…"]
    parts += _strip(12, 30, shown, ("blue", "blue-edge"))
    facts = [
        ("x.shape", str(x.shape)),
        ("x.dtype", str(x.dtype)),
        ("x.device", str(x.device)),
        ("x.stride()", str(x.stride())),
        ("x.numel()", str(x.numel())),
    ]
    for i, ((code, value), word) in enumerate(zip(facts, words["rows"])):
        y = 96 + i * 26
        parts += [_label(12, y, word), text(96, y, code, anchor="start", size=FONT_MIN)]
        parts.append(text(186, y, value, "blue-ink", anchor="start", size=FONT_MIN))
    title = f"x {tuple(x.shape)}: its numbers in one block of memory, and its description"
    return svg(410, 96 + 4 * 26 + 14, title, parts, lang=lang)


def numpy_shared(lang):
    page, words = snippet("tensors/tensor_copies.pycon"), WORDS[lang]
    address = page["arr"].ctypes.data
    same = [n for n in ("shared", "copied", "converted") if page[n].data_ptr() == address]
    if same != ["shared"]:
        raise AssertionError(f"the snippet's tensors share memory differently: {same}")

    parts = [_label(12, 18, words["after"])]
    parts += _strip(120, 44, [f"{v:g}" for v in page["arr"].tolist()], ("blue", "blue-edge"))
    for name, y in (("arr", 44), ("shared", 74)):
        parts.append(text(12, y + 5, name, anchor="start", weight="bold"))
        parts.append(line(74, y, 114, 59, "edge", "edge"))
    parts.append(_label(250, 64, words["one"]))
    for i, name in enumerate(("copied", "converted")):
        y = 104 + i * 44
        parts.append(text(12, y + 20, name, anchor="start", weight="bold"))
        parts += _strip(120, y, [f"{v:g}" for v in page[name].tolist()], ("orange", "orange-edge"))
        parts.append(_label(250, y + 20, words["own"]))
    title = "after arr[0] = -1.0: arr and shared read one block of memory; copied and converted have their own"
    return svg(400, 190, title, parts, lang=lang, markers=("edge",))


def ranges(lang):
    page, words = snippet("tensors/ranges.pycon"), WORDS[lang]
    quarters, points = page["quarters"], page["points"]
    left, span = 30, 300

    def row(y, code, values, note, open_end):
        parts = [text(12, y - 26, code, anchor="start", size=FONT_MIN)]
        parts.append(line(left, y, left + span, y))
        for v in values.tolist():
            parts.append(f'<circle cx="{left + v * span:g}" cy="{y}" r="6" class="orange-arrow"/>')
        if open_end:
            parts.append(
                f'<circle cx="{left + span}" cy="{y}" r="6" class="orange-edge" fill="none" '
                'stroke-width="2"/>'
            )
        return parts + [_label(262, y - 26, note)]

    parts = row(50, "torch.arange(0, 1, 0.25)", quarters, words["excluded"], True)
    parts += row(
        120, "torch.linspace(0, 1, steps=5)", points, words["included"].format(n=len(points)), False
    )
    for v in points.tolist():
        parts.append(text(left + v * span, 150, f"{v:g}", "muted", size=FONT_MIN))
    title = f"arange(0, 1, 0.25) gives {quarters.tolist()}; linspace(0, 1, steps=5) gives {points.tolist()}"
    return svg(420, 160, title, parts, lang=lang)


def reduce_sum():
    x = snippet("operations/reduce_dim.pycon")["x"]
    rows, cols, c = *x.shape, 40
    parts = [text(12, 20, f"x {tuple(x.shape)}", anchor="start", size=FONT_MIN)]
    parts += grid(x, 12, 30, c, c)
    by_row, by_col = x.sum(dim=1, keepdim=True), x.sum(dim=0, keepdim=True)
    right, below = 12 + cols * c + 60, 30 + rows * c + 50
    parts.append(
        line(12 + cols * c + 8, 30 + rows * c / 2, right - 8, 30 + rows * c / 2, arrow="edge")
    )
    parts += grid(by_row, right, 30, c, c, "orange", "orange-edge")
    parts.append(text(right, 20, "x.sum(dim=1)", anchor="start", size=FONT_MIN))
    parts.append(
        text(
            right,
            30 + rows * c + 20,
            f"{tuple(x.sum(dim=1).shape)}",
            "muted",
            anchor="start",
            size=FONT_MIN,
        )
    )
    parts.append(
        line(12 + cols * c / 2, 30 + rows * c + 8, 12 + cols * c / 2, below - 8, arrow="edge")
    )
    parts += grid(by_col, 12, below, c, c, "orange", "orange-edge")
    parts.append(
        text(
            12 + cols * c + 10,
            below + 26,
            f"x.sum(dim=0) {tuple(x.sum(dim=0).shape)}",
            anchor="start",
            size=FONT_MIN,
        )
    )
    title = f"x = {x.tolist()}: sum(dim=1) gives {x.sum(dim=1).tolist()}, sum(dim=0) gives {x.sum(dim=0).tolist()}"
    return svg(340, below + c + 10, title, parts, markers=("edge",))


def gather():
    page = snippet("operations/gather.pycon")
    scores = page["scores"]
    index = page["index"]
    out, c = scores.gather(1, index), 40
    parts = []
    for x0, name, t, colour in (
        (12, "scores", scores, lambda i, j: COLUMNS[j]),
        (162, "index", index, lambda i, j: COLUMNS[index[i, j]]),
        (272, "out", out, lambda i, j: COLUMNS[index[i, j]]),
    ):
        parts.append(text(x0, 20, name, anchor="start", weight="bold"))
        for i in range(t.shape[0]):
            for j in range(t.shape[1]):
                parts.append(
                    cell(x0 + j * c, 30 + i * c, c, c, f"{t[i, j].item():g}", *colour(i, j))
                )
    for j in range(3):
        parts.append(text(12 + j * c + c / 2, 30 + 3 * c + 18, f"{j}", "muted", size=FONT_MIN))
    parts.append(
        text(
            12, 30 + 3 * c + 44, "out[i, j] = scores[i, index[i, j]]", anchor="start", size=FONT_MIN
        )
    )
    title = f"scores.gather(1, index) with index {index.tolist()} gives {out.tolist()}"
    return svg(364, 30 + 3 * c + 54, title, parts)
