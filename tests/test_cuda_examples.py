"""CUDA-only examples are collected, marked `cuda` and skipped without a GPU: never dropped.

One pytest run in a subprocess, with the GPU hidden (CUDA_VISIBLE_DEVICES=""), selects
`-m cuda` over snippets/. Being selected by `-m cuda` proves the marker; the report line
of each example proves it was collected and skipped. Every `>>> ` line of a *.cuda.pycon
file is one example, so the counts must match file by file.
"""

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORT_LINE = re.compile(
    r"^(snippets/\S+\.pycon)::\S+ (PASSED|SKIPPED|FAILED|ERROR)\b", re.MULTILINE
)


def test_cuda_examples_are_collected_marked_and_skipped_without_a_gpu():
    files = sorted(ROOT.glob("snippets/**/*.cuda.pycon"))
    assert files, "no snippets/**/*.cuda.pycon found: the CUDA examples have gone missing"
    expected = {
        f.relative_to(ROOT).as_posix(): sum(line.startswith(">>> ") for line in f.open())
        for f in files
    }
    command = [sys.executable, "-m", "pytest", "snippets", "-m", "cuda", "-v", "-rs"]
    command += ["-p", "no:xdist", "-p", "no:cacheprovider", "-o", "addopts="]
    run = subprocess.run(
        command,
        check=False,
        cwd=ROOT,
        env={**os.environ, "CUDA_VISIBLE_DEVICES": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 5, (
        "`pytest -m cuda` selected nothing: the *.cuda.pycon examples have lost their `cuda` "
        "marker (conftest.py, pytest_collection_modifyitems)"
    )
    assert run.returncode == 0, f"`{' '.join(command[2:])}` failed:\n{run.stdout}{run.stderr}"

    reports = REPORT_LINE.findall(run.stdout)
    selected = Counter(path for path, _ in reports)
    assert selected == expected, (
        "`pytest -m cuda` must select every example of every *.cuda.pycon file and nothing "
        f"else.\nselected per file: {dict(selected)}\n>>> lines per file: {expected}"
    )
    not_skipped = [(path, outcome) for path, outcome in reports if outcome != "SKIPPED"]
    assert not not_skipped, f"without a GPU every cuda example must be skipped: {not_skipped}"
    assert "needs a CUDA GPU" in run.stdout, "the skip reason should say a GPU is needed"
    assert " deselected" in run.stdout, "`-m cuda` should deselect the CPU examples"


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
