"""Bad input fails loudly and names the file: a wrong expected output, a missing snippet."""

import subprocess
import sys
from pathlib import Path

from tests.sitetools import ROOT


def test_a_wrong_output_shows_expected_and_got_with_path_and_line(pytester, monkeypatch):
    """The repository's conftest.py on a snippet with one wrong output, in a pytest of its own."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # conftest.py imports tools.examples
    pytester.makeconftest((ROOT / "conftest.py").read_text(encoding="utf-8"))
    snippet = (ROOT / "snippets" / "autograd" / "chain_rule.pycon").read_text(encoding="utf-8")
    assert "tensor(36.)" in snippet
    (pytester.path / "snippets" / "demo").mkdir(parents=True)
    wrong = pytester.path / "snippets" / "demo" / "wrong.pycon"
    wrong.write_text(snippet.replace("tensor(36.)", "tensor(37.)"), encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "no:xdist", "snippets")
    examples = snippet.count("\n>>> ") + snippet.startswith(">>> ")
    result.assert_outcomes(failed=1, passed=examples - 1)
    line = 1 + snippet.splitlines().index(">>> x.grad")
    result.stdout.fnmatch_lines(
        [
            f"*snippets/demo/wrong.pycon, line {line},*",
            "Expected:",
            "    tensor(37.)",
            "Got:",
            "    tensor(36.)",
        ]
    )


def test_a_missing_include_stops_the_build_with_one_line_naming_page_line_and_path(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    page = '# Demo\n\n```pycon title="nowhere.pycon"\n--8<-- "autograd/nowhere.pycon"\n```\n'
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
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    line = (
        "docs/index.md:4: no snippets/autograd/nowhere.pycon (--8<-- names a file below snippets/)"
    )
    assert errors == [f"ERROR   -  {line}"], result.stderr
