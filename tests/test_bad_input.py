"""Bad input fails loudly and names the file: a wrong expected output, a missing snippet."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.sitetools import ROOT


def test_a_wrong_output_shows_expected_and_got_with_path_and_line(tmp_path):
    (tmp_path / "snippets" / "demo").mkdir(parents=True)
    shutil.copy(ROOT / "conftest.py", tmp_path)
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    snippet = (ROOT / "snippets" / "autograd" / "chain_rule.pycon").read_text(encoding="utf-8")
    assert "tensor(36.)" in snippet
    (tmp_path / "snippets" / "demo" / "wrong.pycon").write_text(
        snippet.replace("tensor(36.)", "tensor(37.)"), encoding="utf-8"
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "snippets"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    out = result.stdout
    assert result.returncode == 1, out
    line = 1 + snippet.splitlines().index(">>> x.grad")
    assert "1 failed" in out, out
    assert f"snippets/demo/wrong.pycon, line {line}," in out, out
    assert "Expected:\n    tensor(37.)\nGot:\n    tensor(36.)" in out, out


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
