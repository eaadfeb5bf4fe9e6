"""Benchmarks: what does not depend on the machine is asserted (byte counts), never a timing;
every statement the Measured page makes about a timing is checked against the results by
the rule the page states (torch_verified/measured.compare)."""

import json
import math
import re

import pytest
import torch

from bench import levers
from bench.allocator import allocated_bytes, mark
from bench.models import MODES, mlp, profiled_forward_bytes, saved_activation_bytes
from hooks.shortcodes import MARKER
from torch_verified import measured
from torch_verified.measured import GPU_RESULTS, RESULTS, compare, quartiles, render, results
from torch_verified.project import DOCS, IDEOGRAPHS, LANGUAGES, ideographic, suffix

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
    keys = ("machine", "memory", "autocast_memory", "forward_time", "matmul_time", "compile")
    for key in (*keys, "levers"):
        assert key in cpu, f"{RESULTS.name} lacks {key!r}: rerun `python -m bench`"
    for lang in LANGUAGES:
        page = DOCS / lang / "measured" / "claims.md"
        names = [
            arg for name, arg in MARKER.findall(page.read_text(encoding="utf-8")) if name == "bench"
        ]
        assert names, f"{page}: no {{{{ bench NAME }}}} tables"
        for name in names:
            table = render(name, results(name), lang)
            assert re.match(
                r"<div markdown data-search-exclude>\n\n\| .+ \|\n\|(---\|)+\n", table
            ), (page, name, table)
            if ideographic(lang):  # no space between two Chinese characters in a cell
                assert not re.search(f"[{IDEOGRAPHS}] [{IDEOGRAPHS}]", table), (name, table)
        for plot in (
            f"memory{suffix(lang)}.svg",
            f"forward_time{suffix(lang)}.svg",
            f"levers{suffix(lang)}.svg",
        ):
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
        "levers.zh.svg": [
            zh["plots"]["levers_x"],
            zh["plots"]["levers_y"],
            *(zh["levers"][lever] for lever in levers.LEVERS),
        ],
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
            f"{speed_up('small', 'float16'):.2f}×",
            f"{speed_up('small', 'bfloat16'):.2f}×",
            f"低了 {1 - step['large', 'float16']['peak_bytes'] / large['peak_bytes']:.0%}",
            f"少 {1 - step['large', 'float16']['saved_bytes'] / large['saved_bytes']:.0%}",
        ],
    }
    assert step["small", "float16"]["peak_bytes"] == pytest.approx(small["peak_bytes"], rel=0.01)

    def iqr(r):
        return r["p25_us"], r["p75_us"]

    # "far outside the spread of each figure": the large model's ranges do not touch
    for precision in ("float16", "bfloat16"):
        assert iqr(step["large", precision])[1] * 2 < iqr(large)[0], precision
    # "their ranges overlap float32's, so one run cannot say whether it is slower or as fast"
    for precision in ("float16", "bfloat16"):
        low, high = iqr(step["small", precision])
        assert low <= iqr(small)[1] and iqr(small)[0] <= high, precision
    # "within 2% of each other" (grad modes, large model), "within 0.5%" (the spellings)
    forward = [r["median_us"] for r in gpu["forward_time"] if r["model"] == "large"]
    assert max(forward) / min(forward) < 1.02, forward
    for n in {r["n"] for r in gpu["matmul_time"]}:
        spellings = [r["median_us"] for r in gpu["matmul_time"] if r["n"] == n]
        assert max(spellings) / min(spellings) < 1.005, (n, spellings)
    # "These GPU timings were taken before the rounds": once bench.gpu has run in rounds,
    # the section can apply the rule like the CPU's (and this test must be brought along)
    assert not any("rounds_us" in r for r in gpu["step"] + gpu["forward_time"]), (
        "gpu.json has rounds now: give the GPU section the rule's verdicts (gpu_*_ratios)"
    )
    for lang, figures in quoted.items():
        page = DOCS / lang / "measured" / "claims.md"
        text = page.read_text(encoding="utf-8")
        missing = [figure for figure in figures if figure not in text]
        assert not missing, f"{page}: the GPU prose lacks {missing} (from {GPU_RESULTS.name})"


def test_the_gpu_tables_take_the_rounds_of_the_next_gpu_run():
    """bench.gpu times in rounds now: its next gpu.json renders with the rule's verdicts."""
    gpu = json.loads(GPU_RESULTS.read_text(encoding="utf-8"))

    def rounded(row, factor):
        return row | {"rounds_us": [row["median_us"] * factor * (1 + i / 100) for i in range(24)]}

    faster = {"float16": 0.5, "bfloat16": 0.5}
    rounds = {
        "machine": gpu["machine"],
        "step": [rounded(r, faster.get(r["precision"], 1)) for r in gpu["step"]],
        "forward_time": [rounded(r, 1) for r in gpu["forward_time"]],
        "matmul_time": [rounded(r, 1) for r in gpu["matmul_time"]],
    }
    for lang in LANGUAGES:
        for name in ("step", "forward", "matmul"):
            table = render(f"gpu_{name}_ratios", rounds, lang)
            assert table.count("\n") > 2, table
        verdicts = render("gpu_step_ratios", rounds, lang)
        assert LABELS[lang]["verdict"]["same"].split("(")[0].split("（")[0] not in verdicts


def test_the_gpu_benchmarks_refuse_to_run_without_a_gpu(monkeypatch, capsys):
    import bench.gpu

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(SystemExit) as exit_:
        bench.gpu.main(["--out", "/nonexistent/gpu.json"])
    assert exit_.value.code == 2 and "no usable CUDA GPU" in capsys.readouterr().err


# ---- the timing method and its rule -----------------------------------------------------


def _rounds(*ratios):
    """Two cases' rounds whose per-round ratio B ÷ A is each of `ratios`."""
    return {"rounds_us": [100.0] * len(ratios)}, {"rounds_us": [100.0 * r for r in ratios]}


def test_the_rule_counts_a_difference_only_when_the_middle_half_of_the_ratios_is_on_one_side():
    assert compare(*_rounds(*[0.9] * 18, *[1.1] * 6))["verdict"] == "faster"
    assert compare(*_rounds(*[1.1] * 18, *[0.9] * 6))["verdict"] == "slower"
    # 17 of 24 is not enough, however large the difference in the rounds it won
    assert compare(*_rounds(*[0.5] * 17, *[1.01] * 7))["verdict"] == "same"
    # the same times in every round: nothing to tell apart
    assert compare(*_rounds(*[1.0] * 24))["verdict"] == "same"
    c = compare(*_rounds(*[0.8] * 20, *[1.2] * 4))
    assert (c["faster_rounds"], c["rounds"], round(c["ratio"], 2)) == (20, 24, 0.8)


def test_a_faster_verdict_means_at_least_three_rounds_in_four():
    """What the page says the rule means, on every comparison of the results."""
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    for (group, a_name, b_name), a, b in _all_comparisons(results):
        c = compare(a, b)
        wins = {"faster": c["faster_rounds"], "slower": c["rounds"] - c["faster_rounds"]}
        if c["verdict"] in wins:
            assert wins[c["verdict"]] >= math.ceil(0.75 * c["rounds"]), (group, a_name, b_name, c)


def _all_comparisons(results):
    from torch_verified.measured import comparisons

    for name in ("forward", "matmul", "compile", "levers"):
        yield from comparisons(name, results)


def test_every_cpu_timing_was_measured_in_the_rounds_the_page_states():
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    rounds = {len(t["rounds_us"]) for _, a, b in _all_comparisons(results) for t in (a, b)}
    assert len(rounds) == 1, f"{RESULTS.name}: cases timed in different numbers of rounds {rounds}"
    n = rounds.pop()
    stated = {
        "en": [f"**{n} rounds**", f"at least {math.ceil(0.75 * n)} of the {n} rounds"],
        "zh": [f"**{n} 轮**", f"{n} 轮中至少赢了 {math.ceil(0.75 * n)} 轮"],
    }
    for lang, phrases in stated.items():
        text = (DOCS / lang / "measured" / "claims.md").read_text(encoding="utf-8")
        missing = [p for p in phrases if p not in text]
        assert not missing, f"docs/{lang}/measured/claims.md: the rule's numbers lack {missing}"


def _verdicts(results):
    from torch_verified.measured import comparisons

    out = {}
    for name in ("forward", "matmul", "compile", "levers"):
        for (group, a_name, b_name), a, b in comparisons(name, results):
            out[name, group, a_name, b_name] = compare(a, b)
    return out


# What the prose says about each timing: the sentence in each language, and the condition on
# the results it states. A failure names the sentence: after a new run of `python -m bench`,
# rewrite it in both languages (and here), or keep it if the results still show it.
PROSE = [
    (
        "`no_grad` was faster than `grad`",
        "在它上面 `no_grad` 比 `grad` 快",
        lambda v, r: v["forward", "small", "grad", "no_grad"]["verdict"] == "faster",
    ),
    (
        "In these rounds the difference between the two does not count, on either model",
        "两者的差别在两个模型上都不算数",
        lambda v, r: all(
            v["forward", m, "no_grad", "inference_mode"]["verdict"] == "same"
            for m in ("small", "large")
        ),
    ),
    (
        "`a @ b` and `torch.matmul`, the same operators, are not told apart at either size",
        "`a @ b` 和 `torch.matmul` 运行的算子相同，在两种规模下都分辨不出快慢",
        lambda v, r: all(
            c["verdict"] == "same"
            for (name, _, a, b), c in v.items()
            if (name, a, b) == ("matmul", "a @ b", "torch.matmul")
        ),
    ),
    (
        "At 64 × 64 the ratio is within 5% of 1",
        "在 64 × 64 时，比值与 1 相差不到 5%",
        lambda v, r: abs(v["matmul", 64, "torch.mm", "torch.matmul"]["ratio"] - 1) < 0.05,
    ),
    (
        "at 1024 × 1024 the rounds cannot tell the two apart",
        "在 1024 × 1024 时，这些轮次分辨不出两者的快慢",
        lambda v, r: v["matmul", 1024, "torch.mm", "torch.matmul"]["verdict"] == "same",
    ),
    (
        "the compiled model was not faster than eager",
        "编译后的模型并不比 eager 模式（未编译）快",
        lambda v, r: v["compile", None, "eager", "compiled"]["verdict"] != "faster",
    ),
    (
        "Even a 30% gain would take more than ten thousand calls",
        "即使能快 30%，也要调用一万次以上",
        lambda v, r: (
            r["compile"]["first_call_s"] / (0.3 * r["compile"]["eager"]["median_us"] * 1e-6)
            > 10_000
        ),
    ),
    (
        "Checkpointing was slower in most rounds",
        "激活检查点在大多数轮次里更慢",
        lambda v, r: v["levers", None, "none", "checkpoint"]["verdict"] == "slower",
    ),
    (
        "by roughly the time of one more forward pass",
        "多出的时间大约是再做一次前向传播",
        lambda v, r: (
            0.6
            <= (_median(_lever_time(r, "checkpoint")) - _median(_lever_time(r, "none")))
            / _median(r["levers"]["forward"]["rounds_us"])
            <= 1.6
        ),
    ),
    (
        "under 1.2× here",
        "这里不到 1.2×",
        lambda v, r: v["levers", None, "none", "bfloat16"]["ratio"] < 1.2,
    ),
    (
        "`save_on_cpu`, which does nothing here, is not told apart from the default",
        "`save_on_cpu` 在这里什么也不做，和默认分辨不出快慢",
        lambda v, r: v["levers", None, "none", "save_on_cpu"]["verdict"] == "same",
    ),
]


def _median(values):
    return quartiles(values)[1]


def _lever_time(results, lever):
    return next(r for r in results["levers"]["time"] if r["lever"] == lever)["rounds_us"]


@pytest.mark.parametrize(("english", "chinese", "holds"), PROSE, ids=[e for e, _, _ in PROSE])
def test_what_the_page_says_about_a_timing_follows_from_the_results_by_the_rule(
    english, chinese, holds
):
    for lang, sentence in zip(LANGUAGES, (english, chinese), strict=True):
        text = (DOCS / lang / "measured" / "claims.md").read_text(encoding="utf-8")
        assert sentence in re.sub(r"\s+", " ", text), (
            f"docs/{lang}/measured/claims.md no longer says “{sentence}”: update PROSE here"
        )
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    assert holds(_verdicts(results), results), (
        f"docs/*/measured/claims.md says “{english}” / “{chinese}”, which {RESULTS.name} no longer shows "
        "by the page's rule: rewrite the sentence in both languages"
    )


def test_the_memory_figures_in_the_prose_are_those_of_the_results():
    """The levers' memory is a byte count, the same in every run: the prose quotes it."""
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    peak = {(r["depth"], r["lever"]): r["peak_bytes"] for r in results["levers"]["memory"]}
    time = {r["lever"]: r for r in results["levers"]["time"]}
    shallower, deepest = sorted({d for d, _ in peak})[-2:]

    def per_block(lever):
        return (peak[deepest, lever] - peak[shallower, lever]) / (deepest - shallower) / 2**20

    assert peak[1, "checkpoint"] >= peak[1, "none"], "with one block checkpointing drops nothing"
    assert peak[1, "bfloat16"] > peak[1, "none"]
    assert all(peak[d, "save_on_cpu"] == peak[d, "none"] for d, _ in peak)
    assert time["checkpoint"]["gradient_error"] == 0 == time["save_on_cpu"]["gradient_error"]
    quoted = [
        f"{peak[deepest, 'checkpoint'] / peak[deepest, 'none']:.0%}",
        f"{peak[deepest, 'bfloat16'] / peak[deepest, 'none']:.0%}",
        f"{peak[1, 'bfloat16'] / peak[1, 'none']:.0%}",
        f"{per_block('none'):.1f} MiB",
        f"{per_block('bfloat16'):.2f} MiB",
        f"{per_block('checkpoint'):.1f} MiB",
        f"{time['bfloat16']['gradient_error']:.1%}",
        f"{peak[deepest, 'none'] / 2**20:.2f} MiB",
        f"{next(r['parameter_bytes'] for r in results['levers']['memory'] if r['depth'] == deepest) / 2**20:.2f}",
    ]
    for lang in LANGUAGES:
        text = (DOCS / lang / "measured" / "claims.md").read_text(encoding="utf-8")
        missing = [figure for figure in quoted if figure not in text]
        assert not missing, f"docs/{lang}/measured/claims.md lacks {missing} ({RESULTS.name})"


def test_the_plots_are_drawn_from_the_committed_results(tmp_path):
    """Every plot is what `python -m bench --plot-only` draws from results.json now."""
    import bench.__main__ as bench_main

    bench_main.plot(json.loads(RESULTS.read_text(encoding="utf-8")), tmp_path)
    drawn = sorted(p.name for p in tmp_path.iterdir())
    assert drawn == sorted(p.name for p in RESULTS.parent.glob("*.svg"))
    stale = [n for n in drawn if (tmp_path / n).read_bytes() != (RESULTS.parent / n).read_bytes()]
    assert not stale, (
        f"docs/assets/bench/{stale}: not drawn from results.json; run bench --plot-only"
    )


def test_the_plots_have_no_background_of_their_own():
    """Transparent, so that they sit on the light and the dark page alike."""
    for svg in RESULTS.parent.glob("*.svg"):
        text = svg.read_text(encoding="utf-8")
        assert "fill: #ffffff" not in text and "fill:#ffffff" not in text, svg.name


# ---- the memory levers, on a model small enough for a test ------------------------------


@pytest.fixture(scope="module")
def tokens():
    torch.manual_seed(0)
    return torch.randn(256, 16)


def _peak_and_after_forward(depth, lever, tokens):
    model = levers.stack(depth, width=16)
    levers.step(model, tokens, lever)
    peak, after_forward, _ = allocated_bytes(lambda: levers.step(model, tokens, lever, mark))
    return peak, after_forward


def test_the_allocator_counts_what_a_function_allocates_and_nothing_before(tokens):
    before = torch.ones(1000)
    peak, at_mark, at_end = allocated_bytes(lambda: torch.ones(1000).sum())
    assert at_mark is None and at_end == 0 and peak >= 4000
    holder = [before]
    peak, _, at_end = allocated_bytes(lambda: (holder.clear(), holder.append(torch.ones(500))))
    assert at_end == 2000, "freeing the tensor made before does not count"


def test_memory_counts_are_the_same_in_every_run(tokens):
    runs = {_peak_and_after_forward(2, lever, tokens) for lever in ["none"] * 3}
    assert len(runs) == 1, runs


def test_checkpoint_keeps_only_each_blocks_input_after_the_forward_pass(tokens):
    activation = tokens.numel() * tokens.element_size()
    rng_state = torch.get_rng_state().nbytes  # kept per block too (preserve_rng_state=True)
    for depth in (2, 4):
        _, after = _peak_and_after_forward(depth, "checkpoint", tokens)
        # the block inputs after the first (that one is `tokens`), the output, the RNG states
        assert after == depth * (activation + rng_state), (depth, after)


def test_save_on_cpu_changes_nothing_on_a_cpu_and_bfloat16_halves_what_is_saved(tokens):
    for depth in (2, 4):
        none = _peak_and_after_forward(depth, "none", tokens)
        assert _peak_and_after_forward(depth, "save_on_cpu", tokens) == none
        _, half = _peak_and_after_forward(depth, "bfloat16", tokens)
        activation = output = tokens.numel() * tokens.element_size()
        # half of what the default saves, plus the bfloat16 copy of the input (which the
        # default saves without allocating: it existed before)
        assert half - output == (none[1] - output) / 2 + activation / 2, (depth, half)


def test_checkpoint_and_save_on_cpu_give_the_same_gradients(tokens):
    model = levers.stack(3, width=16)
    assert levers.gradient_error(model, tokens, "checkpoint") == 0
    assert levers.gradient_error(model, tokens, "save_on_cpu") == 0
    assert 0 < levers.gradient_error(model, tokens, "bfloat16") < 0.02
