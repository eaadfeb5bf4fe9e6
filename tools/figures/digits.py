"""docs/assets/figures/digits.svg (and .zh.svg), from the run of snippets/lab/digits_train.pycon:
the first test image of each digit with its label, then each test image the trained model
got wrong, as `label→prediction`. A pixel is the ink colour of the page's scheme at the
pixel's value as opacity: dark digits on the light scheme, light ones on the dark."""

from tools.figures import snippet
from tools.figures.draw import FONT_MIN, svg, text

PIXEL, STEP, MARGIN, PER_ROW = 4, 40, 10, 10  # an 8 × 8 image is 32 px, one every 40 px
WORDS = {
    "en": ("A test image of each digit, with its label", "mistakes: label → prediction"),
    "zh": ("每个数字的一张测试图像及其标签", "个错误：标签 → 预测"),
}


def _rows(items, y):
    """(pixels, label) items as rows of PER_ROW images from y: the parts and the next y."""
    parts = []
    for n, (pixels, label) in enumerate(items):
        x, top = MARGIN + 4 + n % PER_ROW * STEP, y + n // PER_ROW * 64
        parts += [
            f'<rect x="{x + j * PIXEL}" y="{top + i * PIXEL}" width="{PIXEL}" height="{PIXEL}" '
            f'class="ink" fill-opacity="{float(pixels[i * 8 + j]):.2f}"/>'
            for i in range(8)
            for j in range(8)
            if pixels[i * 8 + j] > 0
        ]
        parts.append(f'<rect x="{x}" y="{top}" width="32" height="32" fill="none" class="edge"/>')
        parts.append(text(x + 16, top + 52, label, size=FONT_MIN))
    return parts, y + 64 * -(-len(items) // PER_ROW)


def render(lang):
    run = snippet("lab/digits_train.pycon")
    X, y, test, predicted, wrong = (run[k] for k in ("X", "y", "test", "predicted", "wrong"))
    first = [next(i for i in test.tolist() if y[i] == d) for d in range(10)]
    mistakes = [(X[test[i]], f"{y[test[i]]}→{predicted[i]}") for i in wrong.tolist()]
    shown, heading = WORDS[lang][0], f"{len(mistakes)} {WORDS[lang][1]}"
    top, y0 = _rows([(X[i], str(d)) for d, i in enumerate(first)], 40)
    bottom, end = _rows(mistakes, y0 + 40)
    parts = [
        text(MARGIN, 28, shown, anchor="start"),
        text(MARGIN, y0 + 28, heading, anchor="start"),
    ]
    parts += ['<g shape-rendering="crispEdges">', *top, *bottom, "</g>"]
    return svg(2 * MARGIN + PER_ROW * STEP, end, f"{shown}; {heading}", parts, lang=lang)
