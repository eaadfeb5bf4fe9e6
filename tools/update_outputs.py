"""Rewrite the expected outputs of snippets from real runs against the installed torch.

    python -m tools.update_outputs [FILE_OR_FOLDER ...]      (default: snippets/)

The way to move the PyTorch pin. An expected output is replaced only where the tests'
checker says it no longer matches; everything else, `...` included, stays byte for byte.
Each rewritten output is printed in full: review it there (a new, untracked file is in no
`git diff`) or with `git diff` like any change.
"""

import argparse
import re
import sys
import time
from pathlib import Path

from tools.examples import BadInput, each_snippet, kind, run_file

ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")  # an object address differs on every run
NOT_DRIFT = re.compile(r"(ModuleNotFoundError|ImportError|SyntaxError|IndentationError)\b")


def as_want(got, indent):
    """Real output written as doctest expects it: no blank lines, no trailing spaces."""
    lines = [line.rstrip() or "<BLANKLINE>" for line in ADDRESS.sub("0x...", got).splitlines()]
    return [" " * indent + line + "\n" for line in lines]


def rewrite(text, stale):
    """The text with the expected output of each stale Result replaced."""
    lines = text.splitlines(keepends=True)
    for result in sorted(stale, key=lambda r: r.example.lineno, reverse=True):
        example = result.example
        start = example.lineno + example.source.count("\n")
        end = start + example.want.count("\n")
        lines[start:end] = as_want(result.got, example.indent)
    return "".join(lines)


def pages_including(path):
    try:
        name = path.resolve().relative_to(Path("snippets").resolve()).as_posix()
    except ValueError:
        return []
    pages = Path("docs").rglob("*.md")
    return sorted(str(p) for p in pages if f'"{name}"' in p.read_text(encoding="utf-8"))


def first_line(text):
    lines = text.splitlines() or ["(nothing)"]
    return lines[0] + (" …" if len(lines) > 1 else "")


def update(path):
    """Rewrite one file's stale outputs and say so: (examples, rewritten, unstable)."""
    text, results = run_file(path)
    stale = [r for r in results if not r.matches]
    for result in stale:
        if result.exc_msg and result.example.exc_msg is None and NOT_DRIFT.match(result.exc_msg):
            raise BadInput(
                f"{path}:{result.line}: {result.exc_msg.strip()}; fix the snippet or the "
                "environment (an output is not rewritten into this error)"
            )
    if not stale:
        return len(results), 0, 0
    path.write_text(rewrite(text, stale), encoding="utf-8")
    for result in stale:
        print(f"{path}:{result.line}: output rewritten")
        print(f"    was: {first_line(result.example.exc_msg or result.example.want)}")
        now = as_want(result.exc_msg or result.got, 9)  # all of it: a new file is in no diff
        print("    now: " + "".join(now).strip() if now else "    now: (nothing)")
    unstable = [r for r in run_file(path)[1] if not r.matches]
    for result in unstable:
        print(
            f"{path}:{result.line}: WARNING: prints something else on a second run "
            "(unseeded random values? addresses?); edit it by hand, e.g. with `...`"
        )
    pages = pages_including(path)
    if pages:
        print(f"    check the prose about it in: {', '.join(pages)}")
    return len(results), len(stale), len(unstable)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="snippet files or folders (default: snippets/)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    counts = {"examples": 0, "rewritten": 0, "changed": 0, "unstable": 0}

    def rewrite_stale(path):
        examples, stale, unstable = update(path)
        counts["examples"] += examples
        counts["rewritten"] += stale
        counts["changed"] += bool(stale)
        counts["unstable"] += unstable

    done = each_snippet("update_outputs", args.paths, rewrite_stale)
    if done is None:
        return 2
    version, ran, skipped = done
    for path in skipped:
        print(f"{path}: skipped, a {kind(path)} example is not for this machine")
    examples, rewritten, changed, unstable = counts.values()
    files = ran + skipped
    print(
        f"rewrote {rewritten} expected outputs in {changed} files ({examples} examples in "
        f"{len(files)} files run against torch {version}, {time.perf_counter() - started:.1f} s)"
        + ("; review them above (or with `git diff`: a new file is not in it)" if rewritten else "")
    )
    return 1 if unstable else 0


if __name__ == "__main__":
    sys.exit(main())
