"""What the build writes into a page, in one marker syntax: `{{ name }}` or `{{ name ARGUMENT }}`,
in the shape of Material's own shortcodes hook: one pattern, one dispatcher (MARKERS), and a
build error naming the page for a marker it does not know.

    {{ torch_version }}     the pinned torch (pyproject.toml)
    {{ gpu_check }}         the last run of the CUDA examples on a GPU (data/gpu_check.yml)
    {{ matrix_releases }}   the other releases of the version matrix (data/releases.yml)
    {{ glossary_rows }}     the rows of the glossary's table (glossary.yml)
    {{ error_table }}       the error table; each error's heading becomes its entry
    {{ bench NAME }}        the table NAME of the Measured page
    {{ chapter N }}         the home page's reading path: section N of `nav` (the home page
    {{ chapter_pages N }}   is 0), linked, with its reading time; its pages, each with its own
    {{ path_time N }}       the reading time of sections 1 to N, in hours

Each is rendered in the page's language, from data, never typed by hand.
"""

import difflib
import functools
import re

from mkdocs.exceptions import PluginError

from torch_verified import check_script, errors, gpu_record, matrix, measured
from torch_verified.citations import LINKS
from torch_verified.markdown import reading_minutes, title_of
from torch_verified.project import (
    DEFAULT_LANGUAGE,
    DOCS,
    glossary,
    language_of,
    nav,
    nav_name,
    pinned_torch,
)
from torch_verified.strings import STRINGS

MARKER = re.compile(r"\{\{\s*(\w+)(?:\s+(\w+))?\s*\}\}")


def glossary_rows(terms, lang):
    """One Markdown table row per term, sorted by the English term: English | 中文 | avoid;
    the term of the page's language links to the section that teaches it (`taught:`, from
    the glossary page, reference/glossary.md)."""

    def cell(text):
        return text.replace("|", "\\|")

    def term(t, language):
        if language != lang or "taught" not in t:
            return cell(t[language])
        return f"[{cell(t[language])}](../{t['taught']})"

    return "\n".join(
        f"| {term(t, 'en')} | {term(t, 'zh')} | {cell('、'.join(t.get('avoid', [])))} |"
        for t in sorted(terms, key=lambda t: t["en"].lower())
    )


def minutes(page):
    """A page's reading time in whole minutes (at least 1), from its English text: the same
    in both languages."""
    path = DOCS / DEFAULT_LANGUAGE / page
    return _minutes(path, path.stat().st_mtime_ns)


@functools.cache  # the path lists a page several times; `make serve` rebuilds in one process
def _minutes(path, mtime):
    return max(1, round(reading_minutes(path)))


def chapter(lang, number):
    """Section `number` of the nav as the reading path names it: its first page, linked
    (from the home page), and its time, to 5 minutes."""
    name, pages = nav()[int(number)]
    total = 5 * max(1, round(sum(minutes(p) for p in pages) / 5))
    return STRINGS[lang]["path_chapter"].format(
        name=nav_name(lang, name), page=pages[0], minutes=total
    )


def chapter_pages(lang, number):
    """The pages of section `number`, in nav order, each linked with its time."""
    words = STRINGS[lang]
    pages = [
        words["path_page"].format(title=title_of(DOCS / lang / p), page=p, minutes=minutes(p))
        for p in nav()[int(number)][1]
    ]
    return words["path_pages"].format(pages=words["path_separator"].join(pages))


def path_time(lang, last):
    """The reading time of sections 1 to `last`, in whole hours."""
    total = sum(minutes(p) for _, pages in nav()[1 : int(last) + 1] for p in pages)
    return STRINGS[lang]["path_hours"].format(hours=round(total / 60))


MARKERS = {
    "torch_version": lambda lang, _: pinned_torch(),
    "gpu_check": lambda lang, _: gpu_record.text(lang, gpu_record.load()),
    "matrix_releases": lambda lang, _: STRINGS[lang]["and"].join(matrix.load().releases),
    "glossary_rows": lambda lang, _: glossary_rows(glossary(), lang),
    "error_table": lambda lang, _: errors.render_table(lang),
    "bench": lambda lang, name: measured.render(name, measured.results(name), lang),
    "chapter": chapter,
    "chapter_pages": chapter_pages,
    "path_time": path_time,
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
    first_line = page.file.content_string.count("\n") - markdown.count("\n") + 1
    return render(markdown, language_of(config, page), f"docs/{page.file.src_uri}", first_line)
