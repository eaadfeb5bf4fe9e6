"""docs/assets/figures/edges-kinks.svg: four functions with a corner at 0, and the slope
PyTorch returns there (snippets/autograd/edges_kinks.pycon).

Each curve is the function computed on real tensors; the orange segment through the corner
has the slope the snippet's own `grad_at` gets from `backward()` at 0: 0 for relu, abs and
clamp with a number as its bound, 0.5 with a tensor as its bound.
"""

import torch

from tools.figures import snippet
from tools.figures.draw import cell, line, rect, svg, text

PANELS = [  # (label, function): the snippet's expressions
    ("relu(x)", torch.relu),
    ("abs(x)", torch.abs),
    ("clamp(min=0.0)", lambda x: x.clamp(min=0.0)),
    ("clamp(min=zeros)", lambda x: x.clamp(min=torch.zeros_like(x))),
]


def render():
    grad_at = snippet("autograd/edges_kinks.pycon")["grad_at"]
    w, h, plot_top, plot_h, scale = 200, 170, 30, 96, 40  # scale: px per unit
    parts = []
    for i, (label, f) in enumerate(PANELS):
        x0, y0 = 6 + (i % 2) * (w + 8), 4 + (i // 2) * (h + 8)
        ox, oy = x0 + w / 2, y0 + plot_top + plot_h - 16  # the origin
        xs = torch.linspace(-2.0, 2.0, 81)
        ys = f(xs)
        slope = float(grad_at(f, [0.0]))
        points = " ".join(f"{ox + a * scale:g},{oy - b * scale:g}" for a, b in zip(xs, ys))
        parts += [
            rect(x0, y0, w, h, "grey", "edge", rx=6, width=1),
            text(ox, y0 + 20, label, "ink", size=14),
            line(x0 + 12, oy, x0 + w - 12, oy, "edge", width=1),
            line(ox, y0 + plot_top, ox, oy + 10, "edge", width=1),
            f'<polyline points="{points}" class="blue-edge" fill="none" stroke-width="2.5"/>',
            line(
                ox - 1.1 * scale,
                oy + 1.1 * scale * slope,
                ox + 1.1 * scale,
                oy - 1.1 * scale * slope,
                "orange-edge",
                width=3,
            ),
            f'<circle cx="{ox:g}" cy="{oy:g}" r="4.5" class="orange-arrow"/>',
            cell(
                x0 + 30,
                y0 + h - 36,
                w - 60,
                26,
                f"grad(0) = {slope:g}",
                "orange",
                "orange-edge",
                "orange-ink",
            ),
        ]
    width, height = 2 * w + 20, 2 * h + 16
    title = "; ".join(f"{label}: grad(0) = {float(grad_at(f, [0.0])):g}" for label, f in PANELS)
    return svg(width, height, title, parts)
