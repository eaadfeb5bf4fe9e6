"""The tables of the Measured page, from docs/assets/bench/results.json (the CPU, `python -m
bench`) and gpu.json beside it (a GPU, `python -m bench.gpu`): `{{ bench NAME }}` in a page
is the table NAME, every label in the page's language from data/bench_labels.yml (shared with the
plots); `{{ bench gpu_NAME }}` is the table NAME from the GPU's results. Nothing in the tables
is typed by hand.
"""

import json
import re
import statistics

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
    """A Markdown table, kept out of the search index (figures and labels nobody searches for,
    which would weigh on every page's first visit)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "<div markdown data-search-exclude>\n\n" + "\n".join(lines) + "\n\n</div>"


def _mib(n):
    return f"{n / 2**20:.2f} MiB"


def _change(new, old):
    return f"{(new - old) / old:+.0%}"


def _timing(t, h):
    """A timing cell: the median, and its spread. Timed in rounds: the median of the rounds
    and the middle half of them (25th to 75th percentile); timed in one run (the GPU's
    figures so far): that run's median and interquartile range; neither: said so."""
    if t.get("rounds_us"):
        low, median, high = quartiles(t["rounds_us"])
        return h["timing_rounds"].format(median=_num(median), low=_num(low), high=_num(high))
    median = f"{t['median_us']:.1f}"
    if t.get("p25_us") is None:
        return h["timing_no_spread"].format(median=median)
    return h["timing"].format(median=median, iqr=f"{t['p75_us'] - t['p25_us']:.1f}")


def _num(x):
    """A time in a table: three significant figures or more, thousands separated."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def quartiles(values):
    """25th, 50th and 75th percentile (linear interpolation between the sorted values)."""
    low, median, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, median, high


def compare(a, b):
    """B's time against A's, round by round (both timed in the same rounds).

    The rule the Measured page states and its tables apply: B is faster (or slower) than A
    only when the middle half of the per-round ratios B ÷ A (25th to 75th percentile) lies
    entirely below 1 (or above it). Then B was faster in at least about three rounds of four,
    and by more than the ratio's own spread between rounds. Otherwise the rounds cannot tell
    the two apart. Returns the verdict ("faster", "slower" or "same"), the median ratio and its
    quartiles, and in how many of how many rounds B was faster.
    """
    ratios = [tb / ta for ta, tb in zip(a["rounds_us"], b["rounds_us"], strict=True)]
    low, median, high = quartiles(ratios)
    verdict = "faster" if high < 1 else "slower" if low > 1 else "same"
    faster = sum(r < 1 for r in ratios)
    return {
        "verdict": verdict,
        "ratio": median,
        "low": low,
        "high": high,
        "faster_rounds": faster,
        "rounds": len(ratios),
    }


def comparisons(name, results):
    """The comparisons a table of ratios shows: [(row label parts, A, B)], from the results."""
    if name == "forward":
        by = {(r["model"], r["mode"]): r for r in results["forward_time"]}
        models = dict.fromkeys(r["model"] for r in results["forward_time"])
        pairs = (("grad", "no_grad"), ("no_grad", "inference_mode"))
        return [((m, a, b), by[m, a], by[m, b]) for m in models for a, b in pairs]
    if name == "matmul":
        by = {(r["n"], r["op"]): r for r in results["matmul_time"]}
        sizes = sorted({n for n, _ in by})
        pairs = (("a @ b", "torch.matmul"), ("torch.mm", "torch.matmul"))
        return [((n, a, b), by[n, a], by[n, b]) for n in sizes for a, b in pairs]
    if name == "compile":
        c = results["compile"]
        return [((None, "eager", "compiled"), c["eager"], c["compiled"])]
    if name == "step":  # the GPU's training step, once it is timed in rounds
        by = {(r["model"], r["precision"]): r for r in results["step"]}
        models = dict.fromkeys(r["model"] for r in results["step"])
        pairs = (("float32", "float16"), ("float32", "bfloat16"))
        return [((m, a, b), by[m, a], by[m, b]) for m in models for a, b in pairs]
    if name == "levers":
        by = {r["lever"]: r for r in results["levers"]["time"]}
        return [((None, "none", lever), by["none"], by[lever]) for lever in list(by)[1:]]
    raise ValueError(f"no comparisons for {name!r}")


def _machine_value(key, value, h):
    if key == "clock" and value is not None:
        return h["clocks"][value]
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
            label = h["mlp"].format(
                name=h["models"][model], depth=r["depth"], width=r["width"], batch=r["batch"]
            )
            rows.append((label, *(_timing(by[model, m], h) for m in MODES)))
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
                )
            ],
        )
    if name.endswith("_ratios"):
        rows = []
        base = name.removesuffix("_ratios")
        names = h["levers"] if base == "levers" else {}
        for (group, a_name, b_name), a, b in comparisons(base, results):
            c = compare(a, b)
            what = h["comparison"].format(a=names.get(a_name, a_name), b=names.get(b_name, b_name))
            if group is not None:
                what = h["comparison_in"].format(
                    group=h["models"].get(group) or f"{group} × {group}", what=what
                )
            ratio = h["ratio"].format(
                median=f"{c['ratio']:.2f}", low=f"{c['low']:.2f}", high=f"{c['high']:.2f}"
            )
            verdict = h["verdict"][c["verdict"]].format(
                name=names.get(b_name, b_name),
                faster=c["faster_rounds"],
                slower=c["rounds"] - c["faster_rounds"],
                rounds=c["rounds"],
            )
            rows.append((_cjk(what), ratio, _cjk(verdict)))
        return _table(header, rows)
    if name == "levers_memory":
        lv = results["levers"]
        by = {(r["depth"], r["lever"]): r for r in lv["memory"]}
        depths = sorted({d for d, _ in by})
        levers = list(dict.fromkeys(r["lever"] for r in lv["memory"]))
        rows = []
        for d in depths:
            none = by[d, "none"]["peak_bytes"]
            cells = [_mib(by[d, "none"]["peak_bytes"])]
            for lever in levers[1:]:
                peak = by[d, lever]["peak_bytes"]
                cells.append(h["of_default"].format(mib=_mib(peak), share=f"{peak / none:.0%}"))
            rows.append((d, _mib(by[d, "none"]["parameter_bytes"]), *cells))
        return _table(header, rows)
    if name == "levers_time":
        lv = results["levers"]
        rows = []
        for r in [*lv["time"], {"lever": "forward", **lv["forward"]}]:
            low, median, high = (f"{q / 1000:.1f}" for q in quartiles(r["rounds_us"]))
            error = r.get("gradient_error")
            rows.append(
                (
                    _lever(r["lever"], h),
                    h["timing_rounds"].format(median=median, low=low, high=high),
                    "—" if error is None else f"{error:.2%}" if error else h["identical"],
                )
            )
        return _table(header, rows)
    raise ValueError(f"unknown benchmark table {name!r}")


def _cjk(text):
    """No space between two Chinese characters (a name like “bfloat16 钩子” before “更快”)."""
    return re.sub(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", "", text)


def _lever(name, h):
    """A case's name in a table: the levers' names from the labels, the rest as they are."""
    return h["levers"].get(name, name)
