"""Citations: the quotations the pages attribute to PyTorch's documentation or source, and
the links that back them (tests/test_citations.py checks both).

Links into PyTorch's docs and source are written with a marker, `{{ pytorch_docs }}` and
`{{ pytorch_source }}`, that stands for the pinned release's docs and its tag (LINKS): moving
the pin moves every link, and the quotation test runs against that release. A quotation is
text in "…" or “…” of four words or more, in a paragraph with such a link (admonition titles
and Chinese text are not quotations). Its source is the docstring (and the file) of the
object a docs link names, or the file a source link names, read in the installed torch; a
quotation from what the wheel does not ship (docs notes, tutorials, .cpp files) is in
data/citations.yml with where it was read and at which version.
"""

import difflib
import importlib
import inspect
import re
from functools import cache
from pathlib import Path

from torch_verified.markdown import front_matter
from torch_verified.project import ROOT, pinned_torch, read_yaml

LINKS = {
    "pytorch_docs": lambda: (
        "https://docs.pytorch.org/docs/" + ".".join(pinned_torch().split(".")[:2])
    ),
    "pytorch_source": lambda: f"https://github.com/pytorch/pytorch/blob/v{pinned_torch()}",
}
LINK_MARKER = re.compile(r"\{\{\s*(" + "|".join(LINKS) + r")\s*\}\}")
PYTORCH_LINK = re.compile(r"\]\((https://(?:docs\.pytorch\.org|github\.com/pytorch)[^)\s]*)\)")
# A written-out versioned link (not the marker): allowed only with a reason on its line.
VERSIONED = re.compile(
    r"https://(docs\.pytorch\.org/docs/(?!\{)|github\.com/pytorch/pytorch/blob/)"
)
QUOTE = re.compile(r'"([^"]+?)"|“([^”]+?)”')
CODE = re.compile(r"`[^`]*`")
TITLE = re.compile(r"\s*(!!!|\?\?\?\+?)\s")
HAND_CHECKED = ROOT / "data" / "citations.yml"


def with_links(text):
    """The text with the link markers written out."""
    return LINK_MARKER.sub(lambda m: LINKS[m[1]](), text)


def paragraphs(text):
    """[(line of its first line, text)] of the blocks between blank lines."""
    found, start, lines = [], 0, []
    for number, line in enumerate(text.splitlines() + [""], 1):
        if line.strip():
            start, lines = (start if lines else number), lines + [line]
        elif lines:
            found.append((start, "\n".join(lines)))
            lines = []
    return found


def quotations(path):
    """[(line, quotation, [links])] of a page."""
    _, body = front_matter(Path(path).read_text(encoding="utf-8"))
    offset = Path(path).read_text(encoding="utf-8").count("\n") - body.count("\n")
    found = []
    for start, para in paragraphs(with_links(body)):
        links = PYTORCH_LINK.findall(para)
        masked = CODE.sub(lambda c: re.sub('["“”]', "\0", c[0]), para)
        for match in QUOTE.finditer(masked) if links else ():
            quote = para[match.start() + 1 : match.end() - 1]
            line = para[: match.start()].count("\n")
            if (
                len(quote.split()) >= 4
                and not re.search(r"[\u4e00-\u9fff]", quote)
                and not TITLE.match(para.splitlines()[line])
            ):
                found.append((offset + start + line, quote, links))
    return found


def normalized(text):
    """Text as a reader sees it, for comparison: no Sphinx or Markdown markup, no comment
    or bullet marks, no quote marks, no white space, lower case, no closing full stop (a
    Chinese sentence that goes on after a quotation drops it)."""
    text = re.sub(r"^[ \t]*(?:#|- |\* )", "", text, flags=re.MULTILINE)
    text = re.sub(r":\w+:`~?([^`<]*?)\s*(?:<[^`]*>)?`", r"\1", text)
    text = text.replace("\\times", "×").replace(") –", "):")
    return re.sub(r"[\s`*\\'\"‘’]+", "", text).lower().rstrip(".,;:")


def _object(name):
    parts = name.split(".")
    found = importlib.import_module(parts[0])
    for number, part in enumerate(parts[1:], 2):
        try:
            found = getattr(found, part)
        except AttributeError:
            found = importlib.import_module(".".join(parts[:number]))
    return found


@cache
def source(url):
    """The text a link stands for in the installed torch (an object's docstring and its
    file; a source file), or None where the wheel does not ship it."""
    import torch

    installed = Path(torch.__file__).parent
    if m := re.search(r"/docs/[^/]+/(?:generated/)?([\w.]+)\.html(?:#(torch\.[\w.]+))?$", url):
        if not (name := m[2] or m[1]).startswith("torch."):
            return None
        found = _object(name)
        try:
            return (found.__doc__ or "") + Path(inspect.getsourcefile(found)).read_text("utf-8")
        except TypeError:  # a built-in: its docstring alone
            return found.__doc__ or ""
    if m := re.search(r"github\.com/pytorch/pytorch/blob/[^/]+/(.+\.(?:py|h|cuh))$", url):
        for file in (installed.parent / m[1], installed / "include" / m[1].split("/src/")[-1]):
            if file.exists():
                return file.read_text("utf-8")
    return None


def hand_checked():
    """{normalized quotation: entry} of data/citations.yml."""
    return {normalized(entry["quote"]): entry for entry in read_yaml(HAND_CHECKED)}


def problem(quote, links):
    """None when data/citations.yml read the quotation at a link of its paragraph, or a
    source of its paragraph holds it ("…" and [...] mark cuts, [s] an edit); else what to say: the closest text found."""
    if entry := hand_checked().get(normalized(quote)):  # read by hand: at the link it names
        if with_links(entry["source"]).split("#")[0] in {link.split("#")[0] for link in links}:
            return None
        return (
            f"data/citations.yml read it at {entry['source']}, which this paragraph does not link"
        )
    texts = [text for text in map(source, links) if text is not None]
    if not texts:
        return f"the wheel ships no source of {links}: read it, then add it to data/citations.yml"
    cuts = re.split(r"…|\[\.\.\.\]|\.\.\.", quote)
    haystack = "".join(normalized(text) for text in texts)
    if all(normalized(re.sub(r"\[[^\]]*\]", "", cut)) in haystack for cut in cuts):
        return None
    words, size = " ".join(texts).split(), len(quote.split())
    windows = {" ".join(words[i : i + size]) for i in range(len(words))}
    closest = difflib.get_close_matches(" ".join(quote.split()), windows, n=1, cutoff=0)
    unread = [link for link in links if source(link) is None]
    hint = f" (if it quotes {unread}: read it there, add it to data/citations.yml)" * bool(unread)
    return f"not in {links}; the closest text there: {closest[0] if closest else ''!r}{hint}"
