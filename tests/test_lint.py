"""The pre-commit hooks of `make lint` need no download (tests/test_guides.py runs it)."""

import yaml

from tests.sitetools import ROOT


def test_pre_commit_hooks_run_offline():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    remote = [repo["repo"] for repo in config["repos"] if repo["repo"] != "local"]
    assert not remote, f".pre-commit-config.yaml: hooks from {remote} need a download"
    languages = {hook["language"] for repo in config["repos"] for hook in repo["hooks"]}
    assert languages <= {"system", "pygrep"}, f"hooks that build an environment: {languages}"
