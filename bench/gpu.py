"""GPU benchmarks: a training step in float32 and under autocast, and the grad modes, on a
CUDA GPU. Run on a machine with one: `python -m bench.gpu` (about a minute).

Writes docs/assets/bench/gpu.json; the page docs/<lang>/measured/claims.md shows it
(torch_verified/measured.py renders the tables). The CPU figures of `python -m bench` are not
touched: the two are measured on different machines, each recorded with its own.
"""

import argparse
import contextlib
import datetime
import gc
import json
import platform
from pathlib import Path

import torch
from torch import nn

from bench.__main__ import OUT, forward_time, interleaved_us, matmul_time
from bench.models import mlp, saved_activation_bytes

# depth, width, batch: the page's model (tiny for a GPU: kernel launches dominate) and one
# large enough for the matrix units to matter.
MODELS = {"small": (8, 512, 128), "large": (8, 4096, 8192)}
PRECISIONS = {
    "float32": None,  # PyTorch's default: no TF32 for matrix products (recorded below)
    "float16": torch.float16,  # with a GradScaler, as the AMP recipe says
    "bfloat16": torch.bfloat16,  # float32's range: no scaler needed
}


def training_step(model, x, y, optimizer, dtype, scaler):
    optimizer.zero_grad(set_to_none=True)
    ctx = torch.autocast("cuda", dtype=dtype) if dtype else contextlib.nullcontext()
    with ctx:
        loss = nn.functional.mse_loss(model(x), y)
    if scaler:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        optimizer.step()


def step_rows(round_time):
    """Per model and precision, counted from what was allocated before the model existed:
    the memory held between two Adam training steps (weights, gradients, optimizer state,
    the batch),
    the peak during a step (that plus activations and temporaries), the bytes saved for
    backward; and the time of a step, the three precisions of a model timed in interleaved
    rounds (bench/__main__.py)."""
    for dtype in PRECISIONS.values():  # cuBLAS's workspaces, allocated once on first use,
        model = mlp(1, 64).cuda()  # would be counted in the first model's memory
        x = torch.ones(8, 64, device="cuda")
        scaler = torch.amp.GradScaler("cuda") if dtype is torch.float16 else None
        training_step(model, x, x, torch.optim.Adam(model.parameters()), dtype, scaler)
    rows = []
    for name, (depth, width, batch) in MODELS.items():
        cases = {}  # the model's three precisions, kept until they are timed together
        for precision, dtype in PRECISIONS.items():
            gc.collect()  # what is no longer used: not counted here
            torch.cuda.empty_cache()
            before = torch.cuda.memory_allocated()
            model = mlp(depth, width).cuda()
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
            scaler = torch.amp.GradScaler("cuda") if dtype is torch.float16 else None
            torch.manual_seed(0)
            x = torch.randn(batch, width, device="cuda")
            y = torch.randn(batch, width, device="cuda")
            args = (model, x, y, optimizer, dtype, scaler)
            training_step(*args)  # optimizer state and gradients exist from here on
            torch.cuda.synchronize()
            held = torch.cuda.memory_allocated() - before
            torch.cuda.reset_peak_memory_stats()
            training_step(*args)
            torch.cuda.synchronize()
            peak = torch.cuda.max_memory_allocated() - before
            ctx = torch.autocast("cuda", dtype=dtype) if dtype else contextlib.nullcontext()
            with ctx:
                saved = saved_activation_bytes(model, x, "grad")
            cases[precision] = ("step(*args)", {"step": training_step, "args": args})
            rows.append(
                {
                    "model": name,
                    "depth": depth,
                    "width": width,
                    "batch": batch,
                    "precision": precision,
                    "held_bytes": held,
                    "peak_bytes": peak,
                    "saved_bytes": saved,
                }
            )
        times = interleaved_us(cases, round_time, "cuda")
        for row in rows[-len(cases) :]:
            row |= times[row["precision"]]
        del cases, model, optimizer, x, y, args
        gc.collect()
        torch.cuda.empty_cache()
    return rows


def gpu_machine():
    props = torch.cuda.get_device_properties(0)
    return {
        "date": datetime.date.today().isoformat(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "gpu": torch.cuda.get_device_name(0),
        "memory_gib": round(props.total_memory / 2**30),
        "tf32": torch.backends.cuda.matmul.allow_tf32,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short timings (a smoke run)")
    parser.add_argument("--out", type=Path, default=OUT / "gpu.json")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        parser.exit(2, "bench.gpu: no usable CUDA GPU here (torch.cuda.is_available() is False)\n")
    round_time = 0.005 if args.quick else 0.05  # seconds per case and round
    results = {
        "machine": gpu_machine(),
        "step": step_rows(round_time),
        "forward_time": forward_time(round_time, MODELS, "cuda"),
        "matmul_time": matmul_time(round_time, (1024, 8192), "cuda"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
