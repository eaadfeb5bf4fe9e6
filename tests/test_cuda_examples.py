"""CUDA-only examples are collected, marked `cuda` and skipped without a GPU: never dropped.

The GPU workflow's own command (the `pytest -m cuda` step of gpu.yml, which CONTRIBUTING
gives in both languages) runs here as written, with the GPU hidden (CUDA_VISIBLE_DEVICES="")
and a JUnit report added through PYTEST_ADDOPTS. Being selected by `-m cuda` proves the
marker; the report proves each example was collected and skipped. Every `>>> ` line of a
*.cuda.pycon file is one example, so the counts must match file by file.
"""

import os
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter

import yaml

from torch_verified.project import ROOT, SNIPPETS, kind, snippet_files

GUIDES = ("CONTRIBUTING.md", "CONTRIBUTING.zh.md")


def gpu_workflow_command():
    workflow = yaml.safe_load((ROOT / ".github/workflows/gpu.yml").read_text(encoding="utf-8"))
    runs = [s["run"] for job in workflow["jobs"].values() for s in job["steps"] if "run" in s]
    commands = [run.strip() for run in runs if "pytest -m cuda" in run]
    assert len(commands) == 1, f"gpu.yml must have one `pytest -m cuda` step: {commands}"
    return commands[0]


def test_the_gpu_workflow_command_runs_here_and_skips_every_cuda_example(tmp_path):
    command = gpu_workflow_command()
    for guide in GUIDES:
        assert command in (ROOT / guide).read_text(encoding="utf-8"), (
            f"{guide} must give the GPU job's command as gpu.yml runs it: `{command}`"
        )
    files = [name for name in snippet_files() if kind(name) == "cuda"]
    assert files, "no snippets/**/*.cuda.pycon found: the CUDA examples have gone missing"
    expected = {
        f"snippets.{name.replace('/', '.')}": sum(
            line.startswith(">>> ") for line in (SNIPPETS / name).open()
        )
        for name in files
    }
    report = tmp_path / "junit.xml"
    run = subprocess.run(
        ["bash", "-c", command],
        check=False,
        cwd=ROOT,
        env={**os.environ, "CUDA_VISIBLE_DEVICES": "", "PYTEST_ADDOPTS": f"--junitxml={report}"},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode != 5, (
        f"`{command}` selected nothing: the *.cuda.pycon examples have lost their `cuda` "
        "marker (conftest.py, pytest_itemcollected)"
    )
    assert run.returncode == 0, f"gpu.yml's `{command}` fails:\n{run.stdout}{run.stderr}"

    cases = ET.parse(report).getroot().iter("testcase")
    outcomes = [(c.get("classname"), [child.tag for child in c]) for c in cases]
    selected = Counter(name for name, _ in outcomes)
    assert selected == expected, (
        f"`{command}` must select every example of every *.cuda.pycon file and nothing "
        f"else.\nselected per file: {dict(selected)}\n>>> lines per file: {expected}"
    )
    not_skipped = [(name, tags) for name, tags in outcomes if tags != ["skipped"]]
    assert not not_skipped, f"without a GPU every cuda example must be skipped: {not_skipped}"
    reasons = {s.get("message") for s in ET.parse(report).getroot().iter("skipped")}
    assert all("needs a CUDA GPU" in r for r in reasons), f"skip reasons: {reasons}"


def test_amp_step_on_cuda_is_the_checked_cpu_program_with_another_device():
    """The mixed-precision page says the two files differ only in the device line."""
    cpu = (ROOT / "snippets/devices/amp_step.pycon").read_text(encoding="utf-8")
    cuda = (ROOT / "snippets/devices/amp_step.cuda.pycon").read_text(encoding="utf-8")
    line = '>>> device = torch.device("{}")'
    assert line.format("cpu") in cpu, "amp_step.pycon must choose the device in one line"
    assert cuda == cpu.replace(line.format("cpu"), line.format("cuda")), (
        "snippets/devices/amp_step.cuda.pycon must equal amp_step.pycon except for the device "
        "line (docs/*/devices/mixed-precision.md#grad-scaler says so): copy it over again"
    )
