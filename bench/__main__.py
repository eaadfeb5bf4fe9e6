"""Run every benchmark: `python -m bench` (about 2-4 minutes on 2 cores).

Writes docs/assets/bench/results.json and the plots beside it. The page
docs/<lang>/measured/claims.md shows them (hooks/bench_tables.py renders the tables).
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

OUT = Path(__file__).resolve().parent.parent / "docs" / "assets" / "bench"
DEPTHS = (1, 2, 4, 8, 16)
WIDTH, BATCH = 512, 128


ROUNDS = 3


def median_us(stmt, globals_, min_run_time):
    timer = benchmark.Timer(stmt=stmt, globals=globals_, num_threads=torch.get_num_threads())
    timer.timeit(5)  # warm up: first calls fault in fresh memory and pick kernels
    return timer.blocked_autorange(min_run_time=min_run_time).median * 1e6


def interleaved_us(cases, min_run_time):
    """{name: (stmt, globals)} timed in ROUNDS interleaved rounds; the lowest median of each.

    Interleaving spreads a burst of load from elsewhere over all cases instead of one.
    """
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(ROUNDS):
        for name, (stmt, globals_) in cases.items():
            best[name] = min(best[name], median_us(stmt, globals_, min_run_time / ROUNDS))
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


def forward_time(min_run_time):
    shapes = {"small": (2, 64, 1), "large": (4, 1024, 256)}  # depth, width, batch
    rows = []
    for name, (depth, width, batch) in shapes.items():
        model = mlp(depth, width)
        x = torch.randn(batch, width)
        for mode, ctx in MODES.items():
            us = median_us(
                "with ctx():\n    model(x)", {"ctx": ctx, "model": model, "x": x}, min_run_time
            )
            rows.append(
                {
                    "model": name,
                    "depth": depth,
                    "width": width,
                    "batch": batch,
                    "mode": mode,
                    "median_us": us,
                }
            )
    return rows


def matmul_time(min_run_time):
    rows = []
    for n in (64, 1024):
        a, b = torch.randn(n, n), torch.randn(n, n)
        for label, stmt in (
            ("a @ b", "a @ b"),
            ("torch.mm", "torch.mm(a, b)"),
            ("torch.matmul", "torch.matmul(a, b)"),
        ):
            rows.append(
                {
                    "n": n,
                    "op": label,
                    "median_us": median_us(stmt, {"a": a, "b": b, "torch": torch}, min_run_time),
                }
            )
    return rows


def compile_time(min_run_time):
    """First call (compilation, with an empty compile cache) and steady state."""
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-inductor-")
    import torch._inductor.config as inductor_config

    inductor_config.fx_graph_cache = False
    torch._dynamo.reset()
    model = mlp(4, 256).eval()
    x = torch.randn(32, 256)
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
        eager, steady = times["eager"], times["compiled"]
    return {
        "model": "4 × Linear(256, 256) + ReLU, batch 32, no_grad",
        "first_call_s": first,
        "eager_us": eager,
        "compiled_us": steady,
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
    }


def plot(results, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "bench", "svg.fonttype": "none", "font.size": 10})
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
    ax.set_xlabel("depth (Linear + ReLU pairs)")
    ax.set_ylabel("MiB held after forward")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "memory.svg", metadata={"Date": None})
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(7, 3.2))
    for ax, name in zip(axes, ("small", "large"), strict=True):
        rows = [r for r in results["forward_time"] if r["model"] == name]
        ax.bar(
            [r["mode"] for r in rows],
            [r["median_us"] for r in rows],
            color=["#d84315", "#6d4c41", "#37474f"],
        )
        ax.set_title(f"{name} model")
        ax.set_ylabel("median µs per forward")
        ax.tick_params(axis="x", labelrotation=15)
    fig.tight_layout()
    fig.savefig(out / "forward_time.svg", metadata={"Date": None})
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short timings (a smoke run)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
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
