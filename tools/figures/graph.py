"""The backward graph of a live tensor as a static SVG: boxes, lines and text only.

The graph is walked with the page's own `walk` and `label`, the functions that
snippets/autograd/graph_walker.pycon defines and runs: the picture is drawn by the code the
page shows. The pages show these files as images, so a graph costs no script and no request
to another host. `python -m tools.figures` redraws them.
"""

from html import escape

from tools.figures import snippet


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
