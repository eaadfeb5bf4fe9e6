"""Sybil wiring: every snippet runs as a doctest session.

Two runners, one job each: Sybil runs the snippet files (snippets/**/*.pycon), which hold
every example on the site; pytest-markdown-docs (`--markdown-docs` in pyproject.toml) runs
the python blocks of README.md and the CONTRIBUTING guides as scripts. Pages hold no
example code of their own (only includes of snippets: tests/test_structure.py), so
neither runner needs them. This file sits at the repository root because pytest applies
a conftest's collection hooks only to files below its own folder.
"""

import os
import signal
import subprocess
import sys
import uuid
from doctest import REPORT_UDIFF
from pathlib import Path

import pytest
from sybil import Sybil
from sybil.parsers.rest import DocTestParser

from tools.examples import FLAGS, kind, not_for_this_machine

snippets = Sybil(
    parsers=[DocTestParser(optionflags=FLAGS | REPORT_UDIFF)],
    patterns=["*.pycon"],
    path="snippets",
    name="snippets",
)
pytest_collect_file = snippets.pytest()

SKIPPED = {
    "cuda": "needs a CUDA GPU; gpu.yml runs these with -m cuda",
    "nocuda": "shows what a machine without a GPU prints; this one has a GPU",
}


def pytest_itemcollected(item):
    """*.cuda.pycon examples are marked `cuda`, *.nocuda.pycon ones `nocuda`; each is
    skipped (collected and visible) where it does not apply (tools.examples says where).
    """
    if kind(item.path):
        item.add_marker(getattr(pytest.mark, kind(item.path)))
        if not_for_this_machine(item.path):
            item.add_marker(pytest.mark.skip(reason=SKIPPED[kind(item.path)]))


def pytest_configure(config):
    """A run with workers that includes tests/ starts building the site at once, in the
    background (tests/sitetools.py, the `site` fixture's own build, under its lock): the
    workers run the snippets meanwhile instead of waiting for it later."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    paths = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    tests = Path(__file__).resolve().parent / "tests"
    if not any(path == tests or tests in path.parents or path in tests.parents for path in paths):
        return
    config.option.testrunuid = config.option.testrunuid or uuid.uuid4().hex  # xdist's run id
    config._early_site_build = subprocess.Popen(
        [sys.executable, "-m", "tests.sitetools", config.option.testrunuid],
        cwd=Path(__file__).resolve().parent,
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
