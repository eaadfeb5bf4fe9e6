"""Every teaching page as a Jupyter notebook to download, made at build time from its snippets.

For each teaching page (every Markdown page except the reference pages below) the build
writes `<page>.ipynb` next to the page's HTML and puts a download link under the page's
title. The notebook is in the page's language: its headings and text, with the code of the
snippet includes as code cells, one per doctest example, in page order. Nothing of it is
committed; `tests/test_page_notebooks.py` runs the notebooks and compares their outputs
with the snippets' expected outputs.

- A `*.cuda.pycon` snippet needs a GPU: a Markdown cell says so before its cells, which
  carry the tag `needs-cuda` (the test leaves them unexecuted where there is no GPU).
  A `*.nocuda.pycon` snippet shows what a machine without a GPU prints: tag `no-cuda`.
- An example whose expected output is an exception has the tag `raises-exception`, so that
  running the notebook top to bottom goes on after it, as the page does.
- A code cell holds the examples of a snippet up to one that prints (a notebook shows the
  output of a cell's last line only) and records the snippet and example numbers
  (`metadata.snippet`), so a test can find the expected output in the snippet file itself.
- A first code cell switches IPython's pretty printer off: values then show as on the page.
- Admonition boxes (`!!!`) are left out (the page keeps them); an answer (`???`) keeps its
  title and text; links become plain text (they point into the site).
"""

import doctest
import json
import posixpath
import re
from pathlib import Path

from mkdocs.plugins import get_plugin_logger

try:  # as a package (tests, tools) or by MkDocs from the hooks/ folder
    from hooks.includes import INCLUDE
except ImportError:
    from includes import INCLUDE

log = get_plugin_logger("page_notebooks")

# Pages that are looked up rather than read in order: no exercises, no notebook.
REFERENCE_PAGES = frozenset(
    {
        "index.md",
        "reference/glossary.md",
        "reference/faq.md",
        "reference/verification.md",
        "errors/error-table.md",
        "errors/corrections.md",
        "measured/claims.md",
    }
)
LANGUAGES = ("en", "zh")

TEXT = {
    "en": {
        "link": "Download this page as a Jupyter notebook",
        "from": "This notebook is the page [{title}]({url}) with its code as cells: every "
        "output the page shows is what these cells print with torch {torch}.",
        "repr": "The first cell makes Jupyter show values as the Python prompt does "
        "(`repr`), as on the page.",
        "cuda": "**Needs a CUDA GPU.** The next cells run only where "
        "`torch.cuda.is_available()` is `True`; on a machine without a GPU they raise an "
        "error, so skip them there.",
        "nocuda": "The next cells show what a machine **without** a GPU prints; on a machine "
        "with one, their output differs.",
    },
    "zh": {
        "link": "下载本页的 Jupyter Notebook",
        "from": "这个 Notebook 就是页面[{title}]({url})，代码拆成了单元格：页面上的每个输出，"
        "都是这些单元格在 torch {torch} 下实际打印的结果。",
        "repr": "第一个单元格让 Jupyter 像 Python 提示符一样显示值（`repr`），与页面上一致。",
        "cuda": "**需要 CUDA GPU。**下面的单元格只有在 `torch.cuda.is_available()` 为 `True` "
        "时才能运行；在没有 GPU 的机器上会报错，请跳过。",
        "nocuda": "下面的单元格展示的是**没有** GPU 的机器打印的结果；在有 GPU 的机器上输出会不同。",
    },
}

# IPython's pretty printer shows `<MulBackward0 at 0x...>` and `torch.Tensor` where Python's
# prompt, and so the page, shows `<MulBackward0 object at 0x...>` and `<class 'torch.Tensor'>`.
PLAIN_REPR = "%config PlainTextFormatter.pprint = False"
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{\s*#[\w-]+[^}]*\})?\s*$")
BLOCK = re.compile(r'^(\s*)(!!!|\?\?\?\+?|===)\s*(\w[\w-]*)?\s*(?:"([^"]*)")?\s*$')
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\((?!https?:)[^)]*\)")
IMAGE = re.compile(r"^\s*!\[")


def is_teaching(page):
    """True for a page (path relative to docs/<lang>/) that teaches: it gets exercises
    and a notebook."""
    return page.endswith(".md") and page not in REFERENCE_PAGES


def notebook_name(page):
    """`autograd/backward.md` -> `backward.ipynb` (written next to the page's HTML)."""
    return posixpath.basename(page).removesuffix(".md") + ".ipynb"


def _markdown_cell(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text.strip("\n")}


def _code_cells(name, snippets):
    """The code cells of the snippet `name`: its doctest examples in order, a cell ending
    at each example that prints something (or raises), as a notebook shows only the
    output of a cell's last line."""
    text = (Path(snippets) / name).read_text(encoding="utf-8")
    examples = doctest.DocTestParser().get_examples(text, name)
    groups, current = [], []
    for number, example in enumerate(examples):
        current.append((number, example))
        if example.want or example.exc_msg is not None:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    cells = []
    for group in groups:
        tags = []
        if name.endswith(".cuda.pycon"):
            tags.append("needs-cuda")
        elif name.endswith(".nocuda.pycon"):
            tags.append("no-cuda")
        if group[-1][1].exc_msg is not None:
            tags.append("raises-exception")
        metadata = {"snippet": {"file": name, "examples": [number for number, _ in group]}}
        if tags:
            metadata["tags"] = tags
        source = "".join(example.source for _, example in group)
        cells.append(
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": metadata,
                "outputs": [],
                "source": source.rstrip("\n"),
            }
        )
    return cells


def cells_of(markdown, snippets, language):
    """The cells of a page: its headings and text as Markdown cells, its snippet includes
    as code cells, in page order."""
    lines = FRONT_MATTER.sub("", markdown).splitlines()
    cells, text, fence, skip_indent = [], [], None, None

    def flush():
        body = "\n".join(text).strip()
        if body:
            cells.append(_markdown_cell(body))
        text.clear()

    for line in lines:
        indent = len(line) - len(line.lstrip())
        if fence is not None:
            if line.strip() == fence[1]:
                if not fence[2] and fence[3]:  # a listing that is not a snippet: keep it
                    text.extend([f"```{fence[0]}", *fence[3], "```"])
                fence = None
                continue
            include = INCLUDE.match(line)
            if include:
                fence[2].append(include.group(1))
                name = include.group(1)
                flush()
                if name.endswith(".cuda.pycon"):
                    cells.append(_markdown_cell(TEXT[language]["cuda"]))
                elif name.endswith(".nocuda.pycon"):
                    cells.append(_markdown_cell(TEXT[language]["nocuda"]))
                cells.extend(_code_cells(name, snippets))
            elif skip_indent is None:
                fence[3].append(line[fence[4] :])
            continue
        if skip_indent is not None and line.strip() and indent <= skip_indent:
            skip_indent = None
        match = FENCE.match(line)
        if match:
            fence = (match.group(3), match.group(2), [], [], len(match.group(1)))
            continue
        if skip_indent is not None:
            continue
        block = BLOCK.match(line)
        if block:
            kind = block.group(2)
            if kind == "!!!":
                skip_indent = indent
            else:  # an answer (???) or a tab (===): its title, then its content
                flush()
                title = block.group(4) or (block.group(3) or "").capitalize()
                text.append(f"**{title}**")
                flush()
            continue
        heading = HEADING.match(line)
        if heading:
            flush()
            cells.append(_markdown_cell(f"{heading.group(1)} {heading.group(2)}"))
            continue
        if IMAGE.match(line):
            continue
        text.append(LINK.sub(r"\1", line[4:] if indent >= 4 and line[:4] == "    " else line))
    flush()
    return cells


def notebook(markdown, snippets, language, title="", url="", torch=""):
    """The notebook (a dict in nbformat 4.5) of a page."""
    cells = cells_of(markdown, snippets, language)
    if not title and cells and cells[0]["source"].startswith("# "):
        title = cells[0]["source"][2:]
    intro = [
        _markdown_cell(
            TEXT[language]["from"].format(title=title, url=url, torch=torch)
            + " "
            + TEXT[language]["repr"]
        ),
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": PLAIN_REPR,
        },
    ]
    at = 1 if cells and cells[0]["source"].startswith("# ") else 0
    cells[at:at] = intro
    for number, cell in enumerate(cells):
        cell["id"] = f"cell-{number}"
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def page_of(file):
    """(language, path relative to docs/<language>/) of a file of the build."""
    language = getattr(file, "locale", None) or LANGUAGES[0]
    page = file.src_uri
    if page.startswith(f"{language}/"):
        page = page[len(language) + 1 :]
    return language, page


def _torch_version(config):
    text = (Path(config.config_file_path).parent / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'"torch==([^"]+)"', text)
    return found.group(1) if found else "?"


def on_page_markdown(markdown, page, config, files):
    language, rel = page_of(page.file)
    if not is_teaching(rel) or language not in TEXT:
        return markdown
    snippets = Path(config.config_file_path).parent / "snippets"
    nb = notebook(
        markdown,
        snippets,
        language,
        url=page.canonical_url or page.url,
        torch=_torch_version(config),
    )
    target = Path(config.site_dir) / posixpath.dirname(page.file.dest_uri) / notebook_name(rel)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    page.meta["notebook"] = notebook_name(rel)
    return markdown


def on_page_content(html, page, config, files):
    name = page.meta.get("notebook")
    if not name:
        return html
    language, _ = page_of(page.file)
    link = (
        f'<p class="page-notebook"><a href="{name}" download>'
        f"{TEXT[language]['link']} ({name})</a></p>"
    )
    head = re.search(r"</h1>", html)
    if head is None:
        return link + html
    return html[: head.end()] + "\n" + link + html[head.end() :]
