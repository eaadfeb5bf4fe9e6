"""Interface strings that no configuration translates, in the page's language.

Material translates its own interface (`theme.language`, which the i18n plugin sets for each
language), and the colour toggle's names are set per language in mkdocs.yml (i18n →
languages → zh → theme → palette). Left are strings written in English by code that has no
per-language setting: the `title` of each heading's permalink (the toc extension's
`permalink_title`; notebook headings get the same link from hooks/jupyter_pages.py) and the
copy button of notebook code cells (nbconvert's template: "Copy to Clipboard", "Copied!").
This hook rewrites them on every page from torch_verified/strings.py; the Chinese words are
those of Material's own Chinese language pack (复制, 已复制). It also names Material's search
dialog as its search box is named, in the page's language (Lighthouse: aria-dialog-name).
"""

import re

from torch_verified.project import language_of
from torch_verified.strings import STRINGS

# what the page holds -> (the key of strings.py, the page's text with the group kept)
PATTERNS = {
    re.compile(r'(<a class="headerlink" href="#[^"]*") title="[^"]*"'): (
        "permalink",
        r'\1 title="{}"',
    ),
    re.compile(r'(<clipboard-copy [^>]*)aria-label="[^"]*"'): ("copy_cell", r'\1aria-label="{}"'),
    re.compile(r'(<span class="notice" hidden(?:="")?>)[^<]*(</span>)'): ("copied", r"\1{}\2"),
}


SEARCH = re.compile(
    r'(<div class="md-search" data-md-component="search" role="dialog")'
    r'(>.*?<input [^>]*class="md-search__input"[^>]*aria-label="([^"]*)")',
    re.DOTALL,
)


def translate(html, language):
    """The page with each string of PATTERNS in `language`, and its search dialog named."""
    for pattern, (key, replacement) in PATTERNS.items():
        html = pattern.sub(replacement.format(STRINGS[language][key]), html)
    return SEARCH.sub(r'\1 aria-label="\3"\2', html, count=1)


def on_post_page(output, page, config):
    return translate(output, language_of(config, page))


def on_post_template(output_content, template_name, config):  # 404.html
    return translate(output_content, language_of(config))
