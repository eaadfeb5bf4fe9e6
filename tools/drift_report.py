"""Report, in Markdown, each example whose output changed with the installed torch.

    python -m tools.drift_report [--output drift.md] [FILE_OR_FOLDER ...]

Runs every snippet (default: snippets/) as the tests do and writes file, line, expected
and got for each example that no longer matches. Exit status: 0 no drift, 1 drift found,
2 could not run. The weekly drift.yml runs it against the newest torch release.
"""

import argparse
import sys
import time
from pathlib import Path

from tools.examples import each_snippet, run_file


def fence(text, language="text"):
    return f"```{language}\n{text.rstrip()}\n```\n"


def markdown(version, drifted, examples, files, skipped):
    lines = [f"## Drift against torch {version}\n"]
    if not drifted:
        lines.append(
            f"No drift: all {examples} examples in {files} files print what they expect.\n"
        )
    else:
        lines.append(
            f"{len(drifted)} of {examples} examples in {files} files print something other "
            "than they expect. To move the pin to this version, run "
            "`python -m tools.update_outputs` with it installed and review the diff "
            "(CONTRIBUTING.md, *Move the PyTorch pin*).\n"
        )
    for result in drifted:
        source = "".join(
            ("... " if i else ">>> ") + line + "\n"
            for i, line in enumerate(result.example.source.splitlines())
        )
        lines += [
            f"### `{result.path}`, line {result.line}\n",
            fence(source, "pycon"),
            "Expected:\n",
            fence(result.example.want),
            "Got:\n",
            fence(result.got),
        ]
    if skipped:
        lines.append("Not run (need a CUDA GPU): " + ", ".join(f"`{p}`" for p in skipped) + "\n")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="snippet files or folders (default: snippets/)")
    parser.add_argument("--output", default="drift.md", help="where to write the Markdown")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    drifted, examples = [], []

    def run(path):
        results = run_file(path)[1]
        examples.extend(results)
        drifted.extend(r for r in results if not r.matches)

    done = each_snippet("drift_report", args.paths, run)
    if done is None:
        return 2
    version, ran, skipped = done
    report = markdown(version, drifted, len(examples), len(ran), skipped)
    Path(args.output).write_text(report, encoding="utf-8")
    for result in drifted:
        print(f"{result.path}:{result.line}: output changed")
    print(
        f"{len(drifted)} of {len(examples)} examples drifted against torch {version} "
        f"({time.perf_counter() - started:.1f} s); report in {args.output}"
    )
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main())
