"""Benchmarks: only what does not depend on the machine is asserted, never a timing."""

import json
import re

import pytest
import torch

from bench.models import MODES, mlp, profiled_forward_bytes, saved_activation_bytes
from hooks.shortcodes import MARKER
from torch_verified import measured
from torch_verified.measured import GPU_RESULTS, RESULTS, render, results
from torch_verified.project import DOCS, LANGUAGES, suffix

LABELS = measured.labels()

DEPTHS = (1, 2, 4)


@pytest.fixture(scope="module")
def x():
    torch.manual_seed(0)
    return torch.randn(8, 32)


def test_without_grad_nothing_is_saved_for_backward(x):
    for depth in DEPTHS:
        model = mlp(depth, 32)
        assert saved_activation_bytes(model, x, "no_grad") == 0
        assert saved_activation_bytes(model, x, "inference_mode") == 0


def test_with_grad_saved_memory_grows_by_one_activation_per_layer(x):
    saved = [saved_activation_bytes(mlp(depth, 32), x, "grad") for depth in DEPTHS]
    activation = x.numel() * x.element_size()
    assert saved == [activation * (depth + 1) for depth in DEPTHS]


def test_profiler_sees_memory_held_grow_with_depth_only_with_grad(x):
    held = {m: [profiled_forward_bytes(mlp(d, 32), x, m)[0] for d in DEPTHS] for m in MODES}
    assert held["grad"] == sorted(held["grad"]) and held["grad"][0] < held["grad"][-1]
    assert len(set(held["no_grad"])) == 1 and len(set(held["inference_mode"])) == 1


def test_every_table_on_the_measured_page_renders_from_the_results():
    cpu = json.loads(RESULTS.read_text(encoding="utf-8"))
    for key in ("machine", "memory", "autocast_memory", "forward_time", "matmul_time", "compile"):
        assert key in cpu, f"{RESULTS.name} lacks {key!r}: rerun `python -m bench`"
    for lang in LANGUAGES:
        page = DOCS / lang / "measured" / "claims.md"
        names = [
            arg for name, arg in MARKER.findall(page.read_text(encoding="utf-8")) if name == "bench"
        ]
        assert names, f"{page}: no {{{{ bench NAME }}}} tables"
        for name in names:
            table = render(name, results(name), lang)
            assert re.match(r"\| .+ \|\n\|(---\|)+\n", table), (page, name, table)
        for plot in (f"memory{suffix(lang)}.svg", f"forward_time{suffix(lang)}.svg"):
            assert (RESULTS.parent / plot).is_file(), (
                f"docs/assets/bench/{plot}: run python -m bench"
            )


def test_every_language_labels_the_same_tables_and_plots():
    def keys(tree, prefix=""):
        if not isinstance(tree, dict):
            return {prefix}
        return set().union(*(keys(v, f"{prefix}/{k}") for k, v in tree.items()))

    assert set(LABELS) == set(LANGUAGES), f"data/bench_labels.yml: languages {sorted(LABELS)}"
    expected = keys(LABELS["en"])
    for lang in LANGUAGES:
        assert keys(LABELS[lang]) == expected, (
            f"data/bench_labels.yml: {lang} differs from en in {sorted(keys(LABELS[lang]) ^ expected)}"
        )


def test_the_chinese_plots_are_labelled_in_chinese():
    zh = LABELS["zh"]
    expected = {
        "memory.zh.svg": [zh["plots"]["memory_x"], zh["plots"]["memory_y"]],
        "forward_time.zh.svg": [zh["plots"]["forward_y"], *zh["models"].values()],
    }
    for plot, labels in expected.items():
        svg = (RESULTS.parent / plot).read_text(encoding="utf-8")
        missing = [label for label in labels if label not in svg]
        assert not missing, f"docs/assets/bench/{plot} lacks {missing}: rerun python -m bench"


def test_a_plot_label_the_fonts_cannot_draw_fails_the_run(tmp_path, monkeypatch):
    import copy

    import bench.__main__ as bench_main

    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    labels = copy.deepcopy(LABELS)
    labels["zh"]["plots"]["font"] = None  # Chinese labels with a Latin-only font
    monkeypatch.setattr(bench_main, "LABELS", labels)
    with pytest.raises(UserWarning, match="missing from font"):
        bench_main.plot(results, tmp_path)


def test_the_gpu_figures_in_the_prose_are_those_of_gpu_json():
    """The sentences under the GPU tables quote ratios; rerunning `python -m bench.gpu`
    must not leave them behind."""
    gpu = json.loads(GPU_RESULTS.read_text(encoding="utf-8"))
    step = {(r["model"], r["precision"]): r for r in gpu["step"]}
    large, small = step["large", "float32"], step["small", "float32"]

    def speed_up(model, precision):
        return step[model, "float32"]["median_us"] / step[model, precision]["median_us"]

    quoted = {
        "en": [
            f"{speed_up('large', 'float16'):.1f}×",
            f"{speed_up('large', 'bfloat16'):.1f}×",
            f"{speed_up('small', 'float16'):.2f}×",
            f"{speed_up('small', 'bfloat16'):.2f}×",
            f"{1 - step['large', 'float16']['peak_bytes'] / large['peak_bytes']:.0%} lower",
            f"{1 - step['large', 'float16']['saved_bytes'] / large['saved_bytes']:.0%} less",
        ],
        "zh": [
            f"{speed_up('large', 'float16'):.1f} 倍",
            f"{speed_up('large', 'bfloat16'):.1f} 倍",
            f"{speed_up('small', 'float16'):.2f} 倍",
            f"{speed_up('small', 'bfloat16'):.2f} 倍",
            f"低了 {1 - step['large', 'float16']['peak_bytes'] / large['peak_bytes']:.0%}",
            f"少 {1 - step['large', 'float16']['saved_bytes'] / large['saved_bytes']:.0%}",
        ],
    }
    assert step["small", "float16"]["peak_bytes"] == pytest.approx(small["peak_bytes"], rel=0.01)
    for lang, figures in quoted.items():
        page = DOCS / lang / "measured" / "claims.md"
        text = page.read_text(encoding="utf-8")
        missing = [figure for figure in figures if figure not in text]
        assert not missing, f"{page}: the GPU prose lacks {missing} (from {GPU_RESULTS.name})"


def test_the_gpu_benchmarks_refuse_to_run_without_a_gpu(monkeypatch, capsys):
    import bench.gpu

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(SystemExit) as exit_:
        bench.gpu.main(["--out", "/nonexistent/gpu.json"])
    assert exit_.value.code == 2 and "no usable CUDA GPU" in capsys.readouterr().err
