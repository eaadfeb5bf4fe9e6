"""Write the record of a GPU run (data/gpu_check.yml): date, torch with its build, GPU, commit.

    python -m tools.gpu_check [--output data/gpu_check.yml] [--commit SHA]

Run it on the GPU machine right after the CUDA examples passed there, with the command of
gpu.yml (`.venv/bin/pytest -m cuda -n 0 snippets`); the footer of every page and
`{{ gpu_check }}` then say when the examples that need a GPU were last checked on one.
Exit status 2, with nothing written, where no CUDA GPU is usable.
"""

import argparse
import datetime
import sys
from pathlib import Path

from torch_verified import gpu_record


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=gpu_record.PATH)
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
    record = {
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "torch": str(torch.__version__),  # a TorchVersion, which yaml cannot write
        "gpu": str(torch.cuda.get_device_name(0)),
        "commit": args.commit or gpu_record.head(),
        gpu_record.FINGERPRINTS: gpu_record.fingerprints(),
    }
    args.output.write_text(gpu_record.dump(record, gpu_record.header_of()), encoding="utf-8")
    gpu_record.load(args.output)  # what the site will read back: fails here, not at build
    print(args.output.read_text(encoding="utf-8"), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
