"""What verified the site, stamped at build time, never typed by hand.

- `{{ torch_version }}` in Markdown: the pinned torch, read from pyproject.toml.
- `{{ gpu_check }}` in Markdown: the last run of the CUDA examples on a GPU, from
  data/gpu_check.yml (written by `python -m tools.gpu_check` on the GPU machine), in the
  page's language; "not yet checked on a GPU" while the record is empty.
- The footer of every page (overrides/partials/copyright.html): which run verified this
  build, and the GPU record. CI builds the published site in the job whose tests have just
  passed and sets VERIFIED_RUN to that run's address: the stamp then gives torch's version
  and build as installed in that environment (e.g. 2.15.0+cu132), the date and the commit.
  Without VERIFIED_RUN (`make serve`, any local build) it says "local preview".
"""

import ast
import datetime
import hashlib
import importlib.util
import os
import re
import subprocess
import tomllib
from html import escape
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "{{ torch_version }}"
GPU_PLACEHOLDER = "{{ gpu_check }}"
GPU_RECORD = ROOT / "data" / "gpu_check.yml"
GPU_FIELDS = ("date", "torch", "gpu", "commit")
# and `snippets`: {path below snippets/: sha256 of the file} of the CUDA snippets that ran,
# so that a page can tell an example changed since that run from one that did not
SNIPPET_FINGERPRINTS = "snippets"

TEXT = {
    "en": {
        "verified": 'Verified by <a href="{run}">a CI run</a> on {date}: the examples of commit '
        "<code>{commit}</code>, run on the CPU with PyTorch {torch}.",
        "local": "Local preview, not verified by CI (PyTorch {torch} in this environment).",
        "gpu_label": "Examples that need a GPU: {gpu_check}.",
        "gpu_none": "not yet checked on a GPU",
        "gpu_done": "last checked on a GPU on {date} ({gpu}, PyTorch {torch}, commit {commit})",
        "gpu_other_release": "; not yet with the pinned PyTorch {pin}",
    },
    "zh": {
        "verified": '由 <a href="{run}">CI 运行</a>于 {date} 核对：提交 <code>{commit}</code> '
        "的示例在 CPU 上用 PyTorch {torch} 运行通过。",
        "local": "本地预览，未经 CI 核对（当前环境的 PyTorch 为 {torch}）。",
        "gpu_label": "需要 GPU 的示例：{gpu_check}。",
        "gpu_none": "尚未在 GPU 上核对",
        "gpu_done": "最近一次于 {date} 在 GPU 上核对（{gpu}，PyTorch {torch}，提交 {commit}）",
        "gpu_other_release": "；尚未用本站固定的 PyTorch {pin} 核对",
    },
}


def pinned_torch_version(pyproject=ROOT / "pyproject.toml"):
    groups = tomllib.loads(pyproject.read_text(encoding="utf-8"))["dependency-groups"]
    for group in groups.values():
        for requirement in group:
            match = re.fullmatch(r"torch==([\w.+]+)", str(requirement))
            if match:
                return match.group(1)
    raise SystemExit(f"{pyproject}: no exact `torch==X` pin in [dependency-groups]")


def installed_torch_version():
    """torch.__version__ with its build (2.15.0+cu132, 2.15.0+cpu), read from torch/version.py
    without importing torch (seconds saved on every build)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return "(not installed)"
    source = Path(spec.submodule_search_locations[0], "version.py").read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
        if isinstance(target, ast.Name) and target.id == "__version__":
            return ast.literal_eval(node.value)
    raise SystemExit(f"{spec.origin}: no __version__ in torch/version.py")


def load_gpu_record(path=GPU_RECORD):
    """The record of the last GPU run: a dict of GPU_FIELDS, or None while it is empty."""
    try:
        record = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as error:
        raise SystemExit(f"{path}: cannot read the GPU record: {error}") from None
    fingerprints = record.pop(SNIPPET_FINGERPRINTS, None) if isinstance(record, dict) else None
    if not isinstance(record, dict) or set(record) != set(GPU_FIELDS):
        raise SystemExit(
            f"{path}: needs exactly the keys {', '.join(GPU_FIELDS)} (and {SNIPPET_FINGERPRINTS})"
        )
    if fingerprints is not None and not (
        isinstance(fingerprints, dict)
        and all(isinstance(v, str) and len(v) == 64 for v in fingerprints.values())
    ):
        raise SystemExit(f"{path}: {SNIPPET_FINGERPRINTS} maps a snippet to its sha256")
    filled = [key for key in GPU_FIELDS if record[key] not in (None, "")]
    if not filled:
        return None
    if len(filled) < len(GPU_FIELDS):
        missing = ", ".join(k for k in GPU_FIELDS if k not in filled)
        raise SystemExit(f"{path}: {missing} empty; fill every key or none (not yet checked)")
    record = {key: str(record[key]) for key in GPU_FIELDS}
    record[SNIPPET_FINGERPRINTS] = fingerprints or {}
    try:
        datetime.date.fromisoformat(record["date"])
    except ValueError:
        raise SystemExit(f"{path}: date {record['date']!r} is not YYYY-MM-DD") from None
    return record


def fingerprint(path):
    """The sha256 of a snippet file, as data/gpu_check.yml records it."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def gpu_check_text(language, record, pin=None):
    """What the last GPU run checked; it says so when that machine's torch was another
    release than the pin (a GPU machine may have only the torch it came with)."""
    text = TEXT[language]
    if record is None:
        return text["gpu_none"]
    done = text["gpu_done"].format(**{**record, "commit": record["commit"][:7]})
    pin = pin or pinned_torch_version()
    if record["torch"].split("+")[0] != pin:
        done += text["gpu_other_release"].format(pin=pin)
    return done


def commit():
    sha = os.environ.get("GITHUB_SHA")
    if not sha:
        git = ["git", "rev-parse", "HEAD"]
        sha = subprocess.run(git, check=True, cwd=ROOT, capture_output=True, text=True).stdout
        sha = sha.strip()
    return sha[:7]


def footer_html(language, environ, record, today=None):
    """The footer's two lines: what verified this build, and the last GPU run."""
    text = TEXT[language]
    torch = escape(installed_torch_version())
    run = environ.get("VERIFIED_RUN")
    if run:
        date = (today or datetime.datetime.now(datetime.UTC).date()).isoformat()
        first = text["verified"].format(
            run=escape(run, quote=True), date=date, commit=escape(commit()), torch=torch
        )
    else:
        first = text["local"].format(torch=torch)
    second = text["gpu_label"].format(gpu_check=escape(gpu_check_text(language, record)))
    return f'<span class="verified-stamp__run">{first}</span><br><span class="verified-stamp__gpu">{second}</span>'


def language_of(config):
    return config.theme["language"] if config.theme["language"] in TEXT else "en"


def on_config(config):
    config.extra["torch_version"] = pinned_torch_version()
    return config


def on_env(env, config, files):
    """Once per language build: the footer stamp, for every page and the 404 page."""
    record = load_gpu_record()
    # every language's, for the one 404 page that speaks to readers of both
    stamps = {lang: footer_html(lang, os.environ, record) for lang in TEXT}
    env.globals["verified_stamps"] = stamps
    env.globals["verified_stamp"] = stamps[language_of(config)]
    return env


def on_page_markdown(markdown, page, config, files):
    markdown = markdown.replace(PLACEHOLDER, config.extra["torch_version"])
    if GPU_PLACEHOLDER in markdown:
        markdown = markdown.replace(
            GPU_PLACEHOLDER, gpu_check_text(language_of(config), load_gpu_record())
        )
    return markdown
