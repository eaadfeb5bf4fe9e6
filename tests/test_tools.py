"""The maintainer commands in tools/, run in-process on copies in a temporary folder."""

import shutil
import sys

import pytest

from tests.conftest import git
from tools import outputs, stale_translations
from torch_verified.project import SNIPPETS

SMALL = ["autograd/accumulation.pycon", "autograd/two_inputs.pycon", "autograd/chain_rule.pycon"]


@pytest.fixture
def copies(tmp_path):
    """Three small snippets of the tree, copied: {name: path}."""
    paths = {}
    for name in SMALL:
        paths[name] = tmp_path / name.replace("/", "-")
        shutil.copyfile(SNIPPETS / name, paths[name])
    return paths


def one_line(text):
    lines = text.strip().splitlines()
    assert len(lines) == 1, f"expected a one-line reason, got: {text!r}"
    return lines[0]


def test_outputs_leaves_an_unchanged_tree_byte_for_byte(copies, tmp_path, capsys):
    before = {path: path.read_bytes() for path in copies.values()}
    assert outputs.main(["--write", str(tmp_path)]) == 0
    assert {path: path.read_bytes() for path in copies.values()} == before
    assert "wrote 0 changed and 0 new outputs" in capsys.readouterr().out


def test_outputs_rewrites_only_a_stale_output(copies, capsys):
    stale = copies["autograd/accumulation.pycon"]
    fresh = stale.read_text(encoding="utf-8")
    stale.write_text(fresh.replace("tensor(16.)", "tensor(99.)"), encoding="utf-8")
    others = {p: p.read_bytes() for p in copies.values() if p != stale}
    assert outputs.main([str(stale)]) == 1  # a report: nothing written
    assert f"{stale}:7: prints something else" in capsys.readouterr().out
    assert outputs.main(["--write", *map(str, copies.values())]) == 0
    assert stale.read_text(encoding="utf-8") == fresh
    assert {p: p.read_bytes() for p in others} == others  # `0x...` ellipsis kept, too
    out = capsys.readouterr().out
    assert (
        f"{stale}:7: output rewritten" in out
        and "wrote 1 changed and 0 new output in 1 of 3 files" in out
    )


def test_outputs_writes_exceptions_in_traceback_form(tmp_path):
    path = tmp_path / "errors.pycon"
    path.write_text(">>> 1 / 0\n0\n>>> object()\n<object object at 0x...>\n", encoding="utf-8")
    assert outputs.main(["--write", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == (
        ">>> 1 / 0\nTraceback (most recent call last):\n  ...\nZeroDivisionError: division by zero\n"
        ">>> object()\n<object object at 0x...>\n"
    )


def test_outputs_shows_the_whole_old_text_when_the_new_is_shorter(tmp_path, capsys):
    path = tmp_path / "short.pycon"
    path.write_text(">>> print(1)\n1\n2\n3\n", encoding="utf-8")
    assert outputs.main(["--write", str(path)]) == 0
    assert "was: 1\n         2\n         3\n    now: 1" in capsys.readouterr().out


def test_outputs_reports_drift_with_file_line_expected_and_got(copies, tmp_path, capsys):
    stale = copies["autograd/accumulation.pycon"]
    stale.write_text(stale.read_text().replace("tensor(16.)", "tensor(99.)"), encoding="utf-8")
    report = tmp_path / "drift.md"
    assert outputs.main(["--report", str(report), str(stale)]) == 1
    text = report.read_text(encoding="utf-8")
    assert f"`{stale}`, line 7" in text and ">>> x.grad" in text
    assert (
        "Expected:\n\n```text\ntensor(99.)\n```" in text
        and "Got:\n\n```text\ntensor(16.)\n```" in text
    )
    stale.write_text(stale.read_text().replace("tensor(99.)", "tensor(16.)"), encoding="utf-8")
    assert outputs.main(["--report", str(report), str(stale)]) == 0
    assert "No drift" in report.read_text(encoding="utf-8")


@pytest.mark.parametrize("text", [">>>x = 1\n", ">>> x = 1\n>>\tx\n1\n", ">>> x = 1\n>> x\n1\n"])
def test_a_mistyped_prompt_stops_it_with_file_line_and_the_rule(
    text, tmp_path, monkeypatch, capsys
):
    """doctest stops at `>>>x` with its own words, and reads `>> x` and its output as the
    output of the line before, which a rewrite would delete: nothing is written."""
    broken = tmp_path / "broken.pycon"
    broken.write_text(text, encoding="utf-8")
    assert outputs.main(["--write", str(broken)]) == 2
    line = text.count("\n", 0, text.index(">>", 3) if text.startswith(">>> ") else 0) + 1
    assert f'{broken}:{line}: a prompt is ">>> " (three > and a space)' in one_line(
        capsys.readouterr().err
    )
    assert broken.read_text(encoding="utf-8") == text
    monkeypatch.chdir(tmp_path)  # outside the repository: no snippets/ here
    assert outputs.main([]) == 2
    assert str(tmp_path) in one_line(capsys.readouterr().err)
    monkeypatch.setitem(sys.modules, "torch", None)  # as if torch were not installed
    assert outputs.main([str(broken)]) == 2
    assert sys.executable in one_line(capsys.readouterr().err)


def test_outputs_does_not_record_an_import_error(tmp_path, capsys):
    path = tmp_path / "imports.pycon"
    text = ">>> import no_such_module_here\n>>> 1\n1\n"
    path.write_text(text, encoding="utf-8")
    assert outputs.main(["--write", str(path)]) == 2
    assert f"{path}:1: ModuleNotFoundError" in one_line(capsys.readouterr().err)
    assert path.read_text(encoding="utf-8") == text


def test_stale_translations_lists_a_chinese_page_behind_its_twin(repo, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    assert stale_translations.main() == 0
    out = capsys.readouterr().out
    assert "docs/zh/page.md: its English twin changed in 1 commit(s) since:" in out
    assert "edit the English page" in out

    (repo / "docs" / "zh" / "page.md").write_text("# zh, updated\n", encoding="utf-8")
    git("commit", "-qam", "update the translation", cwd=repo)
    assert stale_translations.main() == 0
    assert "0 Chinese page(s)" in capsys.readouterr().out


def test_stale_translations_skip_merges_invisible_changes_and_reviewed_pages(
    repo, monkeypatch, capsys
):
    monkeypatch.chdir(repo)
    page = "docs/zh/page.md"
    git(
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "ok",
        "--trailer",
        f"Translation-reviewed: {page}",
        cwd=repo,
    )
    assert stale_translations.main() == 0
    assert "0 Chinese page(s)" in capsys.readouterr().out

    english, chinese = repo / "docs" / "en" / "page.md", repo / "docs" / "zh" / "page.md"
    git("checkout", "-qb", "side", cwd=repo)
    english.write_text("# en, edited\n\nside\n", encoding="utf-8")
    git("commit", "-qam", "English", cwd=repo)
    chinese.write_text("# zh\n\nside\n", encoding="utf-8")
    git("commit", "-qam", "Chinese", cwd=repo)
    git("checkout", "-q", "-", cwd=repo)
    english.write_text("<!-- a comment -->\n# en, edited\n", encoding="utf-8")
    git("commit", "-qam", "a comment", cwd=repo)
    git("merge", "-q", "--no-ff", "-m", "merge side", "side", cwd=repo)
    assert stale_translations.main() == 0
    assert "0 Chinese page(s)" in capsys.readouterr().out

    text = "---\ndescription: new\n---\n\n#  en,\nedited\n\nside <!-- note -->\n"
    english.write_text(text, encoding="utf-8")
    git("commit", "-qam", "front matter, a comment and line breaks", cwd=repo)
    assert stale_translations.main() == 0
    assert "0 Chinese page(s)" in capsys.readouterr().out

    english.write_text(english.read_text(encoding="utf-8").replace("edited", "rewritten"))
    git("commit", "-qam", "a visible change", cwd=repo)
    assert stale_translations.main() == 0
    out = capsys.readouterr().out
    assert "changed in 1 commit(s)" in out and "a visible change" in out, out


def test_stale_translations_in_a_shallow_clone_or_outside_a_repo(
    repo, tmp_path, monkeypatch, capsys
):
    clone = tmp_path / "clone"
    git("clone", "-q", "--depth", "1", f"file://{repo}", str(clone), cwd=tmp_path)
    monkeypatch.chdir(clone)
    assert stale_translations.main() == 0
    assert "shallow clone" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)  # not a git repository
    assert stale_translations.main() == 2
    assert str(tmp_path) in one_line(capsys.readouterr().err)
