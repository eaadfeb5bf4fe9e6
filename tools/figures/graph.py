"""The backward graph of a live tensor as a static SVG: boxes, lines and text only.

The graph is walked with the page's own `walk` and `label`, the functions that
snippets/autograd/graph_walker.pycon defines and runs: the picture is drawn by the code the
page shows. The pages show these files as images, so a graph costs no script and no request
to another host.
"""

from tools.figures import draw, snippet
from tools.figures.draw import line, rect, text


def xy_sin():
    """z = x·y + sin(x) of snippets/autograd/graph_walker.pycon, with its x and y."""
    page = snippet("autograd/graph_walker.pycon")
    return svg(page["z"], {"x": page["x"], "y": page["y"]}, page)


def grow(start):
    """The graph of `grow` of snippets/autograd/dynamic_graph.pycon, from one of the starts
    of its loop."""
    import torch

    x = torch.tensor([start], requires_grad=True)
    return svg(snippet("autograd/dynamic_graph.pycon")["grow"](x), {"x": x})


# --- drawing -----------------------------------------------------------------------------

CHAR_W, BOX_H, PAD_X, GAP_X, GAP_Y, MARGIN = 8.4, 34, 14, 28, 46, 16
FILL = {
    "root": ("orange", "orange-edge"),
    "leaf": ("blue", "blue-edge"),
    "node": ("grey", "edge"),
}


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


def svg(tensor, leaves, page=None):
    """The SVG text of the backward graph of tensor, top (tensor.grad_fn) to bottom (leaves),
    walked and labelled by the `walk` and `label` of the page's walker snippet."""
    page = page or snippet("autograd/graph_walker.pycon")
    walk, label = page["walk"], page["label"]
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
    out = []
    for a, b in edges:
        (ax, ay), (bx, by) = where[a], where[b]
        out.append(
            line(
                ax + box_w / 2,
                round(ay + BOX_H, 1),
                bx + box_w / 2,
                round(by - 2, 1),
                "edge",
                "edge",
            )
        )
    for node, (x, y) in where.items():
        kind = "root" if layers[node] == 0 else "leaf" if hasattr(node, "variable") else "node"
        out.append(rect(round(x, 1), y, box_w, BOX_H, *FILL[kind], rx=6, width=1))
        out.append(text(round(x + box_w / 2, 1), y + BOX_H / 2 + 5, names[node]))
    title = " / ".join(", ".join(names[node] for node in row) for row in rows)
    return draw.svg(width, height, title, out, markers=("edge",))
