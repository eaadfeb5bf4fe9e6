"""Shared helpers for the checks of the site: where things are, and reading them."""

import fcntl
import json
import os
import re
import subprocess
from pathlib import Path

from hooks.includes import INCLUDE  # the one pattern of an include, as the build reads it

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / ".site-test"  # the site the tests read, built once per test run
BANNER = "end of life"  # Material's banner, which the Makefile turns off
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = "en"

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$", re.MULTILINE)
ANCHOR = re.compile(r"\{\s*#([\w-]+)\s*\}\s*$")
NOTEBOOK_ANCHOR = re.compile(r'<a id="([\w-]+)"></a>\s*$')  # `## Title <a id="title"></a>`
FENCE = re.compile(r"^(```+|~~~+)(.*)$", re.MULTILINE)


def site_url():
    """The `site_url` of mkdocs.yml (the site is served under its path, e.g. /torch-verified/)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    line = re.search(r"^site_url:.*$", config, re.MULTILINE).group(0)
    return os.environ.get("SITE_URL") or re.search(r"https?://[^\s\"']+", line).group(0)


def pages(language):
    """Relative paths of the pages of one language (Markdown and notebooks)."""
    root = DOCS / language
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.suffix in (".md", ".ipynb") and ".ipynb_checkpoints" not in p.parts
    )


def markdown_pages(language):
    return [p for p in pages(language) if p.endswith(".md")]


def without_fences(text):
    """The text with the contents of fenced code blocks blanked (so `# x` in code is no heading)."""
    out, fence = [], None
    for line in text.splitlines():
        match = re.match(r"^\s*(```+|~~~+)", line)
        if fence is None and match:
            fence = match.group(1)
            out.append("")
        elif fence is not None and line.strip().startswith(fence):
            fence = None
            out.append("")
        else:
            out.append("" if fence else line)
    return "\n".join(out)


def markdown_of(path):
    """The Markdown of a page: the file itself, or the Markdown cells of a notebook."""
    text = Path(path).read_text(encoding="utf-8")
    if Path(path).suffix != ".ipynb":
        return text
    cells = json.loads(text)["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def includes(path):
    return INCLUDE.findall(markdown_of(path))


def headings(path):
    """(level, text, anchor or None) for each heading outside code blocks."""
    text = without_fences(markdown_of(path))
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.DOTALL)  # front matter
    result = []
    for level, title in HEADING.findall(text):
        match = ANCHOR.search(title) or NOTEBOOK_ANCHOR.search(title)
        result.append((len(level), title, match.group(1) if match else None))
    return result


def snippet_files():
    return sorted(p.relative_to(SNIPPETS).as_posix() for p in SNIPPETS.rglob("*.pycon"))


def site_page(site, language, page):
    """The built HTML file of a page (docs_dir-relative path) in a language."""
    stem = page.rsplit(".", 1)[0]
    prefix = "" if language == DEFAULT_LANGUAGE else f"{language}/"
    if stem == "index":
        rel = f"{prefix}index.html"
    elif stem.endswith("/index"):
        rel = f"{prefix}{stem[: -len('index')]}index.html"
    else:
        rel = f"{prefix}{stem}/index.html"
    return Path(site) / rel


def build_site(testrun_uid):
    """Build the site into SITE once per test run (`make build`: `mkdocs build --strict`,
    not `--quiet`, which would drop the warnings --strict counts), under a lock that every
    process of the run shares. Returns None, or the output of a failed build."""
    with open(ROOT / ".site-test.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = SITE / ".testrun"
        if stamp.exists() and stamp.read_text() == testrun_uid:
            return None
        env = {k: v for k, v in os.environ.items() if k != "NO_MKDOCS_2_WARNING"}
        result = subprocess.run(
            ["make", "--no-print-directory", "build", f"SITE_DIR={SITE.name}"],
            check=False,
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
        )
        output = result.stdout + result.stderr
        if result.returncode != 0 or BANNER in output:
            return output
        stamp.write_text(testrun_uid)
        return None


if __name__ == "__main__":  # the early build of a run (conftest.py): python -m tests.sitetools UID
    import sys

    build_site(sys.argv[1])
