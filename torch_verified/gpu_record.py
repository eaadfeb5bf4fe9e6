"""The record of the last run of the CUDA examples on a GPU: data/gpu_check.yml.

`python -m tools.gpu_check` writes it on the GPU machine (date, torch with its build, GPU,
commit, and the sha256 of each CUDA snippet that ran); the footer of every page, the
`{{ gpu_check }}` marker and the note under each CUDA example read it back from here.
"""

import datetime
import hashlib
import subprocess
from pathlib import Path

from torch_verified.project import DATA, ROOT, SNIPPETS, pinned_torch, read_yaml
from torch_verified.strings import STRINGS

PATH = DATA / "gpu_check.yml"
FIELDS = ("date", "torch", "gpu", "commit")
# and `snippets`: {path below snippets/: sha256 of the file} of the CUDA snippets that ran,
# so that a page can tell an example changed since that run from one that did not
FINGERPRINTS = "snippets"


class RecordError(ValueError):
    """The record cannot be right; the message names the file."""


def load(path=PATH):
    """The record: a dict of FIELDS and FINGERPRINTS, or None while it is empty."""
    import yaml

    try:
        record = read_yaml(path) or {}
    except (OSError, yaml.YAMLError) as error:
        raise RecordError(f"{path}: cannot read the GPU record: {error}") from None
    record = dict(record) if isinstance(record, dict) else record  # the cached one stays whole
    fingerprints = record.pop(FINGERPRINTS, None) if isinstance(record, dict) else None
    if not isinstance(record, dict) or set(record) != set(FIELDS):
        raise RecordError(
            f"{path}: needs exactly the keys {', '.join(FIELDS)} (and {FINGERPRINTS})"
        )
    if fingerprints is not None and not (
        isinstance(fingerprints, dict)
        and all(isinstance(v, str) and len(v) == 64 for v in fingerprints.values())
    ):
        raise RecordError(f"{path}: {FINGERPRINTS} maps a snippet to its sha256")
    filled = [key for key in FIELDS if record[key] not in (None, "")]
    if not filled:
        return None
    if len(filled) < len(FIELDS):
        missing = ", ".join(k for k in FIELDS if k not in filled)
        raise RecordError(f"{path}: {missing} empty; fill every key or none (not yet checked)")
    record = {key: str(record[key]) for key in FIELDS} | {FINGERPRINTS: fingerprints or {}}
    try:
        datetime.date.fromisoformat(record["date"])
    except ValueError:
        raise RecordError(f"{path}: date {record['date']!r} is not YYYY-MM-DD") from None
    return record


def fingerprint(path):
    """The sha256 of a snippet file, as the record keeps it."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def changed_since(record, snippet):
    """True when a CUDA snippet was edited (or added) after the run the record describes."""
    fingerprints = (record or {}).get(FINGERPRINTS) or {}
    return bool(fingerprints) and fingerprints.get(snippet) != fingerprint(SNIPPETS / snippet)


def text(language, record, pin=None):
    """What the last GPU run checked; it says so when that machine's torch was another
    release than the pin (a GPU machine may have only the torch it came with)."""
    words = STRINGS[language]
    if record is None:
        return words["gpu_none"]
    done = words["gpu_done"].format(**{**record, "commit": record["commit"][:7]})
    pin = pin or pinned_torch()
    if record["torch"].split("+")[0] != pin:
        done += words["gpu_other_release"].format(pin=pin)
    return done


def head():
    """The commit checked out (`git rev-parse HEAD`)."""
    git = ["git", "rev-parse", "HEAD"]
    return subprocess.run(git, check=True, cwd=ROOT, capture_output=True, text=True).stdout.strip()


def dump(record, header=""):
    """The YAML of a record, after `header` (the comment of the current file)."""
    import yaml

    keys = (*FIELDS, FINGERPRINTS)
    return header + yaml.safe_dump({k: record[k] for k in keys if k in record}, sort_keys=False)


def header_of(path=PATH):
    lines = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if line.startswith("#"))


def fingerprints():
    """{snippet: sha256} of every CUDA snippet, as a run records them."""
    from torch_verified.project import kind, snippet_files

    return {name: fingerprint(SNIPPETS / name) for name in snippet_files() if kind(name) == "cuda"}
