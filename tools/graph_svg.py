"""Draw the backward graph of a live tensor as a static SVG: boxes, lines and text only.

    python -m tools.graph_svg     rewrites docs/assets/figures/<name>.svg for every figure

The pages show these files as images, so a graph costs no script and no request to another
host. `walk` and `label` are also shown, line for line, in snippets/autograd/graph_walker.pycon;
tests/test_graph_figures.py fails when the two drift apart or when a committed figure differs
from what this module draws from PyTorch now.
"""

import sys
from html import escape
from pathlib import Path

import torch

FIGURES_DIR = Path(__file__).resolve().parent.parent / "docs" / "assets" / "figures"


def walk(root):
    """Layers and edges of the backward graph that starts at node root.

    layers maps each node to its longest distance from root, in the order
    the nodes were first met; edges are (node, next node) pairs. Entries of
    next_functions are nodes, not tensors, and None where no gradient is
    needed.
    """
    layers, edges, todo = {root: 0}, [], [root]
    while todo:
        node = todo.pop(0)
        for child, _ in node.next_functions:
            if child is None:
                continue
            if (node, child) not in edges:
                edges.append((node, child))
            if layers.get(child, -1) < layers[node] + 1:
                layers[child] = layers[node] + 1
                todo.append(child)
    return layers, edges


def label(node, leaves):
    """The node's class name; an AccumulateGrad node also names its leaf."""
    name = type(node).__name__
    for leaf_name, leaf in leaves.items():
        if getattr(node, "variable", None) is leaf:
            return f"{name} ({leaf_name})"
    return name


# --- the figures -------------------------------------------------------------------------


def xy_sin():
    """z = x·y + sin(x) at x = 2, y = 3: the graph of the walker example."""
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    return x * y + torch.sin(x), {"x": x, "y": y}


def grow(start):
    """The loop of snippets/autograd/dynamic_graph.pycon: double y until |y| sums to 10 or more."""
    x = torch.tensor([start], requires_grad=True)
    y = x
    while y.abs().sum() < 10:
        y = y * 2
    return y.sum(), {"x": x}


FIGURES = {
    "autograd-xy-sin": xy_sin,
    "autograd-grow-1": lambda: grow(1.0),
    "autograd-grow-3": lambda: grow(3.0),
}


# --- drawing -----------------------------------------------------------------------------

CHAR_W, BOX_H, PAD_X, GAP_X, GAP_Y, MARGIN = 8.4, 34, 14, 28, 46, 16
FILL = {"root": "#ffe0b2", "leaf": "#d7ecff", "node": "#f2f2f2"}
FONT = "Menlo, Consolas, 'DejaVu Sans Mono', monospace"
ARROW = (
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
    'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>'
)


def _ordered_rows(layers, edges):
    """Nodes per layer; below the top, each row is sorted by the mean column of its parents."""
    rows = [[] for _ in range(max(layers.values()) + 1)]
    for node, layer in layers.items():
        rows[layer].append(node)
    column = {node: i for i, node in enumerate(rows[0])}
    for row in rows[1:]:
        parents = {node: [column[a] for a, b in edges if b is node and a in column] for node in row}
        row.sort(key=lambda node: sum(parents[node]) / max(len(parents[node]), 1))
        column.update({node: i for i, node in enumerate(row)})
    return rows


def svg(tensor, leaves):
    """The SVG text of the backward graph of tensor, top (tensor.grad_fn) to bottom (leaves)."""
    layers, edges = walk(tensor.grad_fn)
    rows = _ordered_rows(layers, edges)
    names = {node: label(node, leaves) for node in layers}
    box_w = round(max(len(name) for name in names.values()) * CHAR_W + 2 * PAD_X)
    width = max(len(row) for row in rows) * (box_w + GAP_X) - GAP_X + 2 * MARGIN
    height = len(rows) * (BOX_H + GAP_Y) - GAP_Y + 2 * MARGIN
    where = {}
    for depth, row in enumerate(rows):
        left = (width - (len(row) * (box_w + GAP_X) - GAP_X)) / 2
        for i, node in enumerate(row):
            where[node] = (left + i * (box_w + GAP_X), MARGIN + depth * (BOX_H + GAP_Y))
    size = f'width="{width:.0f}" height="{height:.0f}"'
    box = f'viewBox="0 0 {width:.0f} {height:.0f}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" {size} {box} font-family="{FONT}" font-size="14">',
        ARROW,
        f'<rect {size} fill="#ffffff"/>',
    ]
    for a, b in edges:
        (ax, ay), (bx, by) = where[a], where[b]
        out.append(
            f'<line x1="{ax + box_w / 2:.1f}" y1="{ay + BOX_H:.1f}" x2="{bx + box_w / 2:.1f}" '
            f'y2="{by - 2:.1f}" stroke="#555" stroke-width="1.5" marker-end="url(#arrow)"/>'
        )
    for node, (x, y) in where.items():
        kind = "root" if layers[node] == 0 else "leaf" if hasattr(node, "variable") else "node"
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{box_w}" height="{BOX_H}" rx="6" '
            f'fill="{FILL[kind]}" stroke="#444"/>'
        )
        out.append(
            f'<text x="{x + box_w / 2:.1f}" y="{y + BOX_H / 2 + 5:.1f}" text-anchor="middle" '
            f'fill="#111">{escape(names[node])}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render(name):
    """The SVG text of one registered figure, drawn from PyTorch now."""
    return svg(*FIGURES[name]())


def main():
    FIGURES_DIR.mkdir(parents=True, exist_ok=True)
    for name in FIGURES:
        path = FIGURES_DIR / f"{name}.svg"
        path.write_text(render(name), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
