import fcntl
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.sitetools import ROOT

SITE = ROOT / ".site-test"
MKDOCS = Path(sys.executable).parent / "mkdocs"


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
    """The site, built once per test run with `mkdocs build --strict`, shared by the workers.

    Not `--quiet`: mkdocs then drops warnings before --strict can count them.
    """
    testrun_uid = run_id(request.config)
    with open(ROOT / ".site-test.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = SITE / ".testrun"
        if not (stamp.exists() and stamp.read_text() == testrun_uid):
            result = subprocess.run(
                [str(MKDOCS), "build", "--strict", "--site-dir", str(SITE)],
                check=False,
                cwd=ROOT,
                capture_output=True,
                text=True,
                env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            )
            if result.returncode != 0:
                pytest.fail(
                    "`mkdocs build --strict` failed:\n" + result.stdout + result.stderr,
                    pytrace=False,
                )
            stamp.write_text(testrun_uid)
    return SITE
