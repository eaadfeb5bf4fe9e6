"""The tables of the Measured page, from docs/assets/bench/results.json (the CPU, `python -m
bench`) and gpu.json beside it (a GPU, `python -m bench.gpu`): `{{ bench NAME }}` in a page
is the table NAME, every label in the page's language from data/bench_labels.yml (shared with the
plots); `{{ bench gpu_NAME }}` is the table NAME from the GPU's results. Nothing in the tables
is typed by hand.
"""

import json

from torch_verified.project import ASSETS, DATA, read_yaml

RESULTS = ASSETS / "bench" / "results.json"
GPU_RESULTS = RESULTS.with_name("gpu.json")
MODES = ("grad", "no_grad", "inference_mode")  # the grad modes, in the order bench runs them


def labels():
    """Every word of the tables and plots, per language (data/bench_labels.yml)."""
    return read_yaml(DATA / "bench_labels.yml")


def results(name):
    """The results a table NAME is rendered from: the GPU's for gpu_NAME, else the CPU's."""
    path = GPU_RESULTS if name.startswith("gpu_") else RESULTS
    return json.loads(path.read_text(encoding="utf-8"))


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _mib(n):
    return f"{n / 2**20:.2f} MiB"


def _change(new, old):
    return f"{(new - old) / old:+.0%}"


def _timing(t, h):
    """A timing cell: the median, and the interquartile range as its spread (results from
    before the percentiles were recorded say so)."""
    median = f"{t['median_us']:.1f}"
    if t.get("p25_us") is None:
        return h["timing_no_spread"].format(median=median)
    return h["timing"].format(median=median, iqr=f"{t['p75_us'] - t['p25_us']:.1f}")


def _machine_value(key, value, h):
    if value is not None:
        return value
    return h["none"] if key == "gpu" else h["not_recorded"]


def render(name, results, lang):
    h = labels()[lang]
    header = h["tables"].get(name)
    if name == "machine":
        m = results["machine"]
        rows = [(h["keys"][k], _machine_value(k, m.get(k), h)) for k in h["keys"]]
        return _table(header, rows)
    if name == "gpu_machine":
        m = results["machine"]
        yes_no = {True: h["tf32_on"], False: h["tf32_off"]}
        values = m | {"memory_gib": f"{m['memory_gib']} GiB", "tf32": yes_no[m["tf32"]]}
        return _table(header, [(h["gpu_keys"][k], values[k]) for k in h["gpu_keys"]])
    if name == "gpu_step":
        rows = []
        fp32 = {r["model"]: r for r in results["step"] if r["precision"] == "float32"}
        for r in results["step"]:
            base = fp32[r["model"]]
            label = h["mlp"].format(
                name=h["models"][r["model"]], depth=r["depth"], width=r["width"], batch=r["batch"]
            )
            rows.append(
                (
                    label,
                    r["precision"],
                    _mib(r["held_bytes"]),
                    f"{_mib(r['peak_bytes'])} ({_change(r['peak_bytes'], base['peak_bytes'])})",
                    f"{_mib(r['saved_bytes'])} ({_change(r['saved_bytes'], base['saved_bytes'])})",
                    _timing(r, h),
                    f"{base['median_us'] / r['median_us']:.2f}×",
                )
            )
        return _table(header, rows)
    if name.startswith("gpu_"):  # the CPU's tables, from the GPU's results
        return render(name.removeprefix("gpu_"), results, lang)
    if name == "memory":
        by = {(r["depth"], r["mode"]): r["held_bytes"] for r in results["memory"]["rows"]}
        depths = sorted({d for d, _ in by})
        rows = [
            (d, *(_mib(by[d, m]) for m in MODES), f"{1 - by[d, 'no_grad'] / by[d, 'grad']:.0%}")
            for d in depths
        ]
        return _table(header, rows)
    if name == "forward":
        by = {(r["model"], r["mode"]): r for r in results["forward_time"]}
        rows = []
        for model in dict.fromkeys(r["model"] for r in results["forward_time"]):
            r = by[model, "grad"]
            us = [by[model, m]["median_us"] for m in MODES]
            label = h["mlp"].format(
                name=h["models"][model], depth=r["depth"], width=r["width"], batch=r["batch"]
            )
            rows.append(
                (
                    label,
                    *(_timing(by[model, m], h) for m in MODES),
                    _change(us[1], us[0]),
                    _change(us[2], us[1]),
                )
            )
        return _table(header, rows)
    if name == "matmul":
        by = {(r["n"], r["op"]): r for r in results["matmul_time"]}
        sizes = sorted({n for n, _ in by})
        ops = ("a @ b", "torch.mm", "torch.matmul")
        return _table(header, [(f"{n} × {n}", *(_timing(by[n, o], h) for o in ops)) for n in sizes])
    if name == "compile":
        c = results["compile"]
        label = h["compiled_mlp"].format(depth=c["depth"], width=c["width"], batch=c["batch"])
        return _table(
            header,
            [
                (
                    label,
                    f"{c['first_call_s']:.1f} s",
                    _timing(c["eager"], h),
                    _timing(c["compiled"], h),
                    f"{c['eager']['median_us'] / c['compiled']['median_us']:.2f}×",
                )
            ],
        )
    raise ValueError(f"unknown benchmark table {name!r}")
