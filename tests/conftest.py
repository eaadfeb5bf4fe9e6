import os
import subprocess
import uuid

import pytest

from tests.sitetools import SITE, build_site

pytest_plugins = ["pytester"]  # tests that run pytest on a folder of their own


def run_id(config):
    """The same id in every xdist worker of one run; a fresh one in a run without xdist."""
    worker = getattr(config, "workerinput", None)
    if worker:
        return worker["testrunuid"]
    if not hasattr(config, "_site_run_id"):
        config._site_run_id = uuid.uuid4().hex
    return config._site_run_id


@pytest.fixture(scope="session")
def site(request):
    """The site, built once per test run by `make build` and shared by the workers (the
    contributor's command, so the guides' `make build` is checked as written). A run with
    workers starts the build at once (conftest.py at the root); this waits for it."""
    failed = build_site(run_id(request.config))
    if failed is not None:
        pytest.fail(f"`make build` failed or printed a banner:\n{failed}", pytrace=False)
    return SITE


def git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A tiny site repository: one page in both languages, the English one edited later."""
    for name, value in (("NAME", "t"), ("EMAIL", "t@example.com")):
        monkeypatch.setenv(f"GIT_AUTHOR_{name}", value)
        monkeypatch.setenv(f"GIT_COMMITTER_{name}", value)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    root = tmp_path / "site"
    for lang in ("en", "zh"):
        (root / "docs" / lang).mkdir(parents=True)
        (root / "docs" / lang / "page.md").write_text(f"# {lang}\n", encoding="utf-8")
    git("init", "-q", cwd=root)
    git("add", ".", cwd=root)
    git("commit", "-qm", "both languages", cwd=root)
    (root / "docs" / "en" / "page.md").write_text("# en, edited\n", encoding="utf-8")
    git("commit", "-qam", "edit the English page", cwd=root)
    return root
