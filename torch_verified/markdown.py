"""Reading the Markdown of pages and guides: includes, fences, headings, front matter, prose.

INCLUDE is the one pattern of a snippet include (`--8<-- "chapter/topic.pycon"`, as
pymdownx.snippets reads it); FENCED_INCLUDE a code block that holds one.
"""

import json
import re
from pathlib import Path

INCLUDE = re.compile(r'^(?P<indent>[ \t]*)-+8<-+[ \t]+"(?P<name>[^"]+)"', re.MULTILINE)
FENCED_INCLUDE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>```+)(?P<lang>[\w+-]*)(?P<attrs>[^\n]*)\n"
    r'(?P=indent)-+8<-+[ \t]+"(?P<snippet>[^"]+)"[ \t]*\n(?P=indent)(?P=fence)[ \t]*$',
    re.MULTILINE,
)
TITLE = re.compile(r'\btitle="([^"]*)"')
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)\s*(?P<lang>[\w+-]*)")
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.DOTALL)
HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*$", re.MULTILINE)
ANCHOR = re.compile(r"\{\s*#([\w-]+)[^}]*\}\s*$")
NOTEBOOK_ANCHOR = re.compile(r'<a id="([\w-]+)"></a>\s*$')  # `## Title <a id="title"></a>`
BASH = re.compile(r"^[ \t]*```bash\n(.*?)^[ \t]*```", re.DOTALL | re.MULTILINE)


def markdown_of(path):
    """The Markdown of a page: the file itself, or the Markdown cells of a notebook."""
    text = Path(path).read_text(encoding="utf-8")
    if Path(path).suffix != ".ipynb":
        return text
    cells = json.loads(text)["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def includes(text):
    """The snippets a page includes, in order (`file.pycon:3:5` names the file)."""
    return [m["name"].split(":")[0] for m in INCLUDE.finditer(text)]


def include_lines(text):
    """[(line, snippet)] of a page's includes."""
    return [
        (line_of(text, m.start("name")), m["name"].split(":")[0]) for m in INCLUDE.finditer(text)
    ]


def front_matter(text):
    """(the front matter as a dict, the text after it)."""
    match = FRONT_MATTER.match(text)
    if not match:
        return {}, text
    import yaml

    return yaml.safe_load(match.group(1)) or {}, text[match.end() :]


def without_fences(text):
    """The text with fenced code blocks blanked, line for line (so `# x` in code is no heading)."""
    out, fence = [], None
    for line in text.splitlines():
        match = FENCE.match(line)
        if fence is None and match:
            fence = match["fence"]
            out.append("")
        elif fence is not None and line.strip().startswith(fence):
            fence = None
            out.append("")
        else:
            out.append("" if fence else line)
    return "\n".join(out)


def headings(text):
    """(level, title, anchor or None) of each heading outside code and front matter."""
    body = without_fences(FRONT_MATTER.sub(lambda m: "\n" * m.group(0).count("\n"), text))
    found = []
    for level, title in HEADING.findall(body):
        match = ANCHOR.search(title) or NOTEBOOK_ANCHOR.search(title)
        found.append((len(level), title, match.group(1) if match else None))
    return found


def prose(text):
    """[(line number, text)] of the prose of a page: no code (fences, `inline`), no link
    targets, no HTML tags."""
    found = []
    for number, line in enumerate(without_fences(text).splitlines(), 1):
        line = re.sub(r"`[^`]*`", "", line)
        line = re.sub(r"\]\([^)]*\)", "]", line)
        found.append((number, re.sub(r"<[^>]+>", "", line)))
    return found


def bash_blocks(text):
    """[(line of the first command, [command, ...])] of each ```bash block (comments cut)."""
    found = []
    for block in BASH.finditer(text):
        lines = [
            re.split(r"\s+#\s", line.strip(), maxsplit=1)[0].strip()
            for line in block[1].splitlines()
        ]
        found.append((line_of(text, block.start(1)), lines))
    return found


# -- reading time (the home page's reading path, hooks/shortcodes.py) -----------------------

WORDS_PER_MINUTE = 200  # prose; plus MINUTES_PER_BLOCK for each code block
MINUTES_PER_BLOCK = 1
WORD = re.compile(r"[A-Za-z0-9][\w'’.-]*")


# A going-deeper box on a core page: `??? deeper "Going deeper: ..."` (collapsed; `???+` or
# `!!!` open), the rest of the box indented under it. A first pass skips it.
DEEPER_BOX = re.compile(r"^( *)(?:\?\?\?\+?|!!!) deeper\b")


def first_pass(body):
    """The page without its going-deeper boxes: what a first pass reads."""
    kept, box = [], None
    for line in body.splitlines():
        if box is not None and (not line.strip() or line.startswith(box + "    ")):
            continue
        box = None
        if match := DEEPER_BOX.match(line):
            box = match[1]
            continue
        kept.append(line)
    return "\n".join(kept)


def reading_minutes(path, first=False):
    """Minutes to read a page (Markdown or notebook) of the default language: its prose
    words at WORDS_PER_MINUTE, and MINUTES_PER_BLOCK for each code block (snippet include,
    or notebook code cell). `first`: a first pass, without the going-deeper boxes."""
    text = markdown_of(path)
    _, body = front_matter(text)
    if first:
        body = first_pass(body)
    words = sum(len(WORD.findall(line)) for _, line in prose(body))
    if Path(path).suffix == ".ipynb":
        cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
        blocks = sum(c["cell_type"] == "code" for c in cells)
    else:
        blocks = len(includes(body))
    return words / WORDS_PER_MINUTE + blocks * MINUTES_PER_BLOCK


def is_deeper(path):
    """Whether a page is on the going-deeper track: `status: deeper` in its front matter (a
    notebook's metadata)."""
    if Path(path).suffix == ".ipynb":
        return (
            json.loads(Path(path).read_text(encoding="utf-8"))["metadata"].get("status") == "deeper"
        )
    return front_matter(markdown_of(path))[0].get("status") == "deeper"


def title_of(path):
    """The title of a page: its first level-1 heading, without its anchor."""
    for level, title, _ in headings(markdown_of(path)):
        if level == 1:
            return ANCHOR.sub("", NOTEBOOK_ANCHOR.sub("", title)).strip()
    return Path(path).stem


# -- the source link of a code block's caption (hooks/captions.py) ---------------------------

SOURCE_MARKER = re.compile(r" ?@@source:([\w./-]+)@@")
CAPTION = re.compile(r'(<span class="filename">)(.*?)(</span>)', re.DOTALL)


def with_source_markers(text):
    """Each snippet include's title with a marker naming its snippet (`title="From lists
    @@source:tensors/from_lists.pycon@@"`), for source_links to find in the HTML."""

    def mark(match):
        attrs = TITLE.sub(
            lambda t: f'title="{t[1]} @@source:{match["snippet"].split(":")[0]}@@"',
            match["attrs"],
            count=1,
        )
        return match[0].replace(match["attrs"], attrs, 1)

    return FENCED_INCLUDE.sub(mark, text)


def source_url(repository, commit, snippet):
    """The snippet's file in the repository (GitHub's address scheme)."""
    return f"{repository.rstrip('/')}/blob/{commit}/snippets/{snippet}"


def source_links(html, language, repository, commit):
    """The page's HTML with each caption's marker made a link to its snippet in the
    repository, or removed when there is no repository."""
    from html import escape

    from torch_verified.strings import STRINGS

    words = STRINGS[language]

    def link(match):
        if not repository:
            return ""
        path = f"snippets/{match[1]}"
        title = escape(words["source_title"].format(path=path), quote=True)
        href = escape(source_url(repository, commit, match[1]), quote=True)
        return (
            f' <a class="snippet-source" href="{href}" title="{title}" data-search-exclude>'
            f"{words['source_link']}</a>"
        )

    return CAPTION.sub(lambda m: m[1] + SOURCE_MARKER.sub(link, m[2]) + m[3], html)
