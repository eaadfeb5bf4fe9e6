"""docs/assets/figures/image-layouts.svg: the image that the Tensors chapter builds.

The tensor is not rebuilt here: it is the `img` of snippets/tensors/image_layout.pycon
(channels first, shape (3, H, W)), drawn three ways: its three channel planes as stored,
`img.permute(1, 2, 0)` (channels last, what imshow expects) and `img.reshape(H, W, 3)`
(same shape, scrambled pixels). Every pixel is an SVG rect, so the file is plain text and
the same on every machine. The pixels are the picture's own colours in both schemes; only
the frames and the labels follow the page's. Code only: one file serves both languages.
"""

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, svg, text

PIXEL = 14  # side of one image pixel in the drawing
GAP = 16  # between two pictures
MARGIN = 12
LABEL = 28  # height of the label row under each picture


def _picture(rgb, x, y, label):
    """SVG of an (H, W, 3) tensor with values in [0, 1], its top-left corner at (x, y)."""
    height, width, _ = rgb.shape
    parts = []
    for i in range(height):
        for j in range(width):
            r, g, b = (round(float(v) * 255) for v in rgb[i, j])
            parts.append(
                f'<rect x="{x + j * PIXEL}" y="{y + i * PIXEL}" width="{PIXEL}" '
                f'height="{PIXEL}" fill="#{r:02x}{g:02x}{b:02x}"/>'
            )
    w, h = width * PIXEL, height * PIXEL
    parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="none" class="edge"/>')
    parts.append(text(x + w / 2, y + h + 20, label, size=FONT_MIN))
    return parts


def render():
    """The SVG text: channel planes on top, the two (H, W, 3) versions below."""
    img = snippet("tensors/image_layout.pycon")["img"]
    channels, height, width = img.shape
    w, h = width * PIXEL, height * PIXEL
    size_x = 2 * MARGIN + channels * w + (channels - 1) * GAP
    size_y = 2 * MARGIN + 2 * (h + LABEL) + GAP
    parts = ['<g shape-rendering="crispEdges">']
    for c in range(channels):
        plane = img.new_zeros(height, width, channels)
        plane[:, :, c] = img[c]
        parts += _picture(plane, MARGIN + c * (w + GAP), MARGIN, f"img[{c}]")
    y = MARGIN + h + LABEL + GAP
    half = size_x / 2  # the two bottom pictures, each centred in its half
    parts += _picture(img.permute(1, 2, 0), round(half / 2 - w / 2), y, "img.permute(1, 2, 0)")
    wrong = img.reshape(height, width, channels)
    parts += _picture(
        wrong, round(half * 1.5 - w / 2), y, f"img.reshape({height}, {width}, {channels})"
    )
    parts.append("</g>")
    title = (
        f"img{tuple(img.shape)} shown channel by channel, after permute(1, 2, 0) "
        f"and after reshape({height}, {width}, {channels})"
    )
    return svg(size_x, size_y, title, parts)
