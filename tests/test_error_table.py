"""The error table cannot drift from PyTorch: its messages are read from checked snippets.

hooks/error_table.py builds the table of errors/error-table.md from snippets/errors/*.pycon
(the message) and data/errors.yml (cause and fix, per language). Sybil runs every snippet
against PyTorch, so a message that PyTorch no longer prints fails its snippet; these tests
make sure that the table shows exactly those messages, one row per snippet, in both
languages, each linked to its example on the page.
"""

import doctest
import importlib.util
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = importlib.util.spec_from_file_location("error_table", ROOT / "hooks" / "error_table.py")
error_table = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(error_table)

LANGUAGES = ("en", "zh")
SNIPPETS = error_table.error_snippets()
PAGE = "errors/error-table.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# The last line(s) of a doctest traceback: from the line `Type: message` to the next prompt.
TRACEBACK = re.compile(
    r"^Traceback \(most recent call last\):\n(?:[ \t][^\n]*\n)*(?P<message>\S.*?)(?=^>>> |\Z)",
    re.MULTILINE | re.DOTALL,
)


def message_in(path):
    """The message a snippet's traceback expects, found without the hook's code."""
    found = TRACEBACK.findall(path.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{path}: expected one traceback, found {len(found)}"
    return " ".join(found[0].split())


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
    table = error_table.render_table(lang)
    rows = table.splitlines()[2:]
    assert len(rows) == len(SNIPPETS), f"{lang}: {len(rows)} rows for {len(SNIPPETS)} snippets"
    for name, path in SNIPPETS.items():
        (row,) = [row for row in rows if f"](#{error_table.anchor(name)})" in row]
        shown = row.split(" | ")[0].removeprefix("| ").strip("` ")
        assert shown == message_in(path), (
            f"{lang}: the row of {path.name} shows {shown!r}, the snippet expects "
            f"{message_in(path)!r}"
        )


def test_the_table_follows_an_edited_snippet(tmp_path):
    """Edit a message in a snippet: the table shows the new text, not a stored copy."""
    folder = tmp_path / "errors"
    shutil.copytree(error_table.SNIPPETS, folder)
    path = folder / "reshape_size.pycon"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("is invalid for input of size 12", "is too big"), "utf-8")
    table = error_table.render_table("en", folder=folder)
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
    """The rows link to `#<name>`: that heading must be followed by that snippet."""
    text = (ROOT / "docs" / lang / PAGE).read_text(encoding="utf-8")
    assert error_table.MARKER in text, f"docs/{lang}/{PAGE}: put the line {error_table.MARKER}"
    for name, path in SNIPPETS.items():
        pattern = (
            rf"\{{ #{re.escape(error_table.anchor(name))} \}}\n(?:(?!^#).*\n)*?"
            rf'--8<-- "errors/{re.escape(path.name)}"'
        )
        assert re.search(pattern, text, re.MULTILINE), (
            f"docs/{lang}/{PAGE}: include errors/{path.name} under a heading "
            f"`{{ #{error_table.anchor(name)} }}`"
        )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gpu_only_rows_say_so(lang):
    table = error_table.render_table(lang)
    for name, path in SNIPPETS.items():
        if path.name.endswith(".cuda.pycon"):
            (row,) = [row for row in table.splitlines() if f"#{error_table.anchor(name)})" in row]
            assert error_table.GPU_ONLY[lang] in row
