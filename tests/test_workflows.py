"""The workflows cannot run here. What they promise is checked on their files: zizmor's
security audit (the lint hook's own command), the relation between the tests and the deploy,
and who can start the GPU machine. The commands they share with the guides are run here as
written where they can be (tests/test_guides.py, tests/test_cuda_examples.py)."""

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from torch_verified.project import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
VENV_BIN = Path(sys.executable).parent


def load(path):
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads `on:` as True
    return data


def workflows():
    return {path.name: load(path) for path in sorted(WORKFLOWS.glob("*.y*ml"))}


def workflow(name):
    return load(WORKFLOWS / name)


def run_steps(job):
    return [step["run"] for step in job.get("steps", []) if "run" in step]


def uses(step, action):
    return step.get("uses", "").split("@")[0] == action


def lint_hook_command(hook_id):
    """The `entry` of a hook in .pre-commit-config.yaml: what `make lint` runs."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    hook = next((h for h in hooks if h["id"] == hook_id), None)
    assert hook, f".pre-commit-config.yaml has no `{hook_id}` hook: `make lint` must run it"
    return shlex.split(hook["entry"]) + hook.get("args", [])


def zizmor(cwd):
    """The lint hook's zizmor command, as written (its .venv/bin/zizmor: this venv's), in
    `cwd` (offline: no network)."""
    command = lint_hook_command("zizmor")
    assert "--offline" in command, "the zizmor hook must run offline (no GitHub API calls)"
    command[0] = str(VENV_BIN / Path(command[0]).name)
    return subprocess.run(command, check=False, cwd=cwd, capture_output=True, text=True, timeout=60)


def test_zizmor_finds_nothing_in_the_workflows():
    result = zizmor(ROOT)
    assert result.returncode == 0, (
        "zizmor reports findings in .github/ (fix them, or suppress one kept on purpose "
        "inline with `# zizmor: ignore[audit] reason`):\n" + result.stdout + result.stderr
    )


def test_an_unpinned_action_fails_the_zizmor_check(tmp_path):
    shutil.copytree(ROOT / ".github", tmp_path / ".github")
    ci = tmp_path / ".github" / "workflows" / "ci.yml"
    pinned = re.compile(r"uses: actions/checkout@[0-9a-f]{40} # (v[\d.]+)")
    text, count = pinned.subn(r"uses: actions/checkout@\1", ci.read_text(encoding="utf-8"))
    assert count, "ci.yml should check out with actions/checkout pinned to a commit SHA"
    ci.write_text(text, encoding="utf-8")
    result = zizmor(tmp_path)
    assert result.returncode != 0, "zizmor passed a workflow with an action on a moving tag"
    assert "unpinned-uses" in result.stdout + result.stderr, result.stdout + result.stderr


def test_a_commit_is_published_only_after_its_own_tests_passed():
    """The only deploy needs the job that tested the commit, and that job builds the
    published site after `make test` (and the audit) passed, in the same environment."""
    deploys = [
        (name, job_id, job)
        for name, wf in workflows().items()
        for job_id, job in wf["jobs"].items()
        if any(uses(step, "actions/deploy-pages") for step in job.get("steps", []))
    ]
    assert len(deploys) == 1, f"exactly one job may deploy the site, found {deploys}"
    name, deploy_id, _ = deploys[0]
    jobs = workflow(name)["jobs"]

    def needed(job_id):
        needs = jobs[job_id].get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        return set(needs).union(*(needed(n) for n in needs))

    builders = [
        job_id
        for job_id, job in jobs.items()
        if any(uses(step, "actions/upload-pages-artifact") for step in job.get("steps", []))
    ]
    assert len(builders) == 1, f"{name}: exactly one job may upload the site, found {builders}"
    builder = builders[0]
    assert builder in needed(deploy_id), f"{name}: `{deploy_id}` must need `{builder}`"

    job = jobs[builder]
    assert not job.get("continue-on-error"), f"{name}: `{builder}` must fail when a test fails"
    steps = job["steps"]
    index = {
        ".ci/run": next(i for i, s in enumerate(steps) if s.get("run") == ".ci/run"),
        "make build": next(i for i, s in enumerate(steps) if s.get("run") == "make build"),
        "upload": next(i for i, s in enumerate(steps) if uses(s, "actions/upload-pages-artifact")),
    }
    assert index[".ci/run"] < index["make build"] < index["upload"], (
        f"{name}: `{builder}` must run .ci/run (the tests, the audit), then build, then upload "
        f"the site: {index}"
    )
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "set -euo pipefail" in ci_run and "make test" in ci_run, ci_run
    assert any(line.startswith("make audit") for line in ci_run), ".ci/run must run the audit"
    for step in steps[index[".ci/run"] : index["upload"] + 1]:
        assert not step.get("continue-on-error"), f"{name}: {step} must stop the publication"
        assert not re.search(r"always\(\)|failure\(\)|cancelled\(\)", str(step.get("if", ""))), (
            f"{name}: {step} must not run after a failed test"
        )
    build = steps[index["make build"]]
    assert "VERIFIED_RUN" in build.get("env", {}), (
        f"{name}: the published build must set VERIFIED_RUN, so its footer names the run "
        "that tested it (hooks/footer.py)"
    )
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^build:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe and "--strict" in recipe.group(1), "`make build` must build with --strict"


def test_the_gpu_runner_only_runs_commits_a_maintainer_approved():
    """No pull request or push starts a job on the self-hosted runner (a pull request could
    rewrite such a workflow); the label reaches it only through a relay that runs main's
    file, checks out nothing and dispatches the labelled head commit of a same-repo pull
    request."""
    for name, wf in workflows().items():
        jobs = wf["jobs"].values()
        if any("self-hosted" in job["runs-on"] for job in jobs):
            assert set(wf["on"]) <= {"schedule", "workflow_dispatch"}, (
                f"{name} runs on the self-hosted runner: only a schedule or a maintainer's "
                f"dispatch may start it, not {sorted(wf['on'])}"
            )
        if "pull_request_target" in wf["on"]:
            for job_id, job in wf["jobs"].items():
                steps = job.get("steps", [])
                assert not any(uses(s, "actions/checkout") for s in steps), (
                    f"{name} `{job_id}`: pull_request_target must not check out the pull request"
                )
                condition = re.sub(r"\s+", " ", job.get("if", ""))
                assert "github.event.label.name == 'gpu'" in condition, (name, job_id)
                assert "head.repo.full_name == github.repository" in condition, (
                    f"{name} `{job_id}`: a fork's pull request must not reach the GPU runner"
                )
                assert wf["on"]["pull_request_target"] == {"types": ["labeled"]}, (
                    f"{name}: only adding the label may start it (not a push: synchronize)"
                )


def test_the_readers_check_runs_on_macos_and_windows_and_stops_no_deploy():
    """ci.yml runs the file readers download (built from the library after the tests) on
    Apple silicon and Windows with only what it asks for; until their first results are
    recorded those jobs may fail, and the deploy does not wait for them."""
    jobs = workflow("ci.yml")["jobs"]
    found = {
        job_id: job
        for job_id, job in jobs.items()
        if "python torch-verified-check.py --json report.json" in run_steps(job)
    }
    assert len(found) == 1, f"ci.yml: one job runs torch-verified-check.py, found {list(found)}"
    ((job_id, job),) = found.items()
    assert set(job["strategy"]["matrix"]["os"]) == {"macos-15", "windows-2025"}, job_id
    assert job["continue-on-error"] is True and job_id not in str(jobs["deploy"].get("needs"))
    downloaded = next(s for s in job["steps"] if uses(s, "actions/download-artifact"))
    made = "-m torch_verified.check_script torch-verified-check.py"
    builder = next(j for j in jobs.values() if any(made in r for r in run_steps(j)))
    uploads = [s["with"] for s in builder["steps"] if uses(s, "actions/upload-artifact")]
    assert {"name": downloaded["with"]["name"], "path": "torch-verified-check.py"} in uploads
    assert job["needs"] == "test" and run_steps(job)[0].endswith(
        "--requirements > requirements.txt"
    )
