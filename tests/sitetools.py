"""Shared helpers for the checks of the site: where things are, and reading them."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = "en"

INCLUDE = re.compile(r'^\s*--8<--\s+"([^"]+)"', re.MULTILINE)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$", re.MULTILINE)
ANCHOR = re.compile(r"\{\s*#([\w-]+)\s*\}\s*$")
FENCE = re.compile(r"^(```+|~~~+)(.*)$", re.MULTILINE)


def site_url():
    """The `site_url` of mkdocs.yml (the site is served under its path, e.g. /torch-verified/)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    return re.search(r"^site_url:\s*(\S+)", config, re.MULTILINE).group(1)


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


def includes(path):
    return INCLUDE.findall(Path(path).read_text(encoding="utf-8"))


def headings(path):
    """(level, text, anchor or None) for each heading outside code blocks."""
    text = without_fences(Path(path).read_text(encoding="utf-8"))
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.DOTALL)  # front matter
    result = []
    for level, title in HEADING.findall(text):
        match = ANCHOR.search(title)
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
