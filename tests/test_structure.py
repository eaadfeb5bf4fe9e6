"""The two languages stay page for page, and every snippet is shown and exists."""

import re

import pytest

from hooks.includes import missing
from tests.sitetools import (
    DOCS,
    INCLUDE,
    LANGUAGES,
    ROOT,
    SNIPPETS,
    headings,
    includes,
    markdown_pages,
    pages,
    snippet_files,
)

EN, ZH = LANGUAGES
TWINS = sorted(set(markdown_pages(EN)) & set(markdown_pages(ZH)))
ALL_MD = [(lang, page) for lang in LANGUAGES for page in markdown_pages(lang)]
# Markdown pages and notebooks: a notebook's headings carry anchors as `<a id="..."></a>`
TWIN_PAGES = sorted(set(pages(EN)) & set(pages(ZH)))
ALL_PAGES = [(lang, page) for lang in LANGUAGES for page in pages(lang)]


def test_every_page_has_a_twin():
    missing = [
        f"docs/{a}/{p} has no twin at docs/{b}/{p}: translate it (same path)"
        for a, b in ((EN, ZH), (ZH, EN))
        for p in sorted(set(pages(a)) - set(pages(b)))
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("page", TWINS)
def test_twins_include_the_same_snippets_in_the_same_order(page):
    en, zh = includes(DOCS / EN / page), includes(DOCS / ZH / page)
    assert en == zh, (
        f"docs/en/{page} and docs/zh/{page} must include the same snippets in the same order;\n"
        f"  en: {en}\n  zh: {zh}"
    )


@pytest.mark.parametrize("page", TWIN_PAGES)
def test_twins_have_the_same_heading_anchors(page):
    en = [a for _, _, a in headings(DOCS / EN / page)]
    zh = [a for _, _, a in headings(DOCS / ZH / page)]
    assert en == zh, (
        f"docs/en/{page} and docs/zh/{page} must have the same heading anchors, in order;\n"
        f"  en: {en}\n  zh: {zh}"
    )


@pytest.mark.parametrize(("lang", "page"), ALL_PAGES)
def test_every_heading_has_an_explicit_anchor(lang, page):
    bare = [title for _, title, anchor in headings(DOCS / lang / page) if anchor is None]
    example = '## Title <a id="title"></a>' if page.endswith(".ipynb") else "## Title { #title }"
    assert not bare, (
        f"docs/{lang}/{page}: give these headings an explicit anchor, the same in both "
        f"languages, e.g. `{example}`: {bare}"
    )


def test_no_orphan_snippets():
    used = {name for lang, page in ALL_MD for name in includes(DOCS / lang / page)}
    orphans = [f"snippets/{s}" for s in snippet_files() if s not in used]
    assert not orphans, "snippets that no page includes (include them or delete them):\n  " + (
        "\n  ".join(orphans)
    )


@pytest.mark.parametrize(("lang", "page"), ALL_MD)
def test_every_include_resolves(lang, page):
    problems = list(missing([DOCS / lang / page], SNIPPETS, ROOT))
    assert not problems, "\n".join(problems)


FENCE_OPEN = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)(.*)$")
SCRIPT_LANGUAGES = {"bash", "sh", "shell", "console", "text", "yaml", "toml", "json", "diff"}
PYTHON = {"python", "py", "pycon"}


@pytest.mark.parametrize(("lang", "page"), ALL_MD)
def test_python_appears_only_as_checked_snippets(lang, page):
    """A python/pycon fence in a page only includes snippets (which run as tests): no
    example code is written in a page, where nothing would run it."""
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    problems, fence, language, body = [], None, None, []
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE_OPEN.match(line)
        if fence is None and match:
            fence, language, body, start = match.group(1), match.group(2), [], number
        elif fence is not None and line.strip() == fence:
            if language not in SCRIPT_LANGUAGES | PYTHON:
                problems.append(f"line {start}: fence language {language!r} is not allowed")
            if language == "mermaid":
                problems.append(f"line {start}: mermaid loads a script from a third-party host")
            code = [b for b in body if b.strip()]
            if language in PYTHON and not (code and all(INCLUDE.match(b) for b in code)):
                problems.append(
                    f"line {start}: python code written in the page runs nowhere; put it in "
                    'snippets/<chapter>/<topic>.pycon and include it (--8<-- "<chapter>/<topic>.pycon")'
                )
            fence = None
        elif fence is not None:
            body.append(line)
    assert not problems, f"docs/{lang}/{page}:\n  " + "\n  ".join(problems)


TITLED_INCLUDE = re.compile(
    r'^[ \t]*```+\w*[^\n]*?\btitle="([^"]*)"[^\n]*\n[ \t]*-+8<-+[ \t]+"([^"]+)"', re.MULTILINE
)


@pytest.mark.parametrize(("lang", "page"), ALL_MD)
def test_a_block_title_is_a_caption_for_learners(lang, page):
    """A code block's title is a caption in the page's language ("From Python lists"), not a
    file name; the snippet's file is one click away in the rendered block. Titles that still
    name their own include are accepted until every chapter has captions (issue 32)."""
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    wrong = [
        f'line {text.count(chr(10), 0, m.start()) + 1}: title="{m.group(1)}" (include "{m.group(2)}")'
        for m in TITLED_INCLUDE.finditer(text)
        if m.group(1) != m.group(2) and (".pycon" in m.group(1) or not m.group(1).strip())
    ]
    assert not wrong, (
        f"docs/{lang}/{page}: a block's title is a caption for learners, not a file name:\n  "
        + "\n  ".join(wrong)
    )
