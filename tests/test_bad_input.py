"""Bad input fails loudly and names the file: a wrong expected output, a missing snippet."""

import os
import shutil
import subprocess
import sys

import markdown
import pytest
from mkdocs.config import load_config

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


def test_a_missing_snippet_fails_the_build_with_the_path_it_looked_for():
    config = load_config(str(ROOT / "mkdocs.yml"))
    md = markdown.Markdown(
        extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"]
    )
    page = '```pycon title="nowhere.pycon"\n--8<-- "autograd/nowhere.pycon"\n```\n'
    with pytest.raises(Exception, match=r"autograd/nowhere\.pycon"):
        md.convert(page)
