"""What the build writes into a page, in one marker syntax: `{{ name }}` or `{{ name ARGUMENT }}`,
in the shape of Material's own shortcodes hook: one pattern, one dispatcher (MARKERS), and a
build error naming the page for a marker it does not know.

    {{ torch_version }}     the pinned torch (pyproject.toml)
    {{ gpu_check }}         the last run of the CUDA examples on a GPU (data/gpu_check.yml)
    {{ matrix_releases }}   the other releases of the version matrix (data/releases.yml)
    {{ glossary_rows }}     the rows of the glossary's table (glossary.yml)
    {{ error_table }}       the error table; each error's heading becomes its entry
    {{ bench NAME }}        the table NAME of the Measured page

Each is rendered in the page's language, from data, never typed by hand.
"""

import re

from mkdocs.exceptions import PluginError

from torch_verified import errors, gpu_record, matrix, measured
from torch_verified.project import glossary, language_of, pinned_torch
from torch_verified.strings import STRINGS

MARKER = re.compile(r"\{\{\s*(\w+)(?:\s+(\w+))?\s*\}\}")


def glossary_rows(terms):
    """One Markdown table row per term, sorted by the English term: English | 中文 | avoid."""

    def cell(text):
        return text.replace("|", "\\|")

    return "\n".join(
        f"| {cell(t['en'])} | {cell(t['zh'])} | {cell('、'.join(t.get('avoid', [])))} |"
        for t in sorted(terms, key=lambda t: t["en"].lower())
    )


MARKERS = {
    "torch_version": lambda lang, _: pinned_torch(),
    "gpu_check": lambda lang, _: gpu_record.text(lang, gpu_record.load()),
    "matrix_releases": lambda lang, _: STRINGS[lang]["and"].join(matrix.load().releases),
    "glossary_rows": lambda lang, _: glossary_rows(glossary()),
    "error_table": lambda lang, _: errors.render_table(lang),
    "bench": lambda lang, name: measured.render(name, measured.results(name), lang),
}


def render(markdown, lang, where):
    """The page with each marker replaced; PluginError naming the page and the marker."""

    def replace(match):
        name, argument = match.groups()
        if name not in MARKERS:
            known = ", ".join(f"{{{{ {n} }}}}" for n in MARKERS)
            raise PluginError(
                f"{where}: unknown marker {match[0]} (known: {known}; hooks/shortcodes.py)"
            )
        return MARKERS[name](lang, argument)

    try:
        if any(m[1] == "error_table" for m in MARKER.finditer(markdown)):
            markdown = errors.with_entries(markdown, lang)
        return MARKER.sub(replace, markdown)
    except (ValueError, KeyError, OSError) as error:  # the data's own errors name their file
        raise PluginError(f"{where}: {error}") from error


def on_page_markdown(markdown, page, config, files):
    return render(markdown, language_of(config, page), f"docs/{page.file.src_uri}")
