"""Interface strings that no configuration translates, in the page's language.

Material translates its own interface (`theme.language`, which the i18n plugin sets for each
language), and the colour toggle's names are set per language in mkdocs.yml (i18n →
languages → zh → theme → palette). Left are strings written in English by code that has no
per-language setting:

- the `title` of each heading's permalink (the toc extension's `permalink_title`; notebook
  headings get the same link from hooks/notebooks.py);
- the copy button of notebook code cells (nbconvert's template: "Copy to Clipboard",
  "Copied!").

This hook rewrites them on every page, in both languages, from the one table below. The
Chinese words are those of Material's own Chinese language pack (复制, 已复制).
"""

import re

# (what the page holds, {language: what the reader gets}); \1 keeps what the pattern groups
STRINGS = [
    (
        r'(<a class="headerlink" href="#[^"]*") title="Permanent link"',
        {"en": r'\1 title="Permanent link"', "zh": r'\1 title="永久链接"'},
    ),
    (
        r'(<clipboard-copy [^>]*)aria-label="Copy to Clipboard"',
        {"en": r'\1aria-label="Copy to clipboard"', "zh": r'\1aria-label="复制到剪贴板"'},
    ),
    (
        r'(<span class="notice" hidden(?:="")?>)Copied!(</span>)',
        {"en": r"\1Copied!\2", "zh": r"\1已复制\2"},
    ),
]
PATTERNS = [(re.compile(pattern), by_language) for pattern, by_language in STRINGS]


def translate(html, language):
    """The page with each string of STRINGS in `language` (a language not in the table:
    unchanged, so a new language shows up in tests/test_ui_strings.py, not as a crash)."""
    for pattern, by_language in PATTERNS:
        if language in by_language:
            html = pattern.sub(by_language[language], html)
    return html


def on_post_page(output, page, config):
    return translate(output, config.theme["language"])
