"""docs/assets/figures/digits.svg (and .zh.svg): the first project's digits, from its run.

Everything comes from the namespace of snippets/lab/digits_train.pycon after it trained: the
first test image of each digit with its label, then every test image the model got wrong,
as `label → prediction`. Each 8 × 8 image is drawn pixel by pixel in the page's ink colour,
its darkness the pixel's value, so the digits are dark on the light scheme and light on the
dark one.
"""

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, svg, text

PIXEL = 4  # side of one image pixel in the drawing
STEP = 40  # from one image to the next: 32 px of image and a gap
MARGIN = 10
PER_ROW = 10
WORDS = {
    "en": ("A test image of each digit, with its label", "mistakes: label → prediction"),
    "zh": ("每个数字的一张测试图像及其标签", "个错误：标签 → 预测"),
}


def _image(pixels, x, y, label):
    parts = [
        f'<rect x="{x + j * PIXEL}" y="{y + i * PIXEL}" width="{PIXEL}" height="{PIXEL}" '
        f'class="ink" fill-opacity="{float(pixels[i * 8 + j]):.2f}"/>'
        for i in range(8)
        for j in range(8)
        if pixels[i * 8 + j] > 0
    ]
    parts.append(f'<rect x="{x}" y="{y}" width="32" height="32" fill="none" class="edge"/>')
    return parts + [text(x + 16, y + 52, label, size=FONT_MIN)]


def _rows(items, y):
    """(pixels, label) items as rows of PER_ROW images from y; the parts and the next y."""
    parts = []
    for n, (pixels, label) in enumerate(items):
        row, col = divmod(n, PER_ROW)
        parts += _image(pixels, MARGIN + col * STEP + 4, y + row * 64, label)
    return parts, y + 64 * -(-len(items) // PER_ROW)


def render(lang):
    run = snippet("lab/digits_train.pycon")
    X, y, test, predicted, wrong = (run[k] for k in ("X", "y", "test", "predicted", "wrong"))
    first = [next(i for i in test.tolist() if y[i] == d) for d in range(10)]
    examples = [(X[i], str(d)) for d, i in enumerate(first)]
    mistakes = [(X[test[i]], f"{y[test[i]]}→{predicted[i]}") for i in wrong.tolist()]
    shown, mistaken = WORDS[lang]
    heading = f"{len(mistakes)} {mistaken}"
    parts = [text(MARGIN, 28, shown, anchor="start")]
    top, y0 = _rows(examples, 40)
    parts += ['<g shape-rendering="crispEdges">', *top]
    bottom, end = _rows(mistakes, y0 + 40)
    parts += [*bottom, "</g>", text(MARGIN, y0 + 28, heading, anchor="start")]
    title = f"{shown}; {heading}"
    return svg(2 * MARGIN + PER_ROW * STEP, end, title, parts, lang=lang)
