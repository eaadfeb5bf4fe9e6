"""Run every benchmark: `python -m bench` (about 2-4 minutes on 2 cores).

Writes docs/assets/bench/results.json and the plots beside it. The page
docs/<lang>/measured/claims.md shows them (torch_verified/measured.py renders the tables).
"""

import argparse
import datetime
import json
import os
import platform
import tempfile
import time
from pathlib import Path

import torch
from torch.utils import benchmark
from tqdm import tqdm

from bench.models import MODES, mlp, profiled_forward_bytes, saved_activation_bytes
from torch_verified import measured
from torch_verified.project import ASSETS, suffix

OUT = ASSETS / "bench"
LABELS = measured.labels()
DEPTHS = (1, 2, 4, 8, 16)
WIDTH, BATCH = 512, 128


ROUNDS = 3


def timing_us(stmt, globals_, min_run_time):
    """Median, 25th and 75th percentile of the per-call time, in microseconds."""
    timer = benchmark.Timer(stmt=stmt, globals=globals_, num_threads=torch.get_num_threads())
    timer.timeit(5)  # warm up: first calls fault in fresh memory and pick kernels
    m = timer.blocked_autorange(min_run_time=min_run_time)
    return {"median_us": m.median * 1e6, "p25_us": m._p25 * 1e6, "p75_us": m._p75 * 1e6}


def interleaved_us(cases, min_run_time):
    """{name: (stmt, globals)} timed in ROUNDS interleaved rounds; the round with the lowest
    median of each (with that round's percentiles).

    Interleaving spreads a burst of load from elsewhere over all cases instead of one.
    """
    best = {}
    for _ in range(ROUNDS):
        for name, (stmt, globals_) in cases.items():
            t = timing_us(stmt, globals_, min_run_time / ROUNDS)
            if name not in best or t["median_us"] < best[name]["median_us"]:
                best[name] = t
    return best


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


def forward_time(min_run_time, shapes=None, device="cpu"):
    """Per model of `shapes` ({name: (depth, width, batch)}) and grad mode: one forward pass."""
    shapes = shapes or {"small": (2, 64, 1), "large": (4, 1024, 256)}
    rows = []
    for name, (depth, width, batch) in shapes.items():
        model = mlp(depth, width).to(device)
        x = torch.randn(batch, width, device=device)
        for mode, ctx in MODES.items():
            t = timing_us(
                "with ctx():\n    model(x)", {"ctx": ctx, "model": model, "x": x}, min_run_time
            )
            rows.append(
                {"model": name, "depth": depth, "width": width, "batch": batch, "mode": mode} | t
            )
    return rows


def matmul_time(min_run_time, sizes=(64, 1024), device="cpu"):
    """Per size n and spelling: one n × n matrix product."""
    rows = []
    for n in sizes:
        a, b = torch.randn(n, n, device=device), torch.randn(n, n, device=device)
        for label, stmt in (
            ("a @ b", "a @ b"),
            ("torch.mm", "torch.mm(a, b)"),
            ("torch.matmul", "torch.matmul(a, b)"),
        ):
            t = timing_us(stmt, {"a": a, "b": b, "torch": torch}, min_run_time)
            rows.append({"n": n, "op": label} | t)
    return rows


def compile_time(min_run_time):
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
            min_run_time,
        )
    return {
        "depth": depth,
        "width": width,
        "batch": batch,
        "first_call_s": first,
        "eager": times["eager"],
        "compiled": times["compiled"],
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
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "load": round(os.getloadavg()[0], 1),
    }


def plot(results, out):
    """The two figures in every language of data/bench_labels.yml: NAME.svg for English,
    NAME.LANG.svg for the others. A glyph missing from the fonts is an error."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for lang, labels in LABELS.items():
        text = labels["plots"]
        fonts = ["DejaVu Sans"] + ([text["font"]] if text["font"] else [])
        style = {"svg.hashsalt": "bench", "svg.fonttype": "none", "font.size": 10}
        with plt.rc_context(style | {"font.family": fonts}), warnings.catch_warnings():
            warnings.filterwarnings("error", message="Glyph .* missing from font")
            _plot_memory(plt, results, text, out / f"memory{suffix(lang)}.svg")
            _plot_forward(plt, results, labels, out / f"forward_time{suffix(lang)}.svg")


def _plot_memory(plt, results, text, path):
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for mode in MODES:
        rows = [r for r in results["memory"]["rows"] if r["mode"] == mode]
        ax.plot(
            [r["depth"] for r in rows],
            [r["held_bytes"] / 2**20 for r in rows],
            marker="o",
            label=mode,
        )
    ax.set_xscale("log", base=2)
    ax.set_xlabel(text["memory_x"])
    ax.set_ylabel(text["memory_y"])
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def _plot_forward(plt, results, labels, path):
    text = labels["plots"]
    fig, axes = plt.subplots(1, 2, figsize=(7, 3.4))
    for ax, name in zip(axes, ("small", "large"), strict=True):
        rows = [r for r in results["forward_time"] if r["model"] == name]
        medians = [r["median_us"] for r in rows]
        spread = None  # results from before the percentiles were recorded have none
        if all(r.get("p25_us") is not None for r in rows):
            spread = [
                [r["median_us"] - r["p25_us"] for r in rows],
                [r["p75_us"] - r["median_us"] for r in rows],
            ]
        ax.bar(
            [r["mode"] for r in rows],
            medians,
            yerr=spread,
            capsize=4,
            color=["#d84315", "#6d4c41", "#37474f"],
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
    min_run_time = 0.15 if args.quick else 3.0  # per case, over all rounds
    steps = [
        ("memory", memory),
        ("autocast_memory", autocast_memory),
        ("forward_time", lambda: forward_time(min_run_time)),
        ("matmul_time", lambda: matmul_time(min_run_time)),
        ("compile", lambda: compile_time(min_run_time)),
    ]
    results = {"machine": machine()}
    for name, step in tqdm(steps, desc="benchmarks", unit="step"):
        results[name] = step()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    plot(results, args.out)
    print(f"wrote {args.out / 'results.json'} and plots")


if __name__ == "__main__":
    main()
