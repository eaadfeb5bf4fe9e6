"""Write the record of a GPU run (data/gpu_check.yml): date, torch with its build, GPU, commit.

    python -m tools.gpu_check [--output data/gpu_check.yml] [--commit SHA]
    python -m tools.gpu_check --report REPORT.json [--output data/gpu_check.yml]

Run it on the GPU machine right after the CUDA examples passed there, with the command of
gpu.yml (`.venv/bin/pytest -m cuda -n 0 snippets`); the footer of every page and
`{{ gpu_check }}` then say when the examples that need a GPU were last checked on one.
Exit status 2, with nothing written, where no CUDA GPU is usable.

With --report, the record comes from a reader's GPU machine instead: the report that
`torch-verified-check.py --json REPORT.json` wrote there (torch_verified/check_script.py).
It must be a run of every example on the pinned torch, with a GPU, in which every CUDA
example printed what its page shows; else exit status 2 says why, and nothing is written.
"""

import argparse
import datetime
import json
import sys
from pathlib import Path

from torch_verified import gpu_record
from torch_verified.project import kind, pinned_torch


def from_report(report, pin=None):
    """The record of a reader's report (the --json of torch-verified-check.py); RecordError
    saying why it cannot be one."""
    env, pin = report["environment"], pin or pinned_torch()
    cuda = [r for r in report["results"] if kind(r["snippet"]) == "cuda"]
    failed = [f"{r['snippet']}:{r['line']} {r['status']}" for r in cuda if r["status"] != "same"]
    problems = [
        (not env["gpu"], "it ran on a machine without a usable CUDA GPU"),
        (env["release"] != pin, f"it ran torch {env['torch']}, not the pinned {pin}"),
        (report["page"] is not None, f"it checked one page ({report['page']}), not every one"),
        (not cuda, "no CUDA example ran"),
        (len(report["script"]["commit"]) != 40, "its file was built outside a git checkout"),
        (failed, "CUDA examples not as their page shows: " + ", ".join(failed)),
    ]
    if why := [reason for failing, reason in problems if failing]:
        raise gpu_record.RecordError("the report cannot be the GPU record: " + "; ".join(why))
    ran = sorted({r["snippet"] for r in cuda})
    return {
        "date": env["date"],
        "torch": env["torch"],
        "gpu": env["gpu"],
        "commit": report["script"]["commit"],
        gpu_record.FINGERPRINTS: {name: report["snippets"][name] for name in ran},
    }


def write(record, output):
    output.write_text(gpu_record.dump(record, gpu_record.header_of()), encoding="utf-8")
    gpu_record.load(output)  # what the site will read back: fails here, not at build
    print(output.read_text(encoding="utf-8"), end="")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=gpu_record.PATH)
    parser.add_argument(
        "--commit",
        help="the commit whose examples ran (default: `git rev-parse HEAD`; give it where the "
        "checkout has no .git, e.g. a copy of the working tree)",
    )
    parser.add_argument(
        "--report", type=Path, help="a reader's report: torch-verified-check.py --json FILE"
    )
    args = parser.parse_args(argv)
    if args.report:
        try:
            record = from_report(json.loads(args.report.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError) as error:  # RecordError is a ValueError
            print(f"tools.gpu_check: {args.report}: {error}", file=sys.stderr)
            return 2
        write(record, args.output)
        return 0

    import torch

    if not torch.cuda.is_available():
        print(
            "tools.gpu_check: no usable CUDA GPU here (torch.cuda.is_available() is False); "
            "run it on the GPU machine after `.venv/bin/pytest -m cuda -n 0 snippets` passed. "
            "Nothing written.",
            file=sys.stderr,
        )
        return 2
    record = {
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "torch": str(torch.__version__),  # a TorchVersion, which yaml cannot write
        "gpu": str(torch.cuda.get_device_name(0)),
        "commit": args.commit or gpu_record.head(),
        gpu_record.FINGERPRINTS: gpu_record.fingerprints(),
    }
    write(record, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
