"""Render the Jupyter notebooks in docs/<lang>/ as pages of their language.

mkdocs-jupyter wraps each .ipynb file as a page (a NotebookFile) in `on_files`. The i18n
plugin runs after it (priority -100) and rebuilds every file as a plain File: the notebooks
are then copied as raw JSON, and the strict build still passes. This hook runs after both
(priority -110) and wraps them again, at the URL a Markdown page at the same path gets,
with the language switcher leading to the twin notebook.

On the rendered page it also
- gives each heading the anchor written in the notebook as `## Title <a id="anchor"></a>`
  (the same in both languages; nbconvert would derive `id=""` from a Chinese title),
  in the HTML and in the table of contents, with the permalink of the Markdown pages;
- removes the MathJax and Mermaid loaders of nbconvert's template: they fetch scripts from
  cdnjs.cloudflare.com, and the site loads nothing from other hosts;
- describes each plot (`alt`) with the text written in its code cell's metadata
  (`"alt": "..."`, in the notebook's language) instead of nbconvert's English "No
  description has been provided for this image"; a plot without one fails the strict build;
- sets the page description from the notebook's metadata (`"description"`).
"""

import html as html_text
import json
import os
import re

from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File
from mkdocs_jupyter.plugin import NotebookFile

log = get_plugin_logger("notebooks")
HEADING = re.compile(r'<h([1-6]) id="[^"]*">(.*?)</h\1>', re.DOTALL)
ANCHOR = re.compile(r'\s*<a id="([\w-]+)"\s*(?:/>|>\s*</a>)\s*')
ANCHOR_LINK = re.compile(r'<a class="anchor-link" href="#[^"]*">¶</a>')
HEADERLINK = '<a class="headerlink" href="#{}" title="Permanent link">&para;</a>'  # as on .md
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
    for file in [f for f in files if is_notebook(f)]:
        page = NotebookFile(file, **config)
        # i18n already moved the file to its language's place (zh/lab/x/index.html)
        page.dest_uri, page.url, page.abs_dest_path = file.dest_uri, file.url, file.abs_dest_path
        # the language switcher leads to each twin: docs/<lang>/<same path>
        page.alternates = {}
        for lang in i18n.build_languages:
            if os.path.isfile(os.path.join(config.docs_dir, lang, file.norm_src_uri)):
                prefix = "" if lang == i18n.default_language else f"{lang}/"
                page.alternates[lang] = page_file(prefix + file.norm_src_uri, config)
        page.alternates[i18n.current_language] = page
        files.remove(file)
        files.append(page)
    # the per-language pages of sitemap.xml
    i18n.i18n_files_per_language[i18n.current_language] = files.documentation_pages()
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
        description = nb.get("metadata", {}).get("description")
        if description:
            page.meta["description"] = description
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
        inner = ANCHOR_LINK.sub(HEADERLINK.format(anchor), ANCHOR.sub("", inner))
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
    return html
