"""What the build writes into a page, in one marker syntax: `{{ name }}` or `{{ name ARGUMENT }}`,
in the shape of Material's own shortcodes hook: one pattern, one dispatcher (MARKERS), and a
build error naming the page for a marker it does not know.

    {{ torch_version }}     the pinned torch (pyproject.toml)
    {{ gpu_check }}         the last run of the CUDA examples on a GPU (data/gpu_check.yml)
    {{ matrix_releases }}   the other releases of the version matrix (data/releases.yml)
    {{ glossary_entries }}  the glossary page's entries (glossary.yml)
    {{ error_table }}       the error table; each error's heading becomes its entry
    {{ bench NAME }}        the table NAME of the Measured page
    {{ chapter DIR }}       the home page's reading path: the section of `nav` whose pages are
    {{ chapter_pages DIR }} in DIR/, linked, with its core pages' time; its core pages, each with
    {{ path_time DIR }}     its own; the core time of the sections up to it, in hours; the
    {{ deeper_pages }}      going-deeper pages (`status: deeper`), by section

Each is rendered in the page's language, from data, never typed by hand.
"""

import difflib
import functools
import re

from mkdocs.exceptions import PluginError

from torch_verified import check_script, errors, gpu_record, matrix, measured
from torch_verified.citations import LINKS
from torch_verified.glossary import anchor, link_first_uses
from torch_verified.markdown import is_deeper, reading_minutes, title_of
from torch_verified.project import (
    DEFAULT_LANGUAGE,
    DOCS,
    glossary,
    language_of,
    nav,
    nav_name,
    page_of,
    pinned_torch,
)
from torch_verified.project import (
    other as other_language,
)
from torch_verified.strings import STRINGS

MARKER = re.compile(r"\{\{\s*(\w+)(?:\s+(\w+))?\s*\}\}")


def glossary_entries(entries, lang):
    """The glossary page's entries, sorted by the English term: the term in both languages
    (its anchor, glossary.anchor), its meaning in `lang`, the section that teaches it
    (`taught:`), the translations not used (`avoid:`)."""
    words, found = STRINGS[lang], []
    for t in sorted(entries, key=lambda t: t["en"].lower()):
        line = t["meaning"][lang]
        if "taught" in t:
            page = t["taught"].split("#")[0]
            title = title_of(DOCS / lang / page)
            line += words["glossary_taught"].format(title=title, link=f"../{t['taught']}")
        if "avoid" in t:
            line += words["glossary_avoid"].format(terms="、".join(t["avoid"]))
        other = t[other_language(lang)]
        found.append(f"**{t[lang]}** · {other} {{ #{anchor(t)} }}\n:   {line}\n")
    return "\n".join(found)


def minutes(page):
    """A page's reading time in whole minutes (at least 1), from its English text (the same
    in both languages): a core page's first pass, without its going-deeper boxes."""
    path = DOCS / DEFAULT_LANGUAGE / page
    return _minutes(path, path.stat().st_mtime_ns)


@functools.cache  # the path lists a page several times; `make serve` rebuilds in one process
def _minutes(path, mtime):
    return max(1, round(reading_minutes(path, first=not is_deeper(path))))


def section(key):
    """The number of the nav's section named by the folder of its first page (`devices`)."""
    found = [n for n, (_, pages) in enumerate(nav()) if pages[0].startswith(f"{key}/")]
    if not found:
        raise KeyError(f"mkdocs.yml: no section of nav starts with a page in {key}/")
    return found[0]


def core(key, deeper=False):
    """The core pages (or the going-deeper ones) of the section `key` (a folder or a number)."""
    pages = nav()[section(key) if isinstance(key, str) else key][1]
    return [p for p in pages if is_deeper(DOCS / DEFAULT_LANGUAGE / p) == deeper]


def chapter(lang, key):
    """The section `key` as the reading path names it: its first core page, linked (from the
    home page), and the time of its core pages, to 5 minutes."""
    name, pages = nav()[section(key)][0], core(key)
    total = 5 * max(1, round(sum(minutes(p) for p in pages) / 5))
    return STRINGS[lang]["path_chapter"].format(
        name=nav_name(lang, name), page=pages[0], minutes=total
    )


def page_list(lang, pages):
    words = STRINGS[lang]
    return words["path_separator"].join(
        words["path_page"].format(title=title_of(DOCS / lang / p), page=p, minutes=minutes(p))
        for p in pages
    )


def chapter_pages(lang, key):
    """The core pages of the section `key`, in nav order, each linked with its time."""
    return STRINGS[lang]["path_pages"].format(pages=page_list(lang, core(key)))


def deeper_pages(lang, _):
    """The going-deeper pages, one list item per section that has any, in nav order."""
    return "\n".join(
        STRINGS[lang]["path_deeper"].format(name=nav_name(lang, name), pages=page_list(lang, pages))
        for number, (name, _) in enumerate(nav())
        if name and (pages := core(number, deeper=True))
    )


def path_time(lang, last):
    """The reading time of the core pages of sections 1 to `last`, in whole hours."""
    total = sum(minutes(p) for number in range(1, section(last) + 1) for p in core(number))
    return STRINGS[lang]["path_hours"].format(hours=round(total / 60))


MARKERS = {
    "torch_version": lambda lang, _: pinned_torch(),
    "gpu_check": lambda lang, _: gpu_record.text(lang, gpu_record.load()),
    "matrix_releases": lambda lang, _: STRINGS[lang]["and"].join(matrix.load().releases),
    "glossary_entries": lambda lang, _: glossary_entries(glossary(), lang),
    "error_table": lambda lang, _: errors.render_table(lang),
    "bench": lambda lang, name: measured.render(name, measured.results(name), lang),
    "chapter": chapter,
    "chapter_pages": chapter_pages,
    "path_time": path_time,
    "deeper_pages": deeper_pages,
    "check_line": lambda lang, _: check_script.newest_release_line(lang),
    **{name: lambda lang, _, link=link: link() for name, link in LINKS.items()},
}


def unknown(markdown, first_line=1):
    """[(line, marker, the closest known one or None)] of the unknown markers of a page."""
    return [
        (first_line + markdown[: m.start()].count("\n"), m[0], close[0] if close else None)
        for m in MARKER.finditer(markdown)
        if m[1] not in MARKERS
        for close in [difflib.get_close_matches(m[1], MARKERS, n=1)]
    ]


def render(markdown, lang, where, first_line=1):
    """The page with each marker replaced; PluginError naming the page, the line and the
    marker (and the closest known one)."""
    if found := unknown(markdown, first_line):
        line, marker, close = found[0]
        hint = f"did you mean {{{{ {close} }}}}?" if close else f"known: {', '.join(MARKERS)}"
        raise PluginError(f"{where}:{line}: unknown marker {marker} ({hint}; hooks/shortcodes.py)")
    try:
        if any(m[1] == "error_table" for m in MARKER.finditer(markdown)):
            markdown = errors.with_entries(markdown, lang)
        return MARKER.sub(lambda m: MARKERS[m[1]](lang, m[2]), markdown)
    except (
        ValueError,
        KeyError,
        OSError,
        IndexError,
    ) as error:  # the data's own errors name their file
        raise PluginError(f"{where}: {error}") from error


def on_page_markdown(markdown, page, config, files):
    """The markers replaced; on a core page, the first use of each glossary term linked to
    its entry on the glossary page."""
    lang = language_of(config, page)
    name = page_of(page.file, lang)
    first_line = page.file.content_string.count("\n") - markdown.count("\n") + 1
    if name in CORE and page.meta.get("status") != "deeper":
        markdown = link_first_uses(markdown, name, lang, glossary())
    return render(markdown, lang, f"docs/{page.file.src_uri}", first_line)


# the pages whose terms link to the glossary: the nav's sections, not the glossary itself
CORE = {p for name, pages in nav() if name for p in pages if p != "reference/glossary.md"}
