"""The two languages stay page for page, and every snippet is shown and exists."""

import difflib

import pytest

from hooks.includes import missing
from hooks.shortcodes import unknown
from torch_verified.markdown import (
    FENCE,
    FENCED_INCLUDE,
    INCLUDE,
    TITLE,
    headings,
    include_lines,
    includes,
    line_of,
    markdown_of,
)
from torch_verified.project import (
    DOCS,
    LANGUAGES,
    ROOT,
    SNIPPETS,
    config,
    markdown_pages,
    pages,
    snippet_files,
    twins,
)

EN, ZH = LANGUAGES
ALL_MD = [(lang, page) for lang in LANGUAGES for page in markdown_pages(lang)]
ALL_PAGES = [(lang, page) for lang in LANGUAGES for page in pages(lang)]


def test_every_page_has_a_twin():
    missing = [
        f"docs/{a}/{p} has no twin at docs/{b}/{p}: write it (same path)"
        for a, b in ((EN, ZH), (ZH, EN))
        for p in sorted(set(pages(a)) - set(pages(b)))
    ]
    if missing:
        pytest.fail("\n".join(missing), pytrace=False)


def parity(en, zh, page):
    """One line for each include one twin has and the other lacks, with its neighbour."""
    lines = {
        lang: include_lines((DOCS / lang / page).read_text(encoding="utf-8")) for lang in (en, zh)
    }
    a, b = ([name for _, name in lines[lang]] for lang in (en, zh))
    problems = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1:  # the same place, another name: one is misspelt
            for k, m in zip(range(i1, i2), range(j1, j2), strict=True):
                wrong = [
                    f"docs/{lang}/{page}:{lines[lang][i][0]} includes {name}, which does not exist"
                    for lang, name, i in ((en, a[k], k), (zh, b[m], m))
                    if not (SNIPPETS / name).is_file()
                ]
                problems += wrong or [
                    f"docs/{en}/{page}:{lines[en][k][0]} includes {a[k]} where docs/{zh}/{page}:{lines[zh][m][0]} includes {b[m]}"
                ]
            continue
        for has, lacks, side, lo, hi in ((en, zh, a, i1, i2), (zh, en, b, j1, j2)):
            for k in range(lo, hi) if op != "equal" else ():
                after = f"after {side[k - 1]}" if k else "first"
                line = lines[has][k][0]
                problems.append(
                    f"docs/{lacks}/{page} lacks {side[k]} (docs/{has}/{page}:{line}, {after})"
                )
    return problems


def test_every_page_is_in_the_nav():
    """mkdocs.yml lists each page once, by its path: the same entry serves both languages."""

    def paths(nav):
        for item in nav:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            yield from paths(value) if isinstance(value, list) else [value]

    listed = set(paths(config()["nav"]))
    missing = [
        f"docs/{EN}/{p} is in no `nav:` entry of mkdocs.yml: add `- {p}`"
        for p in pages(EN)
        if p not in listed
    ]
    if missing:
        pytest.fail("\n".join(missing), pytrace=False)


@pytest.mark.parametrize("page", twins(markdown_only=True))
def test_twins_include_the_same_snippets_in_the_same_order(page):
    if problems := parity(EN, ZH, page):
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.parametrize("page", twins())
def test_twins_have_the_same_heading_anchors(page):
    """One line per anchor that one twin has and the other lacks (or has elsewhere)."""
    texts = {lang: markdown_of(DOCS / lang / page) for lang in LANGUAGES}
    en, zh = ([a for _, _, a in headings(texts[lang])] for lang in LANGUAGES)
    problems = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, en, zh, autojunk=False).get_opcodes():
        for has, lacks, side, lo, hi in ((EN, ZH, en, i1, i2), (ZH, EN, zh, j1, j2)):
            for k in range(lo, hi) if op != "equal" else ():
                line = line_of(texts[has], texts[has].find(f"#{side[k]}"))
                after = f"after #{side[k - 1]}" if k else "first"
                problems.append(
                    f"docs/{lacks}/{page} lacks #{side[k]} here (docs/{has}/{page}:{line}, {after})"
                )
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.parametrize(("lang", "page"), ALL_PAGES)
def test_every_heading_has_an_explicit_anchor(lang, page):
    bare = [
        title for _, title, anchor in headings(markdown_of(DOCS / lang / page)) if anchor is None
    ]
    example = '## Title <a id="title"></a>' if page.endswith(".ipynb") else "## Title { #title }"
    assert not bare, (
        f"docs/{lang}/{page}: give these headings an explicit anchor, the same in both "
        f"languages, e.g. `{example}`: {bare}"
    )


def test_no_orphan_snippets():
    used = {
        name for lang, page in ALL_MD for name in includes((DOCS / lang / page).read_text("utf-8"))
    }
    orphans = [f"snippets/{s}" for s in snippet_files() if s not in used]
    assert not orphans, "snippets that no page includes (include them or delete them):\n  " + (
        "\n  ".join(orphans)
    )


@pytest.mark.parametrize(("lang", "page"), ALL_MD)
def test_every_include_resolves(lang, page):
    if problems := list(missing([DOCS / lang / page], SNIPPETS, ROOT)):
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.parametrize(("lang", "page"), ALL_MD)
def test_every_marker_is_known(lang, page):
    """A mistyped {{ marker }} fails here (make check), before a build would."""
    found = unknown((DOCS / lang / page).read_text(encoding="utf-8"))
    problems = [
        f"docs/{lang}/{page}:{line}: unknown marker {marker}"
        + (f"; did you mean {{{{ {close} }}}}?" if close else "")
        for line, marker, close in found
    ]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


SCRIPT_LANGUAGES = {"bash", "sh", "shell", "console", "text", "yaml", "toml", "json", "diff"}
PYTHON = {"python", "py", "pycon"}


@pytest.mark.parametrize(("lang", "page"), ALL_MD)
def test_python_appears_only_as_checked_snippets(lang, page):
    """A python/pycon fence in a page only includes snippets (which run as tests): no
    example code is written in a page, where nothing would run it."""
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    problems, fence = [], None
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if fence is None and match:
            fence, language, body, start = match["fence"], match["lang"], [], number
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


@pytest.mark.parametrize(("lang", "page"), ALL_MD)
def test_a_block_title_is_a_caption_for_learners(lang, page):
    """A code block's title is a caption in the page's language ("From Python lists"), never
    the snippet's file name: lessons speak to learners (issue 32)."""
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    wrong = [
        f'docs/{lang}/{page}:{line_of(text, m.start())}: include "{m["snippet"]}" has '
        + (f'the title "{title[1]}", a file name' if title else "no title")
        for m in FENCED_INCLUDE.finditer(text)
        if not (title := TITLE.search(m["attrs"])) or ".pycon" in title[1] or not title[1].strip()
    ]
    if wrong:
        pytest.fail(
            "\n".join(wrong) + '\n(write title="<a caption in the page\'s language>")',
            pytrace=False,
        )


def test_parity_names_the_missing_include_and_its_neighbour(tmp_path, monkeypatch):
    for lang, names in ((EN, ["a", "b", "c"]), (ZH, ["a", "c"])):
        (tmp_path / lang).mkdir()
        text = "".join(f'```pycon\n--8<-- "x/{n}.pycon"\n```\n' for n in names)
        (tmp_path / lang / "p.md").write_text(text, encoding="utf-8")
    monkeypatch.setitem(globals(), "DOCS", tmp_path)
    assert parity(EN, ZH, "p.md") == [
        "docs/zh/p.md lacks x/b.pycon (docs/en/p.md:5, after x/a.pycon)"
    ]
