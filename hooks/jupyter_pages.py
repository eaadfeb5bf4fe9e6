"""The Jupyter notebooks of docs/<lang>/ as pages of their language, as light as the others.

mkdocs-jupyter wraps each .ipynb file as a page (a NotebookFile) in `on_files`. The i18n
plugin runs after it (priority -100) and rebuilds every file as a plain File: the notebooks
are then copied as raw JSON, and the strict build still passes. This hook runs after both
(priority -110) and wraps them again, at the URL a Markdown page at the same path gets,
with the language switcher leading to the twin notebook. On the rendered page it also

- gives each heading the anchor written in the notebook as `## Title <a id="anchor"></a>`
  (the same in both languages; nbconvert would derive `id=""` from a Chinese title),
  in the HTML and in the table of contents, with the permalink of the Markdown pages;
- removes the MathJax and Mermaid loaders of nbconvert's template: they fetch scripts from
  cdnjs.cloudflare.com, and the site loads nothing from other hosts;
- describes each plot (`alt`) with the text written in its code cell's metadata
  (`"alt": "..."`, in the notebook's language) instead of nbconvert's English "No
  description has been provided for this image"; a plot without one fails the strict build;
- sets the page description and track from the notebook's metadata (`"description"`,
  `"status": "deeper"`), as a page's front matter does;
- drops the rules of the inlined JupyterLab stylesheet (about 570 kB) that can match nothing
  on the page, parsed by tinycss2 (what nbconvert's own sanitizer uses): selectors that need
  a class no element has (classes inside `:not()` do not count; `:is()`, `:where()`,
  `:has()` and escaped selectors are kept), and `.x :root`; a notebook page weighed 780 kB
  and scored 88 for performance in Lighthouse before;
- writes each `data:` image to a file next to the page, named by its content, with the PNG's
  width and height so that nothing moves when it arrives.
"""

import base64
import functools
import hashlib
import html as html_text
import json
import os
import re
import struct
from pathlib import Path

import tinycss2
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File
from mkdocs_jupyter.plugin import NotebookFile

from torch_verified.notebooks import with_download_link
from torch_verified.project import LANGUAGES, language_of, root_of
from torch_verified.strings import STRINGS

log = get_plugin_logger("jupyter_pages")
HEADING = re.compile(r'<h([1-6]) id="[^"]*">(.*?)</h\1>', re.DOTALL)
ANCHOR = re.compile(r'\s*<a id="([\w-]+)"\s*(?:/>|>\s*</a>)\s*')
ANCHOR_LINK = re.compile(r'<a class="anchor-link" href="#[^"]*">¶</a>')
HEADERLINK = '<a class="headerlink" href="#{}" title="{}">&para;</a>'  # as on Markdown pages
NO_ALT = 'alt="No description has been provided for this image"'
IMAGE_TYPES = ("image/png", "image/jpeg", "image/svg+xml", "image/gif")
_alts = {}  # src_uri of a notebook page -> the `alt` of its images, in page order
THIRD_PARTY_LOADERS = re.compile(
    r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->"
    r'|<script type="module">(?:(?!</script>).)*?\.jp-Mermaid.*?</script>',
    re.DOTALL,
)


def is_notebook(file):
    return file.src_uri.endswith(".ipynb")


def page_file(path, config):
    """The File of a Markdown page at `path` with .ipynb: its dest_uri and url are ours."""
    return File(
        path.removesuffix(".ipynb") + ".md", None, config.site_dir, config.use_directory_urls
    )


@event_priority(-110)
def on_files(files, config):
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return files
    language = language_of(config)
    for file in [f for f in files if is_notebook(f)]:
        page = NotebookFile(file, **config)
        # i18n already moved the file to its language's place (zh/lab/x/index.html)
        page.dest_uri, page.url, page.abs_dest_path = file.dest_uri, file.url, file.abs_dest_path
        # the language switcher leads to each twin: docs/<lang>/<same path>
        page.alternates = {}
        for lang in LANGUAGES:
            if os.path.isfile(os.path.join(config.docs_dir, lang, file.norm_src_uri)):
                page.alternates[lang] = page_file(root_of(lang) + file.norm_src_uri, config)
        page.alternates[language] = page
        files.remove(file)
        files.append(page)
    # the per-language pages of sitemap.xml
    i18n.i18n_files_per_language[language] = files.documentation_pages()
    return files


def plot_alts(nb):
    """(cell id, its metadata `alt` or None) for each image output, in order."""
    return [
        (cell.get("id"), cell.get("metadata", {}).get("alt"))
        for cell in nb.get("cells", [])
        if cell.get("cell_type") == "code"
        for output in cell.get("outputs", [])
        if any(kind in output.get("data", {}) for kind in IMAGE_TYPES)
    ]


def on_page_markdown(markdown, page, config, files):
    if is_notebook(page.file):
        nb = json.loads(markdown)
        metadata = nb.get("metadata", {})  # a page's front matter, for a notebook
        page.meta.update({k: metadata[k] for k in ("description", "status") if k in metadata})
        _alts[page.file.src_uri] = plot_alts(nb)
    return markdown


def with_alts(html, alts, name):
    """nbconvert's placeholder alt of each image replaced by the cell's, in order."""
    found = html.count(NO_ALT)
    missing = [cell for cell, alt in alts if not alt]
    if missing or found != len(alts):
        log.warning(
            f"docs/{name}: {found} plots, {len(alts) - len(missing)} with a description; "
            'describe each plot for readers who cannot see it: "alt": "..." in the metadata '
            f"of its code cell (cells {missing})"
        )
    for _, alt in alts:
        if alt:
            html = html.replace(NO_ALT, f'alt="{html_text.escape(alt, quote=True)}"', 1)
    return html


def _toc_links(items):
    for item in items:
        yield item
        yield from _toc_links(item.children)


@event_priority(-110)
def on_page_content(html, page, config, files):
    if not is_notebook(page.file):
        return html
    html = THIRD_PARTY_LOADERS.sub("", html)
    html = with_alts(html, _alts.get(page.file.src_uri, []), page.file.src_uri)
    anchors = []

    def with_anchor(match):
        level, inner = match.groups()
        found = ANCHOR.search(inner)
        if not found:
            return match.group(0)
        anchor = found.group(1)
        anchors.append(anchor)
        link = HEADERLINK.format(anchor, STRINGS[language_of(config, page)]["permalink"])
        inner = ANCHOR_LINK.sub(link, ANCHOR.sub("", inner))
        return f'<h{level} id="{anchor}">{inner}</h{level}>'

    html = HEADING.sub(with_anchor, html)
    links = list(_toc_links(page.toc))
    if len(links) != len(anchors):
        log.warning(
            f"docs/{page.file.src_uri}: {len(links)} headings, {len(anchors)} with an anchor; "
            'give each heading one, the same in both languages: `## Title <a id="title"></a>`'
        )
        return html
    for link, anchor in zip(links, anchors, strict=True):
        link.id = anchor
    return with_download_link(html, page.file.src_uri.rsplit("/", 1)[-1], language_of(config, page))


# -- lighter pages --------------------------------------------------------------------------

STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.DOTALL)
CLASS_ATTR = re.compile(r'\bclass="([^"]*)"')
CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)")
DATA_IMG = re.compile(
    r'(<img\b[^>]*?\bsrc=")data:image/(png|jpeg|gif|webp|svg\+xml);base64,([A-Za-z0-9+/=\s]+)"'
)
SUFFIX = {"png": ".png", "jpeg": ".jpg", "gif": ".gif", "webp": ".webp", "svg+xml": ".svg"}
KEEP_WHOLE = {"font-face", "keyframes", "-webkit-keyframes", "page", "property"}


def can_match(selector, classes):
    """False when the selector surely matches no element of a page with these classes."""
    if re.search(r"\s:root\b", selector):
        return False
    if "\\" in selector or re.search(r":(is|where|has|matches|-webkit-any)\(", selector):
        return True
    required = re.sub(r":not\([^()]*\)", "", selector)
    return all(name in classes for name in CLASS.findall(required))


def _selectors(prelude):
    """The selectors of a rule's prelude: split at its top-level commas."""
    parts = [[]]
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        else:
            parts[-1].append(token)
    return [tinycss2.serialize(part) for part in parts]


def prune_rules(rules, classes):
    out = []
    for rule in rules:
        if rule.type == "qualified-rule":
            kept = [s for s in _selectors(rule.prelude) if can_match(s, classes)]
            if kept:
                out.append(",".join(kept) + "{" + tinycss2.serialize(rule.content) + "}")
        elif (
            rule.type == "at-rule"
            and rule.content is not None
            and rule.lower_at_keyword not in KEEP_WHOLE
            and any(t.type == "{} block" for t in rule.content)
        ):
            inner = prune_rules(tinycss2.parse_rule_list(rule.content, True, True), classes)
            if inner.strip():
                out.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{inner}}}")
        else:  # @charset, @import, @font-face, @keyframes ... and what does not parse: kept
            out.append(tinycss2.serialize([rule]))
    return "".join(out)


@functools.cache  # each notebook page carries the same stylesheets (its twin too): pruned once
def prune_css(css, classes):
    """The stylesheet without the rules that can match nothing on the page (`classes`: a
    frozenset of the class names on the page)."""
    return prune_rules(
        tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True), classes
    )


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
    if 'class="jupyter-wrapper' not in html:
        return html
    classes = frozenset(name for attr in CLASS_ATTR.findall(html) for name in attr.split())
    html = STYLE.sub(
        lambda m: m[1] + prune_css(m[2], classes) + m[3] if ".jupyter-wrapper" in m[2] else m[0],
        html,
    )
    return move_images(html, folder)


def on_post_page(output, page, config):
    if not is_notebook(page.file):
        return output
    return lighten(output, Path(page.file.abs_dest_path).parent)
