"""Check one chapter: every check CI would fail on that needs no build, in seconds.

    python -m tools.check CHAPTER          (what `make check CHAPTER=operations` runs)

Runs, in one process: every snippet the chapter's pages include (and any other in
snippets/CHAPTER/), and the checks of its pages in both languages (parity of the twins,
includes, block titles, heading anchors, no unchecked code, glossary terms, Chinese
typography, exercise markup; for the errors chapter, data/errors.yml against the snippets)
together with the repository-wide ones (every page has a twin, no orphan snippet). The site
is not built (the checks of the built site are left out): `make test` does that.
"""

import subprocess
import sys

from torch_verified.markdown import includes
from torch_verified.project import (
    DEFAULT_LANGUAGE,
    DOCS,
    LANGUAGES,
    ROOT,
    markdown_pages,
    snippet_files,
)

CHECKS = [
    "tests/test_structure.py",
    "tests/test_glossary.py",
    "tests/test_chinese_typography.py",
    "tests/test_exercises.py",
    "tests/test_error_table.py",
]


def chapters():
    return sorted(p.name for p in (DOCS / DEFAULT_LANGUAGE).iterdir() if p.is_dir())


def arguments(chapter):
    """pytest's arguments for one chapter."""
    pages = [
        f"docs/{lang}/{p}"
        for lang in LANGUAGES
        for p in markdown_pages(lang)
        if p.startswith(f"{chapter}/")
    ]
    snippets = {
        f"snippets/{name}" for page in pages for name in includes((ROOT / page).read_text("utf-8"))
    }
    snippets |= {f"snippets/{name}" for name in snippet_files() if name.startswith(f"{chapter}/")}
    existing = sorted(s for s in snippets if (ROOT / s).is_file())  # a missing one fails a check
    # Parametrized checks only for this chapter's pages ("operations/indexing.md" is in the
    # test id); the checks without parameters look at the whole repository, in milliseconds.
    return ["-n", "0", "--without-site", *existing, *CHECKS, "-k", f"{chapter}/ or not ["]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] not in chapters():
        given = f"no chapter {argv[0]!r}; " if argv else ""
        print(f"check: {given}usage: make check CHAPTER=<{'|'.join(chapters())}>", file=sys.stderr)
        return 2
    args = arguments(argv[0])
    snippets = sum(a.endswith(".pycon") for a in args)
    print(
        f"check {argv[0]}: {snippets} snippets, the checks of its pages (-k {args[-1]!r})",
        flush=True,
    )
    return subprocess.run([sys.executable, "-m", "pytest", *args], cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
