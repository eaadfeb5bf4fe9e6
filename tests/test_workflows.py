"""The workflows cannot run here: parse them, and check they use the README's commands."""

import re

import yaml

from tests.sitetools import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"


def load(name):
    path = WORKFLOWS / name
    assert path.is_file(), f".github/workflows/{name} is missing"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads `on:` as True
    return data


def commands(workflow):
    return [step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]]


def readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", readme, re.DOTALL).group(1)
    lines = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert len(lines) == 2, f"README quickstart must be exactly two commands, found {lines}"
    return lines[1]


def test_ci_runs_the_readme_test_command():
    command = readme_test_command()
    assert command in commands(load("ci.yml")), f"ci.yml must run `{command}`"
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(rf"^{re.escape(command)}$", ci_run, re.MULTILINE), (
        f".ci/run must run `{command}`"
    )
    assert {"push", "pull_request"} <= set(load("ci.yml")["on"])


def test_gpu_job_runs_exactly_the_cuda_examples():
    workflow = load("gpu.yml")
    assert {"schedule", "workflow_dispatch", "pull_request"} <= set(workflow["on"])
    assert any("pytest -m cuda" in c for c in commands(workflow)), "gpu.yml must run pytest -m cuda"
    job = next(iter(workflow["jobs"].values()))
    assert "gpu" in job["runs-on"], "gpu.yml must ask for a GPU runner label"
    assert "'gpu'" in job.get("if", ""), "gpu.yml must run on pull requests labelled gpu"


def test_pages_builds_strictly_and_deploys():
    workflow = load("pages.yml")
    assert "make build" in commands(workflow)
    assert "--strict" in (ROOT / "Makefile").read_text(encoding="utf-8")
    steps = [s.get("uses", "") for job in workflow["jobs"].values() for s in job["steps"]]
    assert any(s.startswith("actions/deploy-pages") for s in steps)
    assert workflow["on"]["push"]["branches"] == ["main"]


def test_drift_runs_weekly_against_the_newest_torch_and_publishes_the_report():
    workflow = load("drift.yml")
    assert "schedule" in workflow["on"] and "workflow_dispatch" in workflow["on"]
    runs = commands(workflow)
    upgrade = next(i for i, c in enumerate(runs) if "install --upgrade torch" in c)
    report = next(i for i, c in enumerate(runs) if "-m tools.drift_report --output drift.md" in c)
    assert upgrade < report, "drift.yml must upgrade torch before it runs the drift report"
    assert 'drift.md >> "$GITHUB_STEP_SUMMARY"' in runs[report], "publish it as the job summary"
    assert any("gh issue create" in c and "--body-file drift.md" in c for c in runs)
    assert workflow["permissions"]["issues"] == "write"
