"""Check one chapter: everything a change to it needs, in seconds.

    python -m tools.check CHAPTER          (what `make check CHAPTER=operations` runs)

Runs, in one process: every snippet the chapter's pages include (and any other in
snippets/CHAPTER/), and the checks of its pages in both languages (parity of the twins,
includes, block titles, heading anchors, no unchecked code, glossary terms) together with
the repository-wide ones (every page has a twin, no orphan snippet). The site is not
built: `make test` does that.
"""

import subprocess
import sys

from tests.sitetools import DOCS, LANGUAGES, ROOT, SNIPPETS, includes, markdown_pages

CHECKS = ["tests/test_structure.py", "tests/test_glossary.py"]


def chapters():
    return sorted(p.name for p in (DOCS / LANGUAGES[0]).iterdir() if p.is_dir())


def arguments(chapter):
    """pytest's arguments for one chapter."""
    pages = [
        f"docs/{lang}/{page}"
        for lang in LANGUAGES
        for page in markdown_pages(lang)
        if page.startswith(f"{chapter}/")
    ]
    snippets = {f"snippets/{name}" for page in pages for name in includes(ROOT / page)}
    snippets |= {p.relative_to(ROOT).as_posix() for p in (SNIPPETS / chapter).glob("*.pycon")}
    existing = sorted(
        s for s in snippets if (ROOT / s).is_file()
    )  # a missing one fails a check below
    # Parametrized checks only for this chapter's pages ("operations/indexing.md" is in the
    # test id); the checks without parameters look at the whole repository, in milliseconds.
    select = f"{chapter}/ or not ["
    return ["-n", "0", *existing, *CHECKS, "-k", select]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] not in chapters():
        given = f"no chapter {argv[0]!r}; " if argv else ""
        print(f"check: {given}usage: make check CHAPTER=<{'|'.join(chapters())}>", file=sys.stderr)
        return 2
    args = arguments(argv[0])
    snippets = sum(a.endswith(".pycon") for a in args)
    print(f"check {argv[0]}: {snippets} snippets, the checks of its pages (-k {args[-1]!r})")
    command = [sys.executable, "-m", "pytest", *args]
    sys.stdout.flush()
    return subprocess.run(command, cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
