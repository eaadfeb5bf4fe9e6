"""Every command README.md, CONTRIBUTING.md and CONTRIBUTING.zh.md tell a contributor to run
is run, as it is written there, by a test here or by CI: the guides cannot go stale.

A command is a line of a ```bash block, or an inline `code span` that starts with `make `,
`.venv/bin/`, `source ` or `git commit`. Placeholders (`<chapter>`, `<章节>`, `X.Y.Z` ...) are
filled with a real chapter, topic, page and version before a command runs.
"""

import json
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import yaml

from tests.conftest import RECORD, git
from tools import check
from torch_verified import gpu_record
from torch_verified.markdown import bash_blocks
from torch_verified.project import ROOT, build_env

GUIDES = ("README.md", "CONTRIBUTING.md", "CONTRIBUTING.zh.md")
SPAN = re.compile(r"(?<!`)`((?:make |\.venv/bin/|source |git commit)[^`]+)`(?!`)")
FILLED = {
    "<chapter>": "tensors",
    "<章节>": "tensors",
    "<topic>": "from_lists",
    "<主题>": "from_lists",
    "<page>": "creating",
    "<页面>": "creating",
    "<branch>": "clamp-example",
    "<分支>": "clamp-example",
}


def guide_commands():
    """{command: ["CONTRIBUTING.md:12", ...]} for every command the guides give."""
    found = {}
    for guide in GUIDES:
        text = (ROOT / guide).read_text(encoding="utf-8")
        for first, lines in bash_blocks(text):
            for offset, command in enumerate(lines):
                if command:
                    found.setdefault(command, []).append(f"{guide}:{first + offset}")
        for span in SPAN.finditer(text):
            where = f"{guide}:{text.count(chr(10), 0, span.start()) + 1}"
            found.setdefault(span.group(1).strip(), []).append(where)
    return found


COMMANDS = guide_commands()


def fill(command):
    for placeholder, value in FILLED.items():
        command = command.replace(placeholder, value)
    return command


def run(command, cwd=ROOT, timeout=300, **env):
    """A guide's command, run by bash as a contributor would (.venv is this interpreter's)."""
    bin_dir = Path(sys.executable).parent
    command = fill(command).replace(".venv/bin/", f"{bin_dir}/")
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**build_env(), **env},
    )


def commands_starting(prefix):
    """The guides' commands that start with `prefix`, each once as it runs (placeholders
    filled: the English and the Chinese guide give the same command)."""
    return sorted({fill(c) for c in COMMANDS if c.startswith(prefix)})


# Where each command runs: a test of this module (by the command's first words), or a file
# of CI in which the command appears as written.
RUN_BY = {
    "make serve": ".ci/run",  # and test_make_serve_fails_at_once_on_a_taken_port
    "make install TORCH_INDEX=": ".github/workflows/ci.yml",  # the CPU-only build
    "make install": "test_make_install_is_quick_once_installed",
    "make check CHAPTER=": "test_make_check_runs_one_chapter",
    "make lint": "test_make_lint_passes_offline",
    "make build": "tests/conftest.py::site (every site test builds with it)",
    ".venv/bin/python -m tools.outputs --write": "test_outputs_as_the_guides_give_it",
    ".venv/bin/python -m tools.outputs": ".github/workflows/drift.yml",
    ".venv/bin/python -m tools.stale_translations": "test_stale_translations_runs",
    "git commit --allow-empty": "test_the_reviewed_trailer_clears_the_report",
    ".venv/bin/pre-commit install": "test_committing_runs_the_hooks_from_any_shell",
    "make test": ".ci/run",
    "make matrix": ".ci/run",
    "make audit": ".ci/run",
    ".venv/bin/pytest -m cuda": ".github/workflows/gpu.yml",
    ".venv/bin/python -m tools.gpu_check --report": "test_a_readers_gpu_report_is_recorded",
    ".venv/bin/python -m tools.gpu_check": ".github/workflows/gpu.yml",
    "git switch -c": "test_a_change_is_sent_as_the_guides_say",
    "git push -u origin": "test_a_change_is_sent_as_the_guides_say",
}


def runner(command):
    return next((where for prefix, where in RUN_BY.items() if command.startswith(prefix)), None)


def test_every_command_of_the_guides_is_run_by_a_test_or_ci():
    problems = []
    for command, places in COMMANDS.items():
        where = runner(command)
        if where is None:
            problems.append(
                f"{places[0]}: `{command}` is run by no test; run it in tests/test_guides.py "
                "and add it to RUN_BY"
            )
        elif where.startswith("test_") and where not in globals():
            problems.append(f"RUN_BY: no test {where} in tests/test_guides.py")
        elif where.startswith("."):
            ci = (ROOT / where).read_text(encoding="utf-8")
            for part in command.split(" && "):  # each part of a one-liner, as CI runs it
                if part not in ci:
                    problems.append(f"{places[0]}: `{part}` does not appear in {where}")
    assert not problems, "\n".join(problems)


def test_make_serve_fails_at_once_on_a_taken_port():
    """Serving the site is .ci/run's step (a second build of the site: not in `make test`)."""
    assert commands_starting("make serve"), "the guides no longer give `make serve`"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = run(f"make serve PORT={port}", timeout=60)
        assert done.returncode != 0, done.stdout + done.stderr
        assert time.monotonic() - started < 10, "make serve built the site before failing"
        assert f"port {port} is taken" in done.stderr and "PORT=" in done.stderr, done.stderr


def test_make_install_is_quick_once_installed():
    for command in [c for c in commands_starting("make install") if "TORCH_INDEX" not in c]:
        done = run(command, timeout=600)
        assert done.returncode == 0, f"`{command}`:\n{done.stdout}{done.stderr}"


def test_make_check_runs_one_chapter():
    """Every cheap check CI would fail on for the chapter: its snippets, and the checks of
    its pages that need no build (a newcomer passed it, then the build failed)."""
    for command in commands_starting("make check"):
        done = run(command, timeout=300)
        assert done.returncode == 0, f"`{fill(command)}`:\n{done.stdout}{done.stderr}"
        assert " passed" in done.stdout and "failed" not in done.stdout, done.stdout
    wrong = run("make check CHAPTER=nowhere")
    assert wrong.returncode != 0 and "usage: make check CHAPTER=" in wrong.stderr, wrong.stderr
    for test in ("test_chinese_typography", "test_exercises", "test_error_table", "test_glossary"):
        assert f"tests/{test}.py" in check.arguments("errors"), test


def test_make_lint_passes_offline():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    remote = [repo["repo"] for repo in config["repos"] if repo["repo"] != "local"]
    assert not remote, f".pre-commit-config.yaml: hooks from {remote} need a download"
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    built = {hook["id"] for hook in hooks if hook["language"] not in ("system", "pygrep")}
    assert not built, f"hooks that build an environment (a download): {built}"
    for command in commands_starting("make lint"):
        done = run(command, timeout=300)
        assert done.returncode == 0, f"`{command}` failed:\n{done.stdout}{done.stderr}"


def test_outputs_as_the_guides_give_it(tmp_path):
    """In a copy: the command as written, on snippets/ of a folder that holds one."""
    name = Path(fill("<chapter>/<topic>.pycon"))
    (tmp_path / "snippets" / name.parent).mkdir(parents=True)
    shutil.copyfile(ROOT / "snippets" / name, tmp_path / "snippets" / name)
    before = (tmp_path / "snippets" / name).read_bytes()
    commands = commands_starting(".venv/bin/python -m tools.outputs --write")
    assert commands, "the guides no longer give tools.outputs --write"
    for command in commands:
        done = run(command, cwd=tmp_path)
        assert done.returncode == 0, f"`{command}`:\n{done.stdout}{done.stderr}"
        assert "wrote 0 changed and 0 new outputs in 0 of 1 files" in done.stdout, done.stdout
    assert (tmp_path / "snippets" / name).read_bytes() == before


def test_a_readers_gpu_report_is_recorded(tmp_path):
    """The maintainer's command, as written, in a folder that holds a reader's report of a GPU
    run on the pin (tests/test_check_script.py: which reports it refuses)."""
    from tests.test_check_script import gpu_report

    (tmp_path / "data").mkdir()
    (tmp_path / "report.json").write_text(json.dumps(gpu_report()), encoding="utf-8")
    commands = commands_starting(".venv/bin/python -m tools.gpu_check --report")
    assert commands, "the guides no longer say how to record a reader's GPU report"
    for command in commands:
        done = run(command, cwd=tmp_path)
        assert done.returncode == 0, f"`{command}`:\n{done.stdout}{done.stderr}"
        assert gpu_record.load(tmp_path / "data" / "gpu_check.yml")["gpu"] == RECORD["gpu"]


def test_stale_translations_runs():
    for command in commands_starting(".venv/bin/python -m tools.stale_translations"):
        done = run(command)
        assert done.returncode == 0, f"`{command}`:\n{done.stdout}{done.stderr}"
        assert "Chinese page(s) older than their English twin" in done.stdout, done.stdout


def test_the_reviewed_trailer_clears_the_report(repo):
    """The page of `repo` is stale; the guides' command (page filled in) clears it."""
    report = [sys.executable, "-m", "tools.stale_translations"]
    before = subprocess.run(report, cwd=repo, capture_output=True, text=True, check=False).stdout
    assert "1 Chinese page(s)" in before, before
    commands = commands_starting("git commit --allow-empty")
    assert commands, "the guides no longer say how to mark a page reviewed"
    for command in commands:
        words = shlex.split(command)
        words[-1] = "Translation-reviewed: docs/zh/page.md"  # the placeholder, filled
        subprocess.run(words, cwd=repo, check=True, capture_output=True)
        after = subprocess.run(report, cwd=repo, capture_output=True, text=True, check=False).stdout
        assert "0 Chinese page(s)" in after, after


def test_a_change_is_sent_as_the_guides_say(repo, tmp_path):
    """The branch and the push of "Send your change", to an origin of the tiny repository."""
    git("clone", "-q", "--bare", str(repo), str(tmp_path / "origin.git"), cwd=tmp_path)
    git("remote", "add", "origin", str(tmp_path / "origin.git"), cwd=repo)
    commands = commands_starting("git switch -c") + commands_starting("git push -u origin")
    assert len(commands) == 2, commands
    for command in commands:
        done = run(command, cwd=repo)
        assert done.returncode == 0, f"`{command}`:\n{done.stdout}{done.stderr}"
    git("rev-parse", "--verify", "clamp-example", cwd=tmp_path / "origin.git")


def test_committing_runs_the_hooks_from_any_shell(tmp_path):
    """After the guides' `pre-commit install`, a commit from a shell without .venv/bin on
    its PATH runs the hooks: a snippet with a mistyped prompt is refused, in one line."""
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    shutil.copyfile(ROOT / ".pre-commit-config.yaml", tmp_path / ".pre-commit-config.yaml")
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    (tmp_path / "torch_verified").symlink_to(ROOT / "torch_verified")
    (tmp_path / ".gitignore").write_text(".venv\ntorch_verified\n", encoding="utf-8")
    for command in commands_starting(".venv/bin/pre-commit install"):
        done = run(command, cwd=tmp_path)
        assert done.returncode == 0, f"`{command}`:\n{done.stdout}{done.stderr}"
    (tmp_path / "clamp.pycon").write_text(">>> x = 1\n>> x\n1\n", encoding="utf-8")
    shell = {"PATH": "/usr/bin:/bin", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com"}
    shell |= {
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "HOME": str(tmp_path),
    }
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    commit = ["git", "commit", "-qm", "x"]
    done = subprocess.run(
        commit, cwd=tmp_path, env=shell, capture_output=True, text=True, check=False
    )
    assert done.returncode != 0, done.stdout + done.stderr
    assert 'clamp.pycon:2: a prompt is ">>> " (three > and a space)' in done.stdout + done.stderr


def test_the_readme_gives_two_commands_and_names_every_hook_and_tool():
    """The quickstart is two commands; each file of hooks/ and tools/ has its line under
    README's Layout: `  name   job`."""
    quickstart = bash_blocks((ROOT / "README.md").read_text(encoding="utf-8"))[0][1]
    assert [c for c in quickstart if c] == ["make serve", "make test"], quickstart
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :]
    listed = {
        name.strip().rstrip("/")
        for column in re.findall(r"^  (\S.*?)(?:\s{2,}|$)", layout, re.MULTILINE)
        for name in column.split(", ")
    }
    files = [*(ROOT / "hooks").glob("*.py"), *(ROOT / "tools").rglob("*.py")]
    files += [ROOT / "tools" / "ensure-browser", ROOT / "tools" / "lighthouse"]
    names = {  # a package (tools/figures/) is listed as one line
        "figures" if p.parent.name == "figures" else p.name
        for p in files
        if p.name != "__init__.py"
    }
    missing = sorted(n for n in names if n.removesuffix(".py") not in listed)
    assert not missing, f"README.md, ## Layout: say what these do: {missing}"
