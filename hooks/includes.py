"""A missing or misspelt snippet include stops the build with one line per include:

    docs/en/operations/indexing.md:106: no snippets/operations/torch_wher.pycon (--8<-- names a file below snippets/)

pymdownx.snippets (check_paths: true) would fail too, but later, with a long traceback
that names the path relative to snippets/ and not the page's line.
"""

import os
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

INCLUDE = re.compile(r'^\s*-+8<-+\s+"([^"]+)"', re.MULTILINE)


def missing(pages, snippets, root):
    """`page:line: ...` for each include in these Markdown pages that names no file."""
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for match in INCLUDE.finditer(text):
            name = match.group(1).split(":")[0]  # "file.pycon:3:5" includes lines 3 to 5
            if not (snippets / name).is_file():
                line = text.count("\n", 0, match.start(1)) + 1
                yield (
                    f"{os.path.relpath(page, root)}:{line}: no {os.path.relpath(snippets / name, root)} "
                    "(--8<-- names a file below snippets/)"
                )


def on_pre_build(config):
    root = Path(config.config_file_path).parent
    base = config.mdx_configs["pymdownx.snippets"]["base_path"]
    snippets = Path(base[0] if isinstance(base, list) else base)
    problems = list(missing(sorted(Path(config.docs_dir).rglob("*.md")), snippets, root))
    if problems:
        raise PluginError("\n".join(problems))
