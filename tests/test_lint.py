"""Ruff passes on the repository, and the pre-commit hooks need no download."""

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.sitetools import ROOT

RUFF = Path(sys.executable).parent / "ruff"


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]])
def test_ruff_passes_on_the_repository(args):
    done = subprocess.run(
        [str(RUFF), *args, "."], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, (
        f"`ruff {' '.join(args)} .` failed; fix it with `ruff format . && ruff check --fix .` "
        f"(or `make lint`):\n{done.stdout}{done.stderr}"
    )


def test_pre_commit_hooks_run_offline():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    remote = [repo["repo"] for repo in config["repos"] if repo["repo"] != "local"]
    assert not remote, f".pre-commit-config.yaml: hooks from {remote} need a download"
    languages = {hook["language"] for repo in config["repos"] for hook in repo["hooks"]}
    assert languages <= {"system", "pygrep"}, f"hooks that build an environment: {languages}"
