"""Write the record of a GPU run (data/gpu_check.yml): date, torch with its build, GPU, commit.

    python -m tools.gpu_check [--output data/gpu_check.yml]

Run it on the GPU machine right after the CUDA examples passed there, with the command of
gpu.yml (`.venv/bin/pytest -m cuda -n 0 snippets`); the footer of every page and
`{{ gpu_check }}` then say when the examples that need a GPU were last checked on one.
Exit status 2, with nothing written, where no CUDA GPU is usable.
"""

import argparse
import datetime
import subprocess
import sys
from pathlib import Path

import yaml

from hooks.version import (
    GPU_FIELDS,
    GPU_RECORD,
    ROOT,
    SNIPPET_FINGERPRINTS,
    fingerprint,
    load_gpu_record,
)

SNIPPETS = ROOT / "snippets"


def record_text(record, header):
    """The YAML of a record, with the header comment of the current file kept."""
    keys = (*GPU_FIELDS, SNIPPET_FINGERPRINTS)
    return header + yaml.safe_dump({k: record[k] for k in keys if k in record}, sort_keys=False)


def header_of(path):
    lines = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if line.startswith("#"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=GPU_RECORD)
    parser.add_argument(
        "--commit",
        help="the commit whose examples ran (default: `git rev-parse HEAD`; give it where the "
        "checkout has no .git, e.g. a copy of the working tree)",
    )
    args = parser.parse_args(argv)

    import torch

    if not torch.cuda.is_available():
        print(
            "tools.gpu_check: no usable CUDA GPU here (torch.cuda.is_available() is False); "
            "run it on the GPU machine after `.venv/bin/pytest -m cuda -n 0 snippets` passed. "
            "Nothing written.",
            file=sys.stderr,
        )
        return 2
    git = ["git", "rev-parse", "HEAD"]
    record = {
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "torch": str(torch.__version__),  # a TorchVersion, which yaml cannot write
        "gpu": str(torch.cuda.get_device_name(0)),
        "commit": args.commit
        or subprocess.run(git, check=True, cwd=ROOT, capture_output=True, text=True).stdout.strip(),
        SNIPPET_FINGERPRINTS: {
            path.relative_to(SNIPPETS).as_posix(): fingerprint(path)
            for path in sorted(SNIPPETS.rglob("*.cuda.pycon"))
        },
    }
    args.output.write_text(record_text(record, header_of(GPU_RECORD)), encoding="utf-8")
    load_gpu_record(args.output)  # what the site will read back: fails here, not at build
    print(args.output.read_text(encoding="utf-8"), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
