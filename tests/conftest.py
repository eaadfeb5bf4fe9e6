"""What the checks share: the site, built once per test run; a tiny site repository; a GPU
record. Commands the tests start (make, mkdocs, python -m tools.X) use this checkout's
library, as `make` gives it (PYTHONPATH)."""

import os
import signal
import subprocess
import sys
import uuid

import pytest

from torch_verified import project

pytest_plugins = ["pytester"]  # tests that run pytest on a folder of their own
os.environ["PYTHONPATH"] = os.pathsep.join(
    filter(None, [str(project.ROOT), os.environ.get("PYTHONPATH")])
)
RECORD = {
    "date": "2026-12-01",
    "torch": "2.15.0+cu132",
    "gpu": "NVIDIA H200",
    "commit": "0123456789abcdef0123456789abcdef01234567",
}


def run_id(config):
    """The same id in every xdist worker of one run; a fresh one in a run without xdist."""
    if worker := getattr(config, "workerinput", None):
        return worker["testrunuid"]
    if not getattr(config.option, "testrunuid", None):
        config.option.testrunuid = uuid.uuid4().hex
    return config.option.testrunuid


def pytest_configure(config):
    """A run with workers starts building the site at once, in the background, under the
    `site` fixture's lock: the workers run the snippets meanwhile instead of waiting later."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    if config.getoption("--without-site"):
        return
    config._early_site_build = subprocess.Popen(
        [sys.executable, "-m", "torch_verified.project", str(project.TEST_SITE), run_id(config)],
        cwd=project.ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its make and mkdocs go with it (pytest_unconfigure)
    )


def pytest_unconfigure(config):
    """A run that needed no site (or stopped early) does not leave the build running."""
    build = getattr(config, "_early_site_build", None)
    if build is not None and build.poll() is None:
        os.killpg(build.pid, signal.SIGTERM)
        build.wait()


def pytest_collection_modifyitems(config, items):
    if config.getoption("--without-site"):
        config.hook.pytest_deselected(items=[i for i in items if "site" in i.fixturenames])
        items[:] = [i for i in items if "site" not in i.fixturenames]


@pytest.fixture(scope="session")
def site(request):
    """The site, built once per test run by `make build` and shared by the workers (the
    contributor's command, so the guides' `make build` is checked as written)."""
    failed = project.build(project.TEST_SITE, run_id(request.config))
    if failed is not None:
        pytest.fail(f"`make build` failed or printed a banner:\n{failed}", pytrace=False)
    return project.TEST_SITE


@pytest.fixture
def built(site):
    """built(lang, page): the HTML of a page of the built site."""

    def read(lang, page):
        path = project.built_file(site, lang, page)
        assert path.is_file(), f"docs/{lang}/{page} was not built to {path.relative_to(site)}"
        return path.read_text(encoding="utf-8")

    return read


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
    for lang in project.LANGUAGES:
        (root / "docs" / lang).mkdir(parents=True)
        (root / "docs" / lang / "page.md").write_text(f"# {lang}\n", encoding="utf-8")
    git("init", "-q", cwd=root)
    git("add", ".", cwd=root)
    git("commit", "-qm", "both languages", cwd=root)
    (root / "docs" / "en" / "page.md").write_text("# en, edited\n", encoding="utf-8")
    git("commit", "-qam", "edit the English page", cwd=root)
    return root
