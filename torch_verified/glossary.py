"""The glossary (glossary.yml, `project.glossary()`, its schema in the file's header): a
term's words in a language, its entry's anchor on the glossary page, and the links from the
first use of each term on a core page to that entry."""

import posixpath
import re

from torch_verified.markdown import DEEPER_BOX, FENCE
from torch_verified.project import ideographic

PAGE = "reference/glossary.md"


def terms(entry, lang):
    """The words of an entry in a language: `batch / batch dimension (of a tensor)` gives
    batch, batch dimension; `数据类型（dtype）` gives 数据类型."""
    parts = re.split(r"[/／]", entry[lang])
    return {re.sub(r"\s*[(（].*?[)）]", "", p).strip() for p in parts} - {""}


def pattern(term, lang, escape=re.escape):
    """A use of the term (a regular expression with `escape=str`) in prose of `lang`."""
    if not ideographic(lang):  # a whole word, plural too
        return re.compile(rf"(?<![\w-])(?:{escape(term)})(?:s|es)?(?![\w-])", re.IGNORECASE)
    return re.compile(escape(term))


def anchor(entry):
    """The entry's id on the glossary page, from its first English term: `leaf tensor`."""
    first = re.sub(r"\s*\(.*?\)", "", entry["en"].split("/")[0]).strip().lower()
    return re.sub(r"[^a-z0-9]+", "-", first).strip("-")


# not prose: code, links and images, HTML tags, URLs, attribute lists, markers, quotations
PROTECTED = re.compile(
    r"`[^`]*`|!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\([^)]*\)|<[^>]+>|https?://\S+|\{[^}]*\}+|\"[^\"]*\"|“[^”]*”"
)
TITLE_LINE = re.compile(r"^\s*(#|\?\?\?|!!!|===)")  # headings, admonition and tab titles


def link_first_uses(markdown, page, lang, entries):
    """The page's Markdown with the first use in prose of each glossary term linked to its
    entry on the glossary page: not in headings, code, links, quotations, admonition titles
    or going-deeper boxes, nor on the page that teaches the term, nor where it is an
    everyday word (`everyday:`)."""
    words = {}
    for entry in entries:
        if lang not in entry.get("everyday", []) and entry.get("taught", "").split("#")[0] != page:
            words.update({w.lower(): entry for w in terms(entry, lang)})
    if not words:
        return markdown
    either = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    found = pattern(either, lang, escape=str)
    target = posixpath.relpath(PAGE, posixpath.dirname(page) or ".")
    done = set()

    def link(match):
        word = match[0].lower()
        entry = next(words[w] for w in (word, word[:-1], word[:-2]) if w in words)
        if anchor(entry) in done:
            return match[0]
        done.add(anchor(entry))
        return f"[{match[0]}]({target}#{anchor(entry)})"

    def prose(text):  # the text between protected spans, linked
        parts = PROTECTED.split(text)
        spans = PROTECTED.findall(text)
        return "".join(found.sub(link, p) + s for p, s in zip(parts, [*spans, ""], strict=True))

    out, run, fence, box = [], [], None, None
    for line in markdown.split("\n"):
        if box is not None and line.strip() and not line.startswith(box + " "):
            box = None
        if fence is None and box is None and (match := DEEPER_BOX.match(line)):
            box = match[1]
        if fence is None and (match := FENCE.match(line)):
            fence = match["fence"]
        elif fence is not None and line.strip().startswith(fence):
            fence = ""
        if fence is None and box is None and not TITLE_LINE.match(line):
            run.append(line)
            continue
        out += [prose("\n".join(run))] if run else []
        out.append(line)
        run, fence = [], None if fence == "" else fence
    return "\n".join(out + ([prose("\n".join(run))] if run else []))
