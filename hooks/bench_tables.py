"""Render the benchmark tables of the "Measured" page from docs/assets/bench/results.json.

A line `<!-- bench:NAME -->` in a page becomes the table NAME, with headers in the page's
language. The figures are written by `python -m bench`; nothing in the tables is typed by hand.
"""

import json
import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent.parent / "docs" / "assets" / "bench" / "results.json"
MARKER = re.compile(r"^<!-- bench:(\w+) -->$", re.MULTILINE)
MODES = ("grad", "no_grad", "inference_mode")

HEADERS = {
    "en": {
        "machine": ("Measured on", "Value"),
        "memory": (
            "Depth",
            "Held after forward: grad",
            "no_grad",
            "inference_mode",
            "no_grad saves",
        ),
        "forward": (
            "Model",
            "grad (µs)",
            "no_grad (µs)",
            "inference_mode (µs)",
            "no_grad vs grad",
            "inference_mode vs no_grad",
        ),
        "matmul": ("Size", "a @ b (µs)", "torch.mm (µs)", "torch.matmul (µs)"),
        "compile": ("Model", "First call (compile)", "Eager (µs)", "Compiled (µs)", "Speed-up"),
        "keys": {
            "date": "Date",
            "torch": "PyTorch",
            "python": "Python",
            "processor": "CPU",
            "cpus": "CPU cores",
            "threads": "torch threads",
            "gpu": "GPU",
        },
        "none": "none (GPU figures not measured yet)",
    },
    "zh": {
        "machine": ("测量环境", "值"),
        "memory": (
            "层数",
            "前向后仍占用：正常（grad）",
            "no_grad",
            "inference_mode",
            "no_grad 节省",
        ),
        "forward": (
            "模型",
            "grad（微秒）",
            "no_grad（微秒）",
            "inference_mode（微秒）",
            "no_grad 相对 grad",
            "inference_mode 相对 no_grad",
        ),
        "matmul": ("规模", "a @ b（微秒）", "torch.mm（微秒）", "torch.matmul（微秒）"),
        "compile": ("模型", "首次调用（含编译）", "eager（微秒）", "编译后（微秒）", "加速比"),
        "keys": {
            "date": "日期",
            "torch": "PyTorch",
            "python": "Python",
            "processor": "CPU",
            "cpus": "CPU 核数",
            "threads": "torch 线程数",
            "gpu": "GPU",
        },
        "none": "无（GPU 数据尚未测量）",
    },
}


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _mib(n):
    return f"{n / 2**20:.2f} MiB"


def _change(new, old):
    return f"{(new - old) / old:+.0%}"


def render(name, results, lang):
    h = HEADERS[lang]
    if name == "machine":
        m = results["machine"]
        rows = [(h["keys"][k], m[k] if m[k] is not None else h["none"]) for k in h["keys"]]
        return _table(h["machine"], rows)
    if name == "memory":
        by = {(r["depth"], r["mode"]): r["held_bytes"] for r in results["memory"]["rows"]}
        depths = sorted({d for d, _ in by})
        rows = [
            (d, *(_mib(by[d, m]) for m in MODES), f"{1 - by[d, 'no_grad'] / by[d, 'grad']:.0%}")
            for d in depths
        ]
        return _table(h["memory"], rows)
    if name == "forward":
        by = {(r["model"], r["mode"]): r for r in results["forward_time"]}
        rows = []
        for model in dict.fromkeys(r["model"] for r in results["forward_time"]):
            r = by[model, "grad"]
            us = [by[model, m]["median_us"] for m in MODES]
            label = f"{model}: {r['depth']} × Linear({r['width']}), batch {r['batch']}"
            rows.append(
                (label, *(f"{u:.1f}" for u in us), _change(us[1], us[0]), _change(us[2], us[1]))
            )
        return _table(h["forward"], rows)
    if name == "matmul":
        by = {(r["n"], r["op"]): r["median_us"] for r in results["matmul_time"]}
        sizes = sorted({n for n, _ in by})
        ops = ("a @ b", "torch.mm", "torch.matmul")
        return _table(
            h["matmul"], [(f"{n} × {n}", *(f"{by[n, o]:.1f}" for o in ops)) for n in sizes]
        )
    if name == "compile":
        c = results["compile"]
        return _table(
            h["compile"],
            [
                (
                    c["model"],
                    f"{c['first_call_s']:.1f} s",
                    f"{c['eager_us']:.1f}",
                    f"{c['compiled_us']:.1f}",
                    f"{c['eager_us'] / c['compiled_us']:.2f}×",
                )
            ],
        )
    raise ValueError(f"unknown benchmark table {name!r}")


def on_page_markdown(markdown, page, config, files):
    if not MARKER.search(markdown):
        return markdown
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    lang = "zh" if config["theme"]["language"].startswith("zh") else "en"
    return MARKER.sub(lambda m: render(m.group(1), results, lang), markdown)
