"""CUDA-only examples are collected, marked `cuda` and skipped without a GPU: never dropped.

The GPU workflow's own command (the `pytest -m cuda` step of gpu.yml, which CONTRIBUTING
gives in both languages) selects the items marked `cuda`: here every snippet file is collected
as pytest collects it (conftest.py's hooks, in this process: a second pytest would collect
and import everything again), and exactly the *.cuda.pycon files must carry the marker.
"""

import shlex

import torch
import yaml

from torch_verified.project import ROOT, SNIPPETS, kind, snippet_files

GUIDES = ("CONTRIBUTING.md", "CONTRIBUTING.zh.md")


def gpu_workflow_command():
    workflow = yaml.safe_load((ROOT / ".github/workflows/gpu.yml").read_text(encoding="utf-8"))
    runs = [s["run"] for job in workflow["jobs"].values() for s in job["steps"] if "run" in s]
    commands = [run.strip() for run in runs if "pytest -m cuda" in run]
    assert len(commands) == 1, f"gpu.yml must have one `pytest -m cuda` step: {commands}"
    return commands[0]


def test_the_gpu_workflow_command_selects_every_cuda_example_and_skips_it_here(request):
    command = gpu_workflow_command()
    for guide in GUIDES:
        assert command in (ROOT / guide).read_text(encoding="utf-8"), (
            f"{guide} must give the GPU job's command as gpu.yml runs it: `{command}`"
        )
    words = shlex.split(command)
    assert words[-1] == "snippets", f"gpu.yml: `{command}` must select in snippets/"
    hook, selected = request.config.hook, {}
    for name in snippet_files():
        for node in hook.pytest_collect_file(file_path=SNIPPETS / name, parent=request.session):
            for item in node.collect():
                hook.pytest_itemcollected(item=item)
                if item.get_closest_marker("cuda"):
                    selected[name] = item.get_closest_marker("skip")
    expected = [name for name in snippet_files() if kind(name) == "cuda"]
    assert expected, "no snippets/**/*.cuda.pycon found: the CUDA examples have gone missing"
    assert sorted(selected) == expected, (
        f"`{command}` must select every *.cuda.pycon file and nothing else (conftest.py, "
        f"pytest_itemcollected): it selects {sorted(selected)}"
    )
    for name, skip in selected.items():
        assert (skip is None) == torch.cuda.is_available(), f"{name}: skipped: {skip}"
        assert skip is None or "needs a CUDA GPU" in skip.kwargs["reason"], skip


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
