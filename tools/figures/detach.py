"""docs/assets/figures/detach-version[.zh].svg: `y` and `y.detach()` share one block of
memory and one version counter (snippets/autograd/version_counter.pycon).

The top half is the snippet before `y.detach().zero_()`: y = x.exp(), its grad_fn, its values
and `_version`. The bottom half is after the whole snippet ran: the values and the version
that the write through `y.detach()` left, and what ExpBackward0 now says when the saved
result is unpacked (the versions in its message). That the detached tensor shares the memory
and the counter is asked of a `y.detach()` of the snippet's y.
"""

import re

import torch

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, SANS, cell, line, rect, svg, text

LABELS = {
    "en": {
        "shared": "one memory, one version counter",
        "saved": "{node} saved y at version {saved}; it is now {now}:",
    },
    "zh": {
        "shared": "同一块内存，同一个版本计数器",
        "saved": "{node} 保存 y 时版本是 {saved}，现在是 {now}：",
    },
}
CELL_W, CELL_H = 74, 32


def _value(v):
    """An element as torch prints it alone: 2.7183, 20.0855, 0."""
    return str(torch.tensor(v))[len("tensor(") : -1]


def _box(x, y, w, title, lines):
    parts = [rect(x, y, w, 70, "grey", "edge", rx=6), text(x + w / 2, y + 22, title, weight="bold")]
    for k, s in enumerate(lines):
        parts.append(text(x + w / 2, y + 42 + 18 * k, s, "muted", size=FONT_MIN))
    return parts


def _memory(y, y0, fill, edge, version_cls):
    parts = []
    for i, v in enumerate(y.detach().tolist()):
        parts.append(cell(12 + i * CELL_W, y0, CELL_W, CELL_H, _value(v), fill, edge))
    right = 12 + y.numel() * CELL_W + 12
    parts.append(
        text(
            right,
            y0 + CELL_H / 2 + 5,
            f"_version = {y._version}",
            version_cls,
            anchor="start",
            weight="bold",
        )
    )
    return parts


def render(lang="en"):
    words = LABELS[lang]
    name = "autograd/version_counter.pycon"
    before = snippet(name, before="y.detach().zero_()")["y"]
    after = snippet(name)["y"]
    d = after.detach()
    if d.data_ptr() != after.data_ptr() or d._version != after._version:
        raise AssertionError("y.detach() is expected to share memory and version with y")
    try:
        _ = after.grad_fn._saved_result  # unpacking checks the version
    except RuntimeError as error:
        found = re.search(r"is at version (\d+); expected version (\d+)", str(error))
        now, saved = int(found[1]), int(found[2])
    else:
        raise AssertionError("the saved result of ExpBackward0 is expected to be stale")
    if (saved, now) != (before._version, after._version):
        raise AssertionError(f"versions: saved {saved}, now {now}")
    node = type(after.grad_fn).__name__

    box_w = 180
    parts = _box(12, 12, box_w, "y", [f"grad_fn: {node}", f"requires_grad={before.requires_grad}"])
    parts += _box(
        12 + box_w + 20,
        12,
        box_w,
        "y.detach()",
        [f"grad_fn: {d.grad_fn}", f"requires_grad={d.requires_grad}"],
    )
    strip_y = 124
    strip_mid = 12 + before.numel() * CELL_W / 2
    parts.append(line(12 + box_w / 2, 84, strip_mid - 30, strip_y - 4, "blue-edge", "blue"))
    parts.append(line(12 + box_w * 1.5 + 20, 84, strip_mid + 30, strip_y - 4, "blue-edge", "blue"))
    parts.append(
        text(
            12,
            strip_y + CELL_H + 22,
            words["shared"],
            "muted",
            anchor="start",
            font=SANS,
            size=FONT_MIN,
        )
    )
    parts += _memory(before, strip_y, "blue", "blue-edge", "ink")

    step_y = strip_y + CELL_H + 34
    parts.append(line(strip_mid, step_y, strip_mid, step_y + 40, "edge", "edge"))
    parts.append(
        text(strip_mid + 12, step_y + 26, "y.detach().zero_()", anchor="start", weight="bold")
    )
    after_y = step_y + 46
    parts += _memory(after, after_y, "orange", "orange-edge", "orange-ink")
    note_y = after_y + CELL_H + 28
    parts.append(
        text(
            12,
            note_y,
            words["saved"].format(node=node, saved=saved, now=now),
            "red-ink",
            anchor="start",
            size=FONT_MIN,
        )
    )
    parts.append(
        text(
            12,
            note_y + 22,
            "y.sum().backward() → RuntimeError",
            "red-ink",
            anchor="start",
            weight="bold",
        )
    )
    width = 12 + 2 * box_w + 20 + 12
    title = (
        f"y and y.detach() share memory and _version; after y.detach().zero_(), _version is "
        f"{now} and backward() refuses the value {node} saved at version {saved}"
    )
    return svg(width, note_y + 34, title, parts, lang=lang, markers=("blue", "edge"))
