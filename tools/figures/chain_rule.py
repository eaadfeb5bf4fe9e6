"""docs/assets/figures/autograd-chain-rule[.zh].svg: the forward and the backward pass of
x = 2, y = 3x, z = y·y (snippets/autograd/chain_rule.pycon).

The values are the snippet's tensors, before its `z.backward()` (the graph then still holds
what it saved). The local derivatives on the edges come from calling each node of z's
grad_fn chain with the gradient 1, which is what the backward pass does at that node; the
gradient at x is the `x.grad` the snippet's own `z.backward()` computed, and the figure
checks it is the product of the edges.
"""

import torch

from tools.figures import snippet
from tools.figures.draw import SANS, cell, line, rect, svg, text

LABELS = {
    "en": {"forward": "forward: values", "backward": "backward: gradients"},
    "zh": {"forward": "前向：值", "backward": "反向：梯度"},
}


def _local(node, towards):
    """d(node's output)/d(input), summed over the edges from `node` to `towards`: the
    gradients the node returns for an incoming gradient of 1."""
    grads = node(torch.ones(()))
    grads = grads if isinstance(grads, tuple) else (grads,)
    return sum(
        float(g.detach())
        for g, (fn, _) in zip(grads, node.next_functions, strict=True)
        if fn is towards or getattr(fn, "variable", None) is towards
    )


def _number(v):
    """A value as the page writes it: 2, 6, 36."""
    return f"{v.item() if isinstance(v, torch.Tensor) else v:g}"


def render(lang="en"):
    page = snippet("autograd/chain_rule.pycon", before="z.backward()")
    x, y, z = page["x"], page["y"], page["z"]
    dz_dy = _local(z.grad_fn, y.grad_fn)  # y·y: two edges into y's node, 6 + 6
    dy_dx = _local(y.grad_fn, x)
    x_grad = snippet("autograd/chain_rule.pycon")["x"].grad
    if float(x_grad) != 1.0 * dz_dy * dy_dx:
        raise AssertionError(f"x.grad {x_grad} is not 1 · {dz_dy} · {dy_dx}")

    nodes = [  # top to bottom, in the order the forward pass computes them
        ("x", x, x.grad_fn, f"dz/dx = {_number(x_grad)}"),
        ("y", y, y.grad_fn, f"dz/dy = {_number(dz_dy)}"),
        ("z", z, z.grad_fn, "dz/dz = 1"),
    ]
    edges = [  # (forward label, local derivative) between node i and node i + 1
        ("y = 3·x", f"dy/dx = {_number(dy_dx)}"),
        ("z = y·y", f"dz/dy = {_number(dz_dy)}"),
    ]
    words = LABELS[lang]
    box_x, box_w, box_h, gap, top = 20, 180, 52, 62, 46
    centre = box_x + box_w / 2
    pill_x, pill_w = box_x + box_w + 22, 124
    width = pill_x + pill_w + 8
    parts = [
        text(centre - 26, 20, words["forward"], "blue-ink", anchor="middle", font=SANS),
        text(pill_x + pill_w - 4, 20, words["backward"], "orange-ink", anchor="end", font=SANS),
    ]
    for i, (name, value, fn, grad) in enumerate(nodes):
        y0 = top + i * (box_h + gap)
        fn_name = "None" if fn is None else type(fn).__name__
        parts.append(rect(box_x, y0, box_w, box_h, "blue", "blue-edge", rx=6))
        parts.append(text(centre, y0 + 22, f"{name} = {_number(value)}", weight="bold", size=16))
        parts.append(text(centre, y0 + 42, f"grad_fn: {fn_name}", "muted", size=13))
        parts.append(cell(pill_x, y0 + 12, pill_w, 28, grad, "orange", "orange-edge", "orange-ink"))
        parts.append(line(box_x + box_w + 2, y0 + 26, pill_x - 2, y0 + 26, "orange-edge"))
    for i, (forward, local) in enumerate(edges):
        y_top = top + i * (box_h + gap) + box_h
        y_bottom = y_top + gap
        mid = (y_top + y_bottom) / 2
        parts.append(line(centre - 24, y_top + 3, centre - 24, y_bottom - 3, "blue-edge", "blue"))
        parts.append(
            line(centre + 24, y_bottom - 3, centre + 24, y_top + 3, "orange-edge", "orange")
        )
        parts.append(text(centre - 34, mid + 5, forward, "blue-ink", anchor="end"))
        parts.append(text(centre + 34, mid + 5, local, "orange-ink", anchor="start"))
    height = top + 3 * box_h + 2 * gap + 10
    title = (
        f"x = {_number(x)} → y = {_number(y)} → z = {_number(z)}; "
        f"dz/dx = 1 · {_number(dz_dy)} · {_number(dy_dx)} = {_number(x_grad)}"
    )
    return svg(width, height, title, parts, lang=lang, markers=("blue", "orange"))
