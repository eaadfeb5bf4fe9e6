"""Run every benchmark: `python -m bench` (1.5 to 3 minutes on 2 shared cores).

Writes docs/assets/bench/results.json and the plots beside it. The page
docs/<lang>/measured/claims.md shows them (torch_verified/measured.py renders the tables).
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

import torch
from torch.utils import benchmark
from tqdm import tqdm

from bench import levers
from bench.allocator import allocated_bytes, mark
from bench.models import MODES, mlp, profiled_forward_bytes, saved_activation_bytes
from torch_verified import measured
from torch_verified.project import ASSETS, suffix

OUT = ASSETS / "bench"
LABELS = measured.labels()
DEPTHS = (1, 2, 4, 8, 16)
WIDTH, BATCH = 512, 128


ROUNDS = 24  # every comparison: each case timed once per round, the rounds interleaved


def timing_us(stmt, globals_, min_run_time):
    """Median, 25th and 75th percentile of the per-call time, in microseconds (one run)."""
    timer = benchmark.Timer(stmt=stmt, globals=globals_, num_threads=torch.get_num_threads())
    timer.timeit(5)  # warm up: first calls fault in fresh memory and pick kernels
    m = timer.blocked_autorange(min_run_time=min_run_time)
    return {"median_us": m.median * 1e6, "p25_us": m._p25 * 1e6, "p75_us": m._p75 * 1e6}


def interleaved_us(cases, round_time, device="cpu", rounds=ROUNDS):
    """{name: (stmt, globals)} timed in `rounds` rounds: each round times every case once (the
    mean per call over about `round_time` seconds), starting from the next case each round.
    Returns {name: {"median_us": the median of its rounds, "rounds_us": every round's time}}.

    The cases of one round run within a fraction of a second of each other, so comparing
    them round by round cancels most of the load from elsewhere, which comes and goes more
    slowly; the rotation keeps a case's place in the round from favouring it.

    On the CPU the clock is the CPU time of the one thread that runs the code (torch set to
    one thread): the time other programs hold the cores is not counted in it, as it would be
    in wall-clock time. On a GPU it is wall-clock time, synchronized (torch.utils.benchmark).
    """
    cpu = device == "cpu"
    if cpu and torch.get_num_threads() != 1:
        raise RuntimeError("CPU timings need torch.set_num_threads(1): thread_time sees one thread")
    timers = {
        name: benchmark.Timer(
            stmt=stmt,
            globals=globals_,
            num_threads=torch.get_num_threads(),
            **({"timer": time.thread_time} if cpu else {}),
        )
        for name, (stmt, globals_) in cases.items()
    }
    number = {}
    for name, timer in timers.items():
        timer.timeit(5)  # warm up: first calls fault in fresh memory and pick kernels
        one = timer.timeit(3).median
        number[name] = max(1, round(round_time / one))
    names = list(cases)
    per_round = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            per_round[name].append(timers[name].timeit(number[name]).median * 1e6)
    return {
        name: {"median_us": statistics.median(us), "rounds_us": us}
        for name, us in per_round.items()
    }


def memory():
    torch.manual_seed(0)
    x = torch.randn(BATCH, WIDTH)
    rows = []
    for depth in DEPTHS:
        model = mlp(depth, WIDTH)
        for mode in MODES:
            held, peak = profiled_forward_bytes(model, x, mode)
            rows.append(
                {
                    "depth": depth,
                    "mode": mode,
                    "saved_bytes": saved_activation_bytes(model, x, mode),
                    "held_bytes": held,
                    "peak_bytes": peak,
                }
            )
    return {"width": WIDTH, "batch": BATCH, "rows": rows}


def autocast_memory():
    torch.manual_seed(0)
    x = torch.randn(BATCH, WIDTH)
    model = mlp(8, WIDTH)
    fp32 = saved_activation_bytes(model, x, "grad")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        bf16 = saved_activation_bytes(model, x, "grad")
    return {"depth": 8, "width": WIDTH, "batch": BATCH, "float32": fp32, "bfloat16": bf16}


def forward_time(round_time, shapes=None, device="cpu"):
    """Per model of `shapes` ({name: (depth, width, batch)}): one forward pass in each grad
    mode, the modes interleaved."""
    shapes = shapes or {"small": (2, 64, 1), "large": (4, 1024, 256)}
    rows = []
    for name, (depth, width, batch) in shapes.items():
        model = mlp(depth, width).to(device)
        x = torch.randn(batch, width, device=device)
        stmt = "with ctx():\n    model(x)"
        cases = {mode: (stmt, {"ctx": ctx, "model": model, "x": x}) for mode, ctx in MODES.items()}
        for mode, t in interleaved_us(cases, round_time, device).items():
            rows.append(
                {"model": name, "depth": depth, "width": width, "batch": batch, "mode": mode} | t
            )
    return rows


MATMUL = {"a @ b": "a @ b", "torch.mm": "torch.mm(a, b)", "torch.matmul": "torch.matmul(a, b)"}


def matmul_time(round_time, sizes=(64, 1024), device="cpu"):
    """Per size n: one n × n matrix product in each spelling, the spellings interleaved."""
    rows = []
    for n in sizes:
        a, b = torch.randn(n, n, device=device), torch.randn(n, n, device=device)
        cases = {op: (stmt, {"a": a, "b": b, "torch": torch}) for op, stmt in MATMUL.items()}
        for op, t in interleaved_us(cases, round_time, device).items():
            rows.append({"n": n, "op": op} | t)
    return rows


def compile_time(round_time):
    """First call (compilation, with an empty compile cache) and steady state."""
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-inductor-")
    import torch._inductor.config as inductor_config

    inductor_config.fx_graph_cache = False
    torch._dynamo.reset()
    depth, width, batch = 4, 256, 32
    model = mlp(depth, width).eval()
    x = torch.randn(batch, width)
    compiled = torch.compile(model)
    with torch.no_grad():
        start = time.perf_counter()
        compiled(x)
        first = time.perf_counter() - start
        times = interleaved_us(
            {
                "eager": ("model(x)", {"model": model, "x": x}),
                "compiled": ("model(x)", {"model": compiled, "x": x}),
            },
            round_time,
        )
    return {
        "depth": depth,
        "width": width,
        "batch": batch,
        "first_call_s": first,
        "eager": times["eager"],
        "compiled": times["compiled"],
    }


LEVER_DEPTHS = (1, 2, 4, 8, 16)
LEVER_TIME_DEPTH = 8


def levers_bench(round_time):
    """Per depth and lever: the peak CPU memory of a forward and backward pass and what the
    forward pass leaves allocated, from PyTorch's allocator (bench/allocator.py). At one
    depth: the time of that step, the levers interleaved (with the forward pass alone, in
    the same rounds), and how far each lever moves the gradients."""
    torch.manual_seed(0)
    x = torch.randn(levers.TOKENS, levers.WIDTH)
    memory_rows = []
    for depth in LEVER_DEPTHS:
        for lever in levers.LEVERS:
            model = levers.stack(depth)
            levers.step(model, x, lever)  # warm up: one-time allocations are not the step's
            peak, after_forward, _ = allocated_bytes(
                lambda model=model, lever=lever: levers.step(model, x, lever, mark)
            )
            memory_rows.append(
                {
                    "depth": depth,
                    "lever": lever,
                    "peak_bytes": peak,
                    "after_forward_bytes": after_forward,
                    "parameter_bytes": sum(p.nbytes for p in model.parameters()),
                }
            )
    model = levers.stack(LEVER_TIME_DEPTH)
    globals_ = {"step": levers.step, "forward": levers.forward, "model": model, "x": x}
    cases = {lever: (f"step(model, x, {lever!r})", globals_) for lever in levers.LEVERS}
    # and the forward pass alone (with gradients), for the scale of what checkpoint repeats
    cases["forward"] = ("forward(model, x, 'none')", globals_)
    times = interleaved_us(cases, round_time)
    time_rows = [
        {"lever": lever, "gradient_error": levers.gradient_error(model, x, lever)} | times[lever]
        for lever in levers.LEVERS
    ]
    return {
        "width": levers.WIDTH,
        "tokens": levers.TOKENS,
        "memory": memory_rows,
        "time_depth": LEVER_TIME_DEPTH,
        "time": time_rows,
        "forward": times["forward"],
    }


def machine():
    return {
        "date": datetime.date.today().isoformat(),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "threads": torch.get_num_threads(),
        "clock": "thread_time",
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "load": round(os.getloadavg()[0], 1),
    }


# Colours that read on a white page and on Material's dark (slate) one: the figures have no
# background of their own. Text and axes are a mid grey, 4.0:1 against both; each series
# colour is at least 3.4:1 against both.
NEUTRAL = "#7f7f7f"
SERIES = ("#e05a2b", "#3d85c6", "#9467bd", "#2a9d55")


def plot(results, out):
    """The figures in every language of data/bench_labels.yml: NAME.svg for English,
    NAME.LANG.svg for the others. A glyph missing from the fonts is an error."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for lang, labels in LABELS.items():
        text = labels["plots"]
        fonts = ["DejaVu Sans"] + ([text["font"]] if text["font"] else [])
        style = {"svg.hashsalt": "bench", "svg.fonttype": "none", "font.size": 10}
        style |= {
            "figure.facecolor": "none",
            "axes.facecolor": "none",
            "savefig.transparent": True,
            "text.color": NEUTRAL,
            "axes.labelcolor": NEUTRAL,
            "axes.edgecolor": NEUTRAL,
            "xtick.color": NEUTRAL,
            "ytick.color": NEUTRAL,
            "grid.color": NEUTRAL,
            "legend.frameon": False,
        }
        with plt.rc_context(style | {"font.family": fonts}), warnings.catch_warnings():
            warnings.filterwarnings("error", message="Glyph .* missing from font")
            _plot_memory(plt, results, text, out / f"memory{suffix(lang)}.svg")
            _plot_forward(plt, results, labels, out / f"forward_time{suffix(lang)}.svg")
            _plot_levers(plt, results, labels, out / f"levers{suffix(lang)}.svg")


def _lines(ax, series, text, xlabel, ylabel):
    """One line per (label, xs, ys). A line that lies on an earlier one is dashed, drawn over
    it, and says so in the legend, so that both stay visible."""
    drawn = []
    for (label, xs, ys), colour in zip(series, SERIES, strict=False):
        same = next((other for other, earlier in drawn if earlier == ys), None)
        if same is not None:
            label = text["same_as"].format(label=label, other=same)
        ax.plot(
            xs,
            ys,
            marker="o",
            markersize=7 if same is None else 4,
            linestyle="-" if same is None else (0, (3, 3)),
            linewidth=1.5 if same is None else 2,
            color=colour,
            label=label,
        )
        drawn.append((label, ys))
    ax.set_xticks(series[0][1])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.legend()
    ax.grid(alpha=0.3)


def _plot_memory(plt, results, text, path):
    fig, ax = plt.subplots(figsize=(6, 3.4))
    series = []
    for mode in MODES:
        rows = [r for r in results["memory"]["rows"] if r["mode"] == mode]
        series.append((mode, [r["depth"] for r in rows], [r["held_bytes"] / 2**20 for r in rows]))
    _lines(ax, series, text, text["memory_x"], text["memory_y"])
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def _plot_levers(plt, results, labels, path):
    """Peak memory of a forward and backward pass against depth, one line per lever."""
    text = labels["plots"]
    rows = results["levers"]["memory"]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    series = []
    for lever in dict.fromkeys(r["lever"] for r in rows):
        mine = [r for r in rows if r["lever"] == lever]
        series.append(
            (
                labels["levers"][lever],
                [r["depth"] for r in mine],
                [r["peak_bytes"] / 2**20 for r in mine],
            )
        )
    _lines(ax, series, text, text["levers_x"], text["levers_y"])
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def _plot_forward(plt, results, labels, path):
    """Median forward time per grad mode; a whisker spans the middle half of the rounds
    (the 25th to the 75th percentile of the round medians)."""
    text = labels["plots"]
    fig, axes = plt.subplots(1, 2, figsize=(7, 3.4))
    for ax, name in zip(axes, ("small", "large"), strict=True):
        rows = [r for r in results["forward_time"] if r["model"] == name]
        quarts = [statistics.quantiles(r["rounds_us"], n=4, method="inclusive") for r in rows]
        medians = [q[1] for q in quarts]
        spread = [[q[1] - q[0] for q in quarts], [q[2] - q[1] for q in quarts]]
        ax.bar(
            [r["mode"] for r in rows],
            medians,
            yerr=spread,
            capsize=4,
            color=SERIES[:3],
            error_kw={"ecolor": NEUTRAL},
        )
        ax.set_title(text["forward_title"].format(model=labels["models"][name]))
        ax.tick_params(axis="x", labelrotation=15)
    fig.supylabel(text["forward_y"], fontsize=9)
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short timings (a smoke run)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--plot-only",
        action="store_true",
        help="redraw the plots from the existing results.json (after a label changes)",
    )
    args = parser.parse_args()
    if args.plot_only:
        plot(json.loads((args.out / "results.json").read_text(encoding="utf-8")), args.out)
        print(f"redrew the plots in {args.out}")
        return
    # One thread: the clock (thread_time) sees only the thread that runs the code, and one
    # thread is also what suffers least from sharing the cores with other programs.
    torch.set_num_threads(1)
    round_time = 0.002 if args.quick else 0.05  # seconds per case and round
    steps = [
        ("memory", memory),
        ("autocast_memory", autocast_memory),
        ("forward_time", lambda: forward_time(round_time)),
        ("matmul_time", lambda: matmul_time(round_time)),
        ("compile", lambda: compile_time(round_time)),
        ("levers", lambda: levers_bench(round_time)),
    ]
    start = time.perf_counter()
    results = {"machine": machine()}
    for name, step in tqdm(steps, desc="benchmarks", unit="step"):
        results[name] = step()
    results["machine"]["run_s"] = round(time.perf_counter() - start)
    results["machine"]["load_end"] = round(os.getloadavg()[0], 1)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    plot(results, args.out)
    print(f"wrote {args.out / 'results.json'} and plots")


if __name__ == "__main__":
    main()
