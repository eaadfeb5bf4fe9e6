import fcntl
import os
import subprocess
import uuid

import pytest

from tests.sitetools import ROOT

pytest_plugins = ["pytester"]  # tests that run pytest on a folder of their own

SITE = ROOT / ".site-test"
BANNER = "end of life"  # Material's banner, which the Makefile turns off


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
    """The site, built once per test run by `make build` (`mkdocs build --strict`, not
    `--quiet`: mkdocs then drops warnings before --strict can count them), shared by the
    workers. The contributor's command, so the guides' `make build` is checked as written."""
    testrun_uid = run_id(request.config)
    with open(ROOT / ".site-test.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = SITE / ".testrun"
        if not (stamp.exists() and stamp.read_text() == testrun_uid):
            env = {k: v for k, v in os.environ.items() if k != "NO_MKDOCS_2_WARNING"}
            result = subprocess.run(
                ["make", "--no-print-directory", "build", f"SITE_DIR={SITE.name}"],
                check=False,
                cwd=ROOT,
                capture_output=True,
                text=True,
                env=env,
            )
            output = result.stdout + result.stderr
            if result.returncode != 0 or BANNER in output:
                pytest.fail(f"`make build` failed or printed a banner:\n{output}", pytrace=False)
            stamp.write_text(testrun_uid)
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
