"""The error table cannot drift from PyTorch: its messages are read from checked snippets.

torch_verified/errors.py builds the table and the entries of errors/error-table.md from
snippets/errors/*.pycon (the message) and data/errors.yml (cause and fix, per language).
Sybil runs every snippet against PyTorch, so a message that PyTorch no longer prints fails
its snippet; these tests make sure that the page shows exactly those messages, one row and
one entry per snippet, in both languages, each entry under its stable anchor, and that the
search index holds each message in its entry's heading and not in the table. The message a
snippet expects is found here without the library's code (TRACEBACK).
"""

import html
import json
import re
import shutil

import pytest

from torch_verified import errors, matrix, search
from torch_verified.examples import run_file
from torch_verified.markdown import includes
from torch_verified.project import DOCS, LANGUAGES, kind, pinned_torch, search_index
from torch_verified.strings import STRINGS

SNIPPETS = errors.error_snippets()
PAGE = "errors/error-table.md"
# The last line(s) of a doctest traceback: from the line `Type: message` to the next prompt.
TRACEBACK = re.compile(
    r"^Traceback \(most recent call last\):\n(?:[ \t][^\n]*\n)*(?P<message>\S.*?)(?=^>>> |\Z)",
    re.MULTILINE | re.DOTALL,
)
ROW = re.compile(r"<tr>(.*?)</tr>", re.DOTALL)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.DOTALL)


def message_in(path):
    found = TRACEBACK.findall(path.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{path}: expected one traceback, found {len(found)}"
    return " ".join(found[0].split())


def text_of(fragment):
    """The text of an HTML fragment, as a reader sees it."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def table_rows(lang):
    """{anchor: [cell HTML, ...]} of the rendered table (the last cell links to the entry)."""
    rows = {}
    for row in ROW.findall(errors.render_table(lang)):
        if cells := CELL.findall(row):
            (link,) = re.findall(r'href="#([\w-]+)"', cells[-1])
            rows[link] = cells
    return rows


def test_every_snippet_has_a_row_and_every_row_a_snippet():
    """Checked without a build (`make check CHAPTER=errors`), as the build checks it."""
    problems = errors.row_problems(errors.load_rows(), SNIPPETS, LANGUAGES)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_is_included_under_its_anchor(lang):
    """Checked without a build: each error's entry is a heading `{ #<name> }` followed by its
    snippet (the build makes the heading its entry)."""
    text = (DOCS / lang / PAGE).read_text(encoding="utf-8")
    sections = re.split(r"^(?=#)", text, flags=re.MULTILINE)
    anchors = {m["anchor"]: includes(s) for s in sections if (m := errors.HEADING.match(s))}
    wrong = [
        f"docs/{lang}/{PAGE}: include errors/{path.name} under `### … {{ #{errors.anchor(name)} }}`"
        for name, path in SNIPPETS.items()
        if f"errors/{path.name}" not in anchors.get(errors.anchor(name), [])
    ]
    if "{{ error_table }}" not in text:
        wrong.append(f"docs/{lang}/{PAGE}: put the line {{{{ error_table }}}} where the table goes")
    if wrong:
        pytest.fail("\n".join(wrong), pytrace=False)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_shows_exactly_the_messages_of_the_snippets(lang):
    rows = table_rows(lang)
    assert len(rows) == len(SNIPPETS), f"{lang}: {len(rows)} rows for {len(SNIPPETS)} snippets"
    for name, path in SNIPPETS.items():
        cells = rows[errors.anchor(name)]
        shown = html.unescape(re.findall(r"<code>(.*?)</code>", cells[0])[0])
        assert shown == message_in(path), f"{lang}: the row of {path.name} shows {shown!r} first"
        assert pinned_torch() in text_of(cells[0]), (
            f"{lang}: the row of {path.name} names no release"
        )
        if kind(path) == "cuda":
            assert STRINGS[lang]["error_gpu_only"] in cells[-1], (
                f"{lang}: {path.name} is checked by the GPU job alone"
            )


OLDER = [e for e in matrix.load().entries if e.snippet.startswith("errors/")]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("entry", OLDER, ids=lambda e: e.snippet)
def test_the_table_shows_what_other_releases_print(lang, entry):
    """data/releases.yml says another release prints another message (`make matrix` checks
    that it does): the row shows both, each with the releases that print it."""
    name = entry.snippet.removeprefix("errors/").split(".")[0]
    cell = text_of(table_rows(lang)[errors.anchor(name)][0])
    message = " ".join(entry.output.split())
    assert message in cell, f"{lang}: the row of {name} does not show {message!r}: {cell!r}"
    after = cell[cell.index(message) + len(message) :].split("RuntimeError")[0]
    assert entry.releases[0] in after and pinned_torch() not in after, (
        f"{lang}: the row of {name} does not say which releases print {message!r}: {cell!r}"
    )


def test_the_table_follows_an_edited_snippet(tmp_path):
    """Edit a message in a snippet: the table shows the new text, not a stored copy."""
    folder = tmp_path / "errors"
    shutil.copytree(errors.FOLDER, folder)
    path = folder / "reshape_size.pycon"
    path.write_text(
        path.read_text(encoding="utf-8").replace("is invalid for input of size 12", "is too big"),
        "utf-8",
    )
    table = html.unescape(errors.render_table("en", folder=folder))
    assert "shape '[4, 4]' is too big" in table and "is invalid for input of size 12" not in table


@pytest.mark.parametrize("name", sorted(n for n, p in SNIPPETS.items() if kind(p) != "cuda"))
def test_a_changed_message_fails_the_snippet(name, tmp_path):
    """What the tests do when PyTorch rewords a message: the snippet no longer passes."""
    text = SNIPPETS[name].read_text(encoding="utf-8")
    start = TRACEBACK.search(text).start("message")
    changed = tmp_path / "changed.pycon"
    changed.write_text(
        text[:start] + text[start:].replace(": ", ": Reworded ", 1), encoding="utf-8"
    )
    failing = [r.line for r in run_file(changed)[1] if not r.matches]
    assert len(failing) == 1, (
        f"{SNIPPETS[name]}: a reworded message should fail exactly one example"
    )


HEADINGS = [
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
            "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, "
            "to do so you have two options, ..."
        ),
        "Weights only load failed. This file can still be loaded, to do so you have two options",
    ),
    ("RuntimeError: mm: mat1 and mat2", "mm: mat1 and mat2"),
]


@pytest.mark.parametrize(("message", "heading"), HEADINGS)
def test_an_entry_heading_is_the_message_without_its_type(message, heading):
    assert errors.heading_text(message) == heading


def built_entries(built, lang):
    """{anchor: (heading text, entry text up to the next heading)} of the built page."""
    parts = re.split(r'(<h3 class="error-entry" id="[\w-]+">.*?</h3>)', built(lang, PAGE))
    entries = {}
    for heading, body in zip(parts[1::2], parts[2::2]):
        anchor = re.search(r'id="([\w-]+)"', heading).group(1)
        heading = re.sub(r'<a class="headerlink".*?</a>', "", heading)
        entries[anchor] = (text_of(heading).strip(), text_of(re.split(r"<h[1-3]\b", body)[0]))
    return entries


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_error_has_an_entry_headed_by_its_message(built, lang):
    entries, rows = built_entries(built, lang), errors.load_rows()
    titles = search.entry_names(lang)  # under the message: search finds an entry by its name
    assert set(entries) == {errors.anchor(name) for name in SNIPPETS}, (
        f"docs/{lang}/{PAGE}: the entries are {sorted(entries)}, one per snippet expected"
    )
    for name, path in SNIPPETS.items():
        heading, text = entries[errors.anchor(name)]
        message = message_in(path)
        assert heading == f"{errors.heading_text(message)} {titles[name]}", (
            f"docs/{lang}/{PAGE}#{errors.anchor(name)}: {heading!r}"
        )
        flat = " ".join(text.split())
        # the cause is Markdown (its `code` loses the backticks); a message keeps its own
        cause = text_of(rows[name][lang]["cause"]).replace("`", "")
        for shown in (message, pinned_torch(), cause[:40]):
            assert " ".join(shown.split()) in flat, (
                f"docs/{lang}/{PAGE}#{errors.anchor(name)}: the entry does not show {shown!r}"
            )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_finds_messages_in_entries_not_in_the_table(site, lang):
    """Material's search weighs headings: each entry's heading is its message and its name; the table,
    which repeats every message, is left out of the index (or it would match them all)."""
    index = search_index(site, lang)
    docs = {d["location"]: d for d in json.loads(index.read_text(encoding="utf-8"))["docs"]}
    titles = search.entry_names(lang)
    for name, path in SNIPPETS.items():
        entry = docs.get(f"errors/error-table/#{errors.anchor(name)}")
        assert entry, f"{lang}: the search index has no entry for {path.name}"
        title = text_of(entry["title"]).replace("\u200b", "")
        assert title == f"{errors.heading_text(message_in(path))} {titles[name]}", (
            f"{lang}: the search title of {path.name}: {title!r}"
        )
    table = text_of(docs.get("errors/error-table/#table", {}).get("text", ""))
    assert "RuntimeError" not in table, f"{lang}: the table is in the search index: {table[:200]}"
