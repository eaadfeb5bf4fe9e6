"""Make notebook pages as light as the others: what mkdocs-jupyter inlines, trimmed or moved.

nbconvert's template inlines all of JupyterLab's CSS (about 570 kB) into every notebook page,
and every plot as a base64 `data:` URI: a notebook page weighed 780 kB (160 kB gzipped) and
scored 88 for performance in Lighthouse's mobile emulation, against 95 and more for the
Markdown pages. On each notebook page this hook

- drops the CSS rules of that stylesheet that can match nothing on the page: selectors that
  need a class no element has (classes inside `:not()` do not count; `:is()`, `:where()`,
  `:has()` and escaped selectors are kept), and `.x :root`, which matches nothing;
- writes each `data:` image to a file next to the page, named by its content, and links it,
  with the PNG's width and height so that nothing moves when it arrives.

The page looks the same (tools/audit.py and tests/test_notebook_assets.py check it).
"""

import base64
import hashlib
import re
import struct
from pathlib import Path

WRAPPER = 'class="jupyter-wrapper'
STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.DOTALL)
CLASS_ATTR = re.compile(r'\bclass="([^"]*)"')
CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)")
DATA_IMG = re.compile(
    r'(<img\b[^>]*?\bsrc=")data:image/(png|jpeg|gif|webp|svg\+xml);base64,([A-Za-z0-9+/=\s]+)"'
)
SUFFIX = {"png": ".png", "jpeg": ".jpg", "gif": ".gif", "webp": ".webp", "svg+xml": ".svg"}
KEEP_WHOLE = ("@font-face", "@keyframes", "@-webkit-keyframes", "@page", "@property")


def _scan(css, i):
    """(index, character) from i on, strings and comments skipped."""
    n = len(css)
    while i < n:
        c = css[i]
        if c in "\"'":
            j = i + 1
            while j < n and css[j] != c:
                j += 2 if css[j] == "\\" else 1
            i = j + 1
            continue
        if css.startswith("/*", i):
            j = css.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        yield i, c
        i += 1


def _head_end(css, i):
    """Index of the `{` or `;` that ends the prelude starting at i."""
    paren = 0
    for j, c in _scan(css, i):
        if c == "(":
            paren += 1
        elif c == ")":
            paren -= 1
        elif paren == 0 and c in "{;":
            return j
    return len(css)


def _block_end(css, i):
    """Index of the `}` that closes the block whose content starts at i."""
    depth = 0
    for j, c in _scan(css, i):
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return j
            depth -= 1
    return len(css)


def _selectors(prelude):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(prelude):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return parts


def can_match(selector, classes):
    """False when the selector surely matches no element of a page with these classes."""
    if re.search(r"\s:root\b", selector):
        return False
    if "\\" in selector or re.search(r":(is|where|has|matches|-webkit-any)\(", selector):
        return True
    required = re.sub(r":not\([^()]*\)", "", selector)
    return all(name in classes for name in CLASS.findall(required))


def prune_css(css, classes):
    """The stylesheet without the rules that can match nothing on the page."""
    out, i, n = [], 0, len(css)
    while i < n:
        while i < n and css[i] in " \t\r\n;":
            i += 1
        if i >= n:
            break
        if css.startswith("/*", i):
            end = css.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        brace = _head_end(css, i)
        if brace >= n:  # a dangling prelude: leave it as it is
            out.append(css[i:])
            break
        prelude = css[i:brace]
        if css[brace] == ";":  # @charset, @import, @namespace
            out.append(css[i : brace + 1])
            i = brace + 1
            continue
        close = _block_end(css, brace + 1)
        body = css[brace + 1 : close]
        if prelude.lstrip().startswith("@"):
            if prelude.lstrip().startswith(KEEP_WHOLE) or "{" not in body:
                out.append(f"{prelude}{{{body}}}")
            else:
                inner = prune_css(body, classes)
                if inner.strip():
                    out.append(f"{prelude}{{{inner}}}")
        else:
            kept = [s for s in _selectors(prelude) if can_match(s, classes)]
            if kept:
                out.append(",".join(kept) + "{" + body + "}")
        i = close + 1
    return "".join(out)


def page_classes(html):
    return {name for attr in CLASS_ATTR.findall(html) for name in attr.split()}


def png_size(data):
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    return None


def move_images(html, folder):
    """`data:` images written to `folder` (named by their content) and linked relatively."""

    def to_file(match):
        start, kind, encoded = match.groups()
        data = base64.b64decode("".join(encoded.split()))
        name = hashlib.sha256(data).hexdigest()[:16] + SUFFIX[kind]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
        size = png_size(data)
        dimensions = ""
        if size and not re.search(r"\b(width|height)=", start):
            dimensions = f' width="{size[0]}" height="{size[1]}"'
        return f'{start}{name}"{dimensions}'

    return DATA_IMG.sub(to_file, html)


def lighten(html, folder):
    if WRAPPER not in html:
        return html
    classes = page_classes(html)
    html = STYLE.sub(
        lambda m: (
            m.group(1) + prune_css(m.group(2), classes) + m.group(3)
            if ".jupyter-wrapper" in m.group(2)
            else m.group(0)
        ),
        html,
    )
    return move_images(html, folder)


def on_post_page(output, page, config):
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    return lighten(output, Path(page.file.abs_dest_path).parent)
