"""A missing or misspelt snippet include stops the build with one line per include:

    docs/en/operations/indexing.md:106: no snippets/operations/torch_wher.pycon (--8<-- names a file below snippets/); did you mean operations/torch_where.pycon?

pymdownx.snippets (check_paths: true) would fail too, but later, with a long traceback
that names the path relative to snippets/ and not the page's line. And a failing rebuild of
`make serve` always says why: MkDocs prints a message once per server (its DuplicateFilter),
so the second save of the same broken page would print only "Aborted with a BuildError!".

Also what the build caches: mkdocs-jupyter evicts, after a build, every cache entry that build
did not use, and mkdocs-static-i18n builds once per language, so one cache folder for both
would lose each language's notebooks to the other's build (both converted again every time).
"""

import difflib
import logging
import os
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from torch_verified.examples import prompt_problems
from torch_verified.markdown import include_lines
from torch_verified.project import ROOT, language_of

log = logging.getLogger("mkdocs.plugins.includes")


def missing(pages, snippets, root):
    """`page:line: ...` for each include in these Markdown pages that names no file."""
    known = sorted(p.relative_to(snippets).as_posix() for p in snippets.rglob("*.pycon"))
    for page in pages:
        for line, name in include_lines(page.read_text(encoding="utf-8")):
            if not (snippets / name).is_file():
                # a name beside it in the same folder, close enough to be a misspelling
                folder, _, stem = name.rpartition("/")
                near = [k.rpartition("/")[2] for k in known if k.rpartition("/")[0] == folder]
                close = [
                    f"{folder}/{c}".lstrip("/")
                    for c in difflib.get_close_matches(stem, near, n=1, cutoff=0.8)
                ]
                yield (
                    f"{os.path.relpath(page, root)}:{line}: no {os.path.relpath(snippets / name, root)} "
                    "(--8<-- names a file below snippets/)"
                    + (f"; did you mean {close[0]}?" if close else "")
                )


@event_priority(-110)  # after the i18n plugin has chosen this build's language
def on_config(config):
    if jupyter := config.plugins.get("mkdocs-jupyter"):
        jupyter.config["cache_dir"] = str(ROOT / ".cache" / "mkdocs-jupyter" / language_of(config))


def on_pre_build(config):
    root = Path(config.config_file_path).parent
    base = config.mdx_configs["pymdownx.snippets"]["base_path"]
    snippets = Path(base[0] if isinstance(base, list) else base)
    problems = list(missing(sorted(Path(config.docs_dir).rglob("*.md")), snippets, root))
    if problems:
        raise PluginError("\n".join(problems))
    for path in sorted(snippets.rglob("*.pycon")):  # the tests' message, said by `make serve` too
        for line, message in prompt_problems(path.read_text(encoding="utf-8")):
            log.warning(f"{os.path.relpath(path, root)}:{line}: {message}")


def on_build_error(error):
    """Forget this error's message in MkDocs' DuplicateFilter: the next failing rebuild of
    `make serve` prints it again."""
    for log_filter in logging.getLogger("mkdocs.commands.build").filters:
        getattr(log_filter, "msgs", set()).discard(str(error))
