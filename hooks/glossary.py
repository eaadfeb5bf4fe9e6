"""Show glossary.yml on the glossary pages: `{{ glossary_rows }}` becomes the table's rows.

Each page writes the table's header in its own language, then the placeholder. The rows
are read from glossary.yml at build time, so the page is the list the tests hold the
Chinese pages to, never a copy of it.
"""

from pathlib import Path

import yaml

GLOSSARY = Path(__file__).parent.parent / "glossary.yml"
PLACEHOLDER = "{{ glossary_rows }}"


def load(path=GLOSSARY):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def rows(terms):
    """One Markdown table row per term, sorted by the English term: English | 中文 | avoid."""

    def cell(text):
        return text.replace("|", "\\|")

    return "\n".join(
        f"| {cell(t['en'])} | {cell(t['zh'])} | {cell('、'.join(t.get('avoid', [])))} |"
        for t in sorted(terms, key=lambda t: t["en"].lower())
    )


def on_page_markdown(markdown, page, config, files):
    return markdown.replace(PLACEHOLDER, rows(load())) if PLACEHOLDER in markdown else markdown
