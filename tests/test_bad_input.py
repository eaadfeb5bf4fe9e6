"""Bad input fails loudly, in one line that names the file: a wrong expected output, a
mistyped prompt, a missing snippet, an unknown marker, a repeated build error."""

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError
from mkdocs.utils import DuplicateFilter

from hooks import includes
from hooks.shortcodes import render
from torch_verified.notebooks import cells_of
from torch_verified.project import ROOT


def test_a_wrong_output_or_prompt_fails_naming_file_and_line(pytester):
    """The repository's conftest.py on a snippet with two wrong outputs (both are reported,
    the examples between them still run), and on one with a mistyped prompt (doctest's own
    error would stop the whole collection), in a pytest run of its own (in this process:
    torch is imported already)."""
    pytester.makeconftest((ROOT / "conftest.py").read_text(encoding="utf-8"))
    snippet = (ROOT / "snippets" / "autograd" / "chain_rule.pycon").read_text(encoding="utf-8")
    assert "tensor(36.)" in snippet and snippet.count(">>> x.grad") == 1
    assert snippet.count("(True, False, False)") == 1
    (pytester.path / "snippets" / "demo").mkdir(parents=True)
    (pytester.path / "snippets" / "demo" / "wrong.pycon").write_text(
        snippet.replace("tensor(36.)", "tensor(37.)").replace("(True, False, False)", "(True,)")
    )
    (pytester.path / "snippets" / "demo" / "prompt.pycon").write_text(
        snippet.replace(">>> x.grad", ">>>x.grad")
    )
    (pytester.path / "snippets" / "demo" / "right.pycon").write_text(snippet)
    # -rN: no short summary (under CI=true it repeats each message whole)
    result = pytester.runpytest(
        "-p", "no:xdist", "-rN", "--continue-on-collection-errors", "snippets"
    )
    result.assert_outcomes(failed=1, passed=1, errors=1)
    line = 1 + snippet.splitlines().index(">>> x.grad")
    result.stdout.fnmatch_lines(
        [
            f"*snippets/demo/prompt.pycon:{line}: a prompt is \">>> \" (three > and a space): '>>>x.grad'"
        ]
    )
    result.stdout.fnmatch_lines(
        [
            f"*snippets/demo/wrong.pycon, line {line - 5},*",
            f"*snippets/demo/wrong.pycon, line {line},*",
            "Expected:",
            "    tensor(37.)",
            "Got:",
            "    tensor(36.)",
        ]
    )
    assert result.stdout.str().count("did not evaluate as expected") == 2, result.stdout.str()


def test_the_prompt_check_of_make_lint_says_the_same(tmp_path):
    path = tmp_path / "clamp.pycon"
    path.write_text(">>> import torch\n>>\tx = 1\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "torch_verified.examples", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == f"{path}:2: a prompt is \">>> \" (three > and a space): '>>\\tx = 1'\n"


def test_a_missing_include_stops_the_build_with_one_line_naming_page_line_and_path(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets" / "autograd").mkdir(parents=True)
    (tmp_path / "snippets" / "autograd" / "somewhere.pycon").write_text(">>> 1\n1\n")
    page = '# Demo\n\n```pycon title="somewhre.pycon"\n--8<-- "autograd/somewhre.pycon"\n```\n'
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: demo\n"
        f"hooks: [{ROOT / 'hooks' / 'includes.py'}]\n"
        "markdown_extensions:\n"
        "  - pymdownx.snippets:\n"
        "      base_path: !relative $config_dir/snippets\n"
        "      check_paths: true\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    line = (
        "docs/index.md:4: no snippets/autograd/somewhre.pycon (--8<-- names a file below "
        "snippets/); did you mean autograd/somewhere.pycon?"
    )
    assert errors == [f"ERROR   -  {line}"], result.stderr


def test_a_missing_include_is_left_to_the_includes_hook():
    """The page notebook of a page with a missing include has no cell for it: no traceback
    from that hook before the includes hook's one line (a page saved during a build)."""
    cells = cells_of('# T\n\n```pycon\n--8<-- "autograd/nowhere.pycon"\n```\n', "en")
    assert [c["cell_type"] for c in cells] == ["markdown"]


def test_a_repeated_build_error_is_printed_again():
    """MkDocs' DuplicateFilter prints a message once per server: `make serve` said only
    "Aborted with a BuildError!" on the second save of the same broken page."""
    log, seen = logging.getLogger("mkdocs.commands.build"), []
    handler, duplicates = logging.Handler(), DuplicateFilter()
    handler.emit = lambda record: seen.append(record.getMessage())
    log.addHandler(handler)
    log.addFilter(duplicates)
    try:
        for _ in range(2):
            log.error("docs/x.md:3: no snippets/y.pycon")
            includes.on_build_error(PluginError("docs/x.md:3: no snippets/y.pycon"))
    finally:
        log.removeHandler(handler)
        log.removeFilter(duplicates)
    assert seen == ["docs/x.md:3: no snippets/y.pycon"] * 2


def test_an_unknown_marker_stops_the_build_naming_the_page_the_line_and_the_closest():
    message = r"docs/en/x\.md:3: unknown marker \{\{ torch_versoin \}\} \(did you mean \{\{ torch_version \}\}\?"
    with pytest.raises(PluginError, match=message):
        render("Line 2.\nPinned: {{ torch_versoin }}.", "en", "docs/en/x.md", first_line=2)
    with pytest.raises(PluginError, match=r"x\.md:1: unknown marker \{\{ zzz \}\} \(known: "):
        render("{{ zzz }}", "en", "docs/en/x.md")
    assert (
        render("Pinned: {{ torch_version }}.", "en", "docs/en/x.md")
        != "Pinned: {{ torch_version }}."
    )
