"""Run every example against the other releases of the version matrix, each in its own venv.

    python -m tools.matrix [--release X.Y.Z ...]      (`make matrix`; .ci/run runs it)

The releases and what they print differently from the pin are data: data/releases.yml
(torch_verified/matrix.py reads it, and pages show it). For each release this makes (once) a
venv, ~/.cache/torch-verified/matrix/torch-X.Y.Z/ (or under $TORCH_VERIFIED_MATRIX), with
that torch and the pinned numpy, matplotlib, scikit-learn and sybil, then runs every snippet there as the tests do. It fails, naming the file and line,
when an example prints something that neither the snippet nor data/releases.yml says
(and prints the entry to add), when an entry is wrong, and when an entry is no longer
needed because the release prints what the pin prints. A release that cannot be
installed is an error naming it, never a skip.
Then, in each release's venv and in this one (the pin), it runs the reader's check as a
reader runs it: torch-verified-check.py (torch_verified/check_script.py), which must find 0
differences that data/releases.yml does not explain.
Exit status: 0 all releases agree with the data, 1 they do not, 2 could not run.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from torch_verified.examples import BadInput, files_named, for_this_machine, matches, run_file
from torch_verified.project import ROOT, SNIPPETS, pinned_torch, pins

# One venv per release, outside the clone so that every clone on a machine shares them
# (CI runs in a fresh clone); made once, re-made when the requirements change.
ENVS = Path(os.environ.get("TORCH_VERIFIED_MATRIX", "~/.cache/torch-verified/matrix")).expanduser()
# What the examples import besides torch, at the versions pinned in pyproject.toml.
ALSO = ("numpy", "matplotlib", "scikit-learn", "sybil")


def requirements(release):
    pinned = pins()
    return [f"torch=={release}"] + [f"{name}=={pinned[name]}" for name in ALSO]


def environment(release, log=print):
    """The python of the venv for `release`, installed when missing or out of date."""
    venv = ENVS / f"torch-{release}"
    python, stamp = venv / "bin" / "python", venv / ".installed"
    wanted = "\n".join(requirements(release))
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    log(f"torch {release}: installing into {venv} (once; minutes)")
    started = time.perf_counter()
    steps = [
        [sys.executable, "-m", "venv", "--clear", "--without-pip", str(venv)],
        # the project's pip (pinned in the Makefile) installs into the release's venv
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *wanted.split("\n"),
        ],
    ]
    for step in steps:
        # exact pins: a machine-wide constraint file is not applied (as in `make install`)
        done = subprocess.run(
            step,
            check=False,
            capture_output=True,
            text=True,
            env=os.environ | {"PIP_CONSTRAINT": "/dev/null"},
        )
        if done.returncode:
            tail = "\n    ".join((done.stdout + done.stderr).strip().splitlines()[-6:])
            raise BadInput(
                f"torch {release}: could not install it ({' '.join(step[-4:])} exited "
                f"{done.returncode}); the matrix needs every release of data/releases.yml:\n"
                f"    {tail}"
            )
    stamp.write_text(wanted)
    log(f"torch {release}: installed in {time.perf_counter() - started:.0f} s")
    return python


def worker(release, expected, paths=(), root=SNIPPETS):
    """In the release's venv: run every snippet (or `paths`); return what disagrees with
    the data. `expected`: {snippet: {example: output}} of the entries for this release."""
    import torch

    if torch.__version__.split("+")[0] != release:
        raise BadInput(f"this venv has torch {torch.__version__}, not {release}")
    report = {"torch": torch.__version__, "examples": 0, "per_data": 0, "problems": []}
    used = set()
    for path in files_named(list(paths)):
        if not for_this_machine(path):
            continue
        snippet = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
        for result in run_file(path)[1]:
            report["examples"] += 1
            example = result.example.source.strip().splitlines()[0]
            want = expected.get(snippet, {}).get(example)
            got = result.exc_msg if result.exc_msg is not None else result.got
            problem = {
                "snippet": snippet,
                "line": result.line,
                "example": example,
                "got": got.rstrip("\n"),
                "data": want,
            }
            if want is None:
                if not result.matches:
                    report["problems"].append(problem | {"kind": "differs"})
                continue
            used.add((snippet, example))
            if result.matches:
                report["problems"].append(problem | {"kind": "not needed"})
            elif matches(result.example, result.got, result.exc_msg, want):
                report["per_data"] += 1
            else:
                report["problems"].append(problem | {"kind": "wrong"})
    for snippet, examples in expected.items():
        for example in examples:
            if (snippet, example) not in used and not paths:
                report["problems"].append(
                    {"snippet": snippet, "example": example, "kind": "not run", "line": 0}
                )
    return report


def describe(release, problem):
    where = f"snippets/{problem['snippet']}:{problem['line']}"
    got = problem.get("got", "")
    if problem["kind"] == "differs":
        return (
            f"{where}: torch {release} prints something else for `{problem['example']}`; "
            f"if that is right, add to data/releases.yml:\n"
            f"  - snippet: {problem['snippet']}\n"
            f"    example: {problem['example']}\n"
            f'    releases: ["{release}"]\n'
            f"    output: {json.dumps(got, ensure_ascii=False)}"
        )
    if problem["kind"] == "wrong":
        return (
            f"{where}: data/releases.yml says torch {release} prints for "
            f"`{problem['example']}`:\n    {problem['data']}\n  it prints:\n    "
            + got.replace("\n", "\n    ")
        )
    if problem["kind"] == "not needed":
        return (
            f"{where}: data/releases.yml has an entry for `{problem['example']}` with torch "
            f"{release}, which prints what the pin prints: remove {release} from it"
        )
    return (
        f"data/releases.yml: `{problem['example']}` of snippets/{problem['snippet']} was not "
        f"run against torch {release} (a CUDA example, or skipped here)"
    )


def run_release(release, matrix):
    python = environment(release)
    expected = {}
    for entry in matrix.entries:
        if entry.covers(release):
            expected.setdefault(entry.snippet, {})[entry.example] = entry.output
    started = time.perf_counter()
    done = subprocess.run(
        [str(python), "-m", "tools.matrix", "--worker", release],
        check=False,
        input=json.dumps(expected),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    if done.returncode:
        raise BadInput(f"torch {release}: the run failed:\n{done.stderr.strip()[-2000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    report["seconds"] = time.perf_counter() - started
    return report


def check_release(release, matrix, reader_file):
    """Every example against one release, then the reader's check there; True if failed."""
    report = run_release(release, matrix)
    problems = report["problems"]
    for problem in problems:
        print(describe(release, problem))
    print(
        f"torch {report['torch']}: {report['examples']} examples, "
        f"{report['examples'] - len(problems)} agree with the pages "
        f"({report['per_data']} of them per data/releases.yml), "
        f"{len(problems)} problems ({report['seconds']:.1f} s)"
    )
    return reader_check(environment(release), reader_file) or bool(problems)


def reader_check(python, script):
    """Run torch-verified-check.py with `python`; print its summary line and each
    difference; True when it found one (or could not run)."""
    report = script.with_name(f"report-{time.monotonic_ns()}.json")
    done = subprocess.run(
        [str(python), str(script), "--json", str(report)],
        check=False,
        capture_output=True,
        text=True,
        cwd=script.parent,
    )
    if not report.is_file():
        print(f"{script.name} with {python} failed:\n{(done.stdout + done.stderr)[-2000:]}")
        return True
    found = json.loads(report.read_text(encoding="utf-8"))
    for result in found["results"]:
        if result["status"] == "different":
            print(f"snippets/{result['snippet']}:{result['line']}: {script.name} with {python}:")
            print(f"  expected:\n    {result['expected']}\n  got:\n    {result['got']}")
    print(f"{script.name}: {found['summary']}")
    from torch_verified.check_script import PAGE, newest_release_counts

    release, counts = newest_release_counts()
    shown = found["environment"]["release"] == release and found["counts"] != counts
    if shown:  # the check page's {{ check_line }} is this run's line: it must be true
        print(f"docs/*/{PAGE} shows {counts} for torch {release}; this run: {found['counts']}")
    return done.returncode != 0 or found["counts"]["different"] > 0 or shown


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", action="append", help="only this release (repeatable)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, json.loads(sys.stdin.read()))))
        return 0
    from torch_verified.matrix import MatrixDataError, load

    started, failed = time.perf_counter(), False
    try:
        matrix = load()
        releases = args.release or list(matrix.releases)
        unknown = [r for r in releases if r not in matrix.releases]
        if unknown:
            raise BadInput(f"{', '.join(unknown)}: not in data/releases.yml `releases:`")
        from torch_verified.check_script import NAME, script

        with tempfile.TemporaryDirectory(prefix="matrix-") as folder:
            reader_file = Path(folder) / NAME
            reader_file.write_text(script(), encoding="utf-8")
            for release in releases:
                failed |= check_release(release, matrix, reader_file)
            if not args.release:
                print(f"torch {pinned_torch()} (the pin, {sys.executable}):")
                failed |= reader_check(sys.executable, reader_file)
    except (BadInput, MatrixDataError) as error:
        print(f"matrix: {error}", file=sys.stderr)
        return 2
    print(f"matrix: {'FAILED' if failed else 'ok'} in {time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
