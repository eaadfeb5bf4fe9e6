"""The error table cannot drift from PyTorch: its messages are read from checked snippets.

hooks/error_table.py builds the table and the entries of errors/error-table.md from
snippets/errors/*.pycon (the message) and data/errors.yml (cause and fix, per language).
Sybil runs every snippet against PyTorch, so a message that PyTorch no longer prints fails
its snippet; these tests make sure that the page shows exactly those messages, one row and
one entry per snippet, in both languages, each entry under its stable anchor, and that the
search index holds each message in its entry's heading and not in the table.
"""

import doctest
import html
import json
import re
import shutil

import pytest
import yaml

from hooks import error_table
from hooks.version import pinned_torch_version
from tests.sitetools import DOCS, LANGUAGES, site_page

SNIPPETS = error_table.error_snippets()
PAGE = "errors/error-table.md"
PINNED = pinned_torch_version()
MATRIX = yaml.safe_load((DOCS.parent / "data" / "releases.yml").read_text(encoding="utf-8"))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# The last line(s) of a doctest traceback: from the line `Type: message` to the next prompt.
TRACEBACK = re.compile(
    r"^Traceback \(most recent call last\):\n(?:[ \t][^\n]*\n)*(?P<message>\S.*?)(?=^>>> |\Z)",
    re.MULTILINE | re.DOTALL,
)
ROW = re.compile(r"<tr>(.*?)</tr>", re.DOTALL)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.DOTALL)


def message_in(path):
    """The message a snippet's traceback expects, found without the hook's code."""
    found = TRACEBACK.findall(path.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{path}: expected one traceback, found {len(found)}"
    return " ".join(found[0].split())


def text_of(fragment):
    """The text of an HTML fragment, as a reader sees it."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def table_rows(table):
    """{anchor: [cell HTML, ...]} of the rendered table (the last cell links to the entry)."""
    rows = {}
    for row in ROW.findall(table):
        cells = CELL.findall(row)
        if cells:
            (link,) = re.findall(r'href="#([\w-]+)"', cells[-1])
            rows[link] = cells
    return rows


def test_there_are_error_snippets():
    assert len(SNIPPETS) >= 15, "snippets/errors/ should hold one snippet per error of the table"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_snippet_has_a_row_and_every_row_a_snippet(lang):
    rows = error_table.load_rows()
    no_row = sorted(set(SNIPPETS) - set(rows))
    no_snippet = sorted(set(rows) - set(SNIPPETS))
    assert not no_row, f"add these to data/errors.yml (cause and fix in en and zh): {no_row}"
    assert not no_snippet, (
        f"data/errors.yml rows without snippets/errors/<name>.pycon: {no_snippet}"
    )
    missing = [name for name, row in rows.items() if not {"cause", "fix"} <= set(row[lang])]
    assert not missing, f"data/errors.yml: write `cause` and `fix` in {lang!r} for {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_shows_exactly_the_messages_of_the_snippets(lang):
    rows = table_rows(error_table.render_table(lang, PINNED))
    assert len(rows) == len(SNIPPETS), f"{lang}: {len(rows)} rows for {len(SNIPPETS)} snippets"
    for name, path in SNIPPETS.items():
        cells = rows[error_table.anchor(name)]
        shown = html.unescape(re.findall(r"<code>(.*?)</code>", cells[0])[0])
        assert shown == message_in(path), (
            f"{lang}: the row of {path.name} shows {shown!r} first, the snippet expects "
            f"{message_in(path)!r}"
        )
        assert PINNED in text_of(cells[0]), (
            f"{lang}: the row of {path.name} does not name the release that prints it"
        )


def older_messages():
    """(snippet name, message, releases) for each error that data/releases.yml says other
    releases print differently (`make matrix` checks that they do)."""
    found = []
    for entry in MATRIX.get("outputs") or ():
        folder, _, file = entry["snippet"].partition("/")
        if folder == "errors":
            name = file.removesuffix(".pycon")
            found.append((name, " ".join(entry["output"].split()), entry["releases"]))
    return found


def test_the_version_matrix_has_an_error_message_of_another_release():
    assert older_messages(), "data/releases.yml: no error message differs between releases"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("name", "message", "releases"), older_messages())
def test_the_table_shows_what_other_releases_print(lang, name, message, releases):
    rows = table_rows(error_table.render_table(lang, PINNED))
    cell = text_of(rows[error_table.anchor(name)][0])
    assert message in cell, f"{lang}: the row of {name} does not show {message!r}: {cell!r}"
    after = cell[cell.index(message) + len(message) :]
    assert releases[0] in after.split("RuntimeError")[0], (
        f"{lang}: the row of {name} does not say which releases print {message!r}: {cell!r}"
    )
    assert PINNED not in after.split("RuntimeError")[0], (
        f"{lang}: the row of {name} says the pin {PINNED} prints {message!r}: {cell!r}"
    )


def test_the_table_follows_an_edited_snippet(tmp_path):
    """Edit a message in a snippet: the table shows the new text, not a stored copy."""
    folder = tmp_path / "errors"
    shutil.copytree(error_table.SNIPPETS, folder)
    path = folder / "reshape_size.pycon"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("is invalid for input of size 12", "is too big"), "utf-8")
    table = html.unescape(error_table.render_table("en", PINNED, folder=folder))
    assert "shape '[4, 4]' is too big" in table
    assert "is invalid for input of size 12" not in table


@pytest.mark.parametrize("name", sorted(n for n, p in SNIPPETS.items() if ".cuda." not in p.name))
def test_a_changed_message_fails_the_snippet(name):
    """What the tests do when PyTorch rewords a message: the snippet no longer passes."""
    path = SNIPPETS[name]
    text = path.read_text(encoding="utf-8")
    start = TRACEBACK.search(text).start("message")
    changed = text[:start] + text[start:].replace(": ", ": Reworded ", 1)
    test = doctest.DocTestParser().get_doctest(changed, {}, name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=lambda _: None)
    assert runner.failures == 1, f"{path}: a reworded message should fail exactly one example"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_example_is_shown_under_its_anchor(lang):
    """Each error's entry is a heading `{ #<name> }` followed by that error's snippet."""
    text = (DOCS / lang / PAGE).read_text(encoding="utf-8")
    assert error_table.MARKER in text, f"docs/{lang}/{PAGE}: put the line {error_table.MARKER}"
    for name, path in SNIPPETS.items():
        pattern = (
            rf"^### .*\{{ #{re.escape(error_table.anchor(name))} \}}\n(?:(?!^#).*\n)*?"
            rf'--8<-- "errors/{re.escape(path.name)}"'
        )
        assert re.search(pattern, text, re.MULTILINE), (
            f"docs/{lang}/{PAGE}: include errors/{path.name} under a heading "
            f"`### … {{ #{error_table.anchor(name)} }}`"
        )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gpu_only_rows_say_so(lang):
    rows = table_rows(error_table.render_table(lang, PINNED))
    for name, path in SNIPPETS.items():
        if path.name.endswith(".cuda.pycon"):
            assert error_table.GPU_ONLY[lang] in rows[error_table.anchor(name)][-1]


@pytest.mark.parametrize(
    ("message", "heading"),
    [
        (
            (
                "RuntimeError: Trying to backward through the graph a second time (or directly "
                "access saved tensors after they have already been freed). ..."
            ),
            (
                "Trying to backward through the graph a second time (or directly access saved "
                "tensors after they have already been freed)."
            ),
        ),
        (
            (
                "_pickle.UnpicklingError: Weights only load failed. This file can still be "
                "loaded, to do so you have two options, ..."
            ),
            "Weights only load failed. This file can still be loaded, to do so you have two options",
        ),
        ("RuntimeError: mm: mat1 and mat2", "mm: mat1 and mat2"),
    ],
)
def test_an_entry_heading_is_the_message_without_its_type(message, heading):
    assert error_table.heading_text(message) == heading


def built_entries(site, lang):
    """{anchor: (heading text, entry text up to the next heading)} of the built page."""
    built = site_page(site, lang, PAGE).read_text(encoding="utf-8")
    parts = re.split(r'(<h3 class="error-entry" id="[\w-]+">.*?</h3>)', built)
    entries = {}
    for heading, body in zip(parts[1::2], parts[2::2]):
        anchor = re.search(r'id="([\w-]+)"', heading).group(1)
        heading = re.sub(r'<a class="headerlink".*?</a>', "", heading)
        entries[anchor] = (text_of(heading).strip(), text_of(re.split(r"<h[1-3]\b", body)[0]))
    return entries


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_error_has_an_entry_headed_by_its_message(site, lang):
    entries = built_entries(site, lang)
    assert set(entries) == {error_table.anchor(name) for name in SNIPPETS}, (
        f"docs/{lang}/{PAGE}: the entries are {sorted(entries)}, one per snippet expected"
    )
    rows = error_table.load_rows()
    for name, path in SNIPPETS.items():
        heading, text = entries[error_table.anchor(name)]
        message = message_in(path)
        assert heading == error_table.heading_text(message), (
            f"docs/{lang}/{PAGE}#{error_table.anchor(name)}: the heading is {heading!r}, not "
            f"the message of {path.name}"
        )
        flat = " ".join(text.split())
        for shown in (message, PINNED, text_of(rows[name][lang]["cause"])[:40]):
            assert " ".join(shown.replace("`", "").split()) in flat, (
                f"docs/{lang}/{PAGE}#{error_table.anchor(name)}: the entry does not show {shown!r}"
            )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_finds_messages_in_entries_not_in_the_table(site, lang):
    """Material's search weighs headings: each entry's heading is its message, and the table,
    which repeats every message, is left out of the index (or it would match them all)."""
    index = site / ("" if lang == "en" else lang) / "search" / "search_index.json"
    docs = {d["location"]: d for d in json.loads(index.read_text(encoding="utf-8"))["docs"]}
    page = "errors/error-table/"
    for name, path in SNIPPETS.items():
        entry = docs.get(f"{page}#{error_table.anchor(name)}")
        assert entry, f"{lang}: the search index has no entry {page}#{error_table.anchor(name)}"
        title = text_of(entry["title"]).replace("\u200b", "")
        assert title == error_table.heading_text(message_in(path)), (
            f"{lang}: the search title of {path.name}'s entry is {title!r}"
        )
    table = text_of(docs.get(f"{page}#table", {}).get("text", ""))
    assert "RuntimeError" not in table, f"{lang}: the table is in the search index: {table[:200]}"
