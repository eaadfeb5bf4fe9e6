"""What does the installed torch print? Run snippets as the tests do and say where it differs.

    python -m tools.outputs [FILE_OR_FOLDER ...]                 # report (default: snippets/)
    python -m tools.outputs --write [FILE_OR_FOLDER ...]         # rewrite the stale outputs
    python -m tools.outputs --report drift.md [FILE_OR_FOLDER ...]  # and write it as Markdown

Fills in a new snippet's outputs (`--write`), moves the pin (`--write` after installing the
new torch), and is the weekly drift job's report against the newest torch (`--report`). An
expected output is rewritten only where the tests' checker says it no longer matches;
everything else, `...` included, stays byte for byte. Each rewrite is printed, the whole
old text when it is longer than the new: a new file is in no `git diff`. A mistyped prompt
stops it, naming the file and the line, before anything is rewritten.
Exit status: 0 every output as expected (or rewritten), 1 outputs differ (or an output
differs on a second run), 2 could not run.
"""

import argparse
import contextlib
import os
import re
import sys
import tempfile
import time
import warnings
from pathlib import Path

from torch_verified.examples import BadInput, each_snippet, run_file
from torch_verified.markdown import includes
from torch_verified.project import DOCS, SNIPPETS, kind

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
        start = result.example.lineno + result.example.source.count("\n")
        lines[start : start + result.example.want.count("\n")] = as_want(
            result.got, result.example.indent
        )
    return "".join(lines)


def pages_including(path):
    try:
        name = Path(path).resolve().relative_to(SNIPPETS).as_posix()
    except ValueError:
        return []
    found = [p for p in DOCS.rglob("*.md") if name in includes(p.read_text(encoding="utf-8"))]
    return sorted(p.relative_to(DOCS.parent).as_posix() for p in found)


def shown(text, width):
    """An output as the command prints it: its first line, or all of it when `width` (the
    lines of the text replacing it) is smaller."""
    lines = text.strip("\n").splitlines() or ["(nothing)"]
    if len(lines) > max(width, 1):
        return "\n         ".join(lines)
    return lines[0] + (" …" if len(lines) > 1 else "")


@contextlib.contextmanager
def quiet():
    """What the examples write to stderr (a profiler's device probes, deprecation warnings)
    is shown only when the run fails: it is no output of theirs."""
    with tempfile.TemporaryFile() as err, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            err.seek(0)
            sys.stderr.write(err.read().decode(errors="replace"))
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def update(path, write):
    """Run one file; print (and with `write`, rewrite) its stale outputs: (examples run,
    [stale Result, and None for each output that differs on a second run])."""
    with quiet():
        text, results = run_file(path)
    stale = [r for r in results if not r.matches]
    for result in stale:
        if (
            write
            and result.exc_msg
            and result.example.exc_msg is None
            and NOT_DRIFT.match(result.exc_msg)
        ):
            raise BadInput(
                f"{path}:{result.line}: {result.exc_msg.strip()}; fix the snippet or the "
                "environment (an output is not rewritten into this error)"
            )
    for result in stale:
        now = "".join(as_want(result.exc_msg or result.got, 9)).strip() or "(nothing)"
        old = result.example.exc_msg or result.example.want
        what = "output rewritten" if write else "prints something else"
        print(f"{path}:{result.line}: {'new output' if not old.strip() else what}")
        print(f"    was: {shown(old, now.count(chr(10)) + 1)}\n    now: {now}")
    if not (write and stale):
        return len(results), stale
    Path(path).write_text(rewrite(text, stale), encoding="utf-8")
    with quiet():
        rerun = run_file(path)[1]
    for result in rerun:
        if not result.matches:
            print(
                f"{path}:{result.line}: WARNING: prints something else on a second run "
                "(unseeded random values? addresses?); edit it by hand, e.g. with `...`"
            )
            stale.append(None)  # counted as unstable: exit status 1
    if pages := pages_including(path):
        print(f"    check the prose about it in: {', '.join(pages)}")
    return len(results), stale


def fence(text, language="text"):
    return f"```{language}\n{text.rstrip()}\n```\n"


def markdown(version, stale, examples, files, skipped):
    """The drift job's report: file, line, expected and got of each example that differs."""
    lines = [f"## Drift against torch {version}\n"]
    if stale:
        lines.append(
            f"{len(stale)} of {examples} examples in {files} files print something other than "
            "they expect. Run `python -m tools.outputs --write` with this torch installed and "
            "review the diff (CONTRIBUTING.md, *Move the PyTorch pin*).\n"
        )
    else:
        lines.append(
            f"No drift: all {examples} examples in {files} files print what they expect.\n"
        )
    for result in stale:
        source = "".join(
            ("... " if i else ">>> ") + line + "\n"
            for i, line in enumerate(result.example.source.splitlines())
        )
        lines += [f"### `{result.path}`, line {result.line}\n", fence(source, "pycon")]
        lines += ["Expected:\n", fence(result.example.want), "Got:\n", fence(result.got)]
    if skipped:
        lines.append("Not run here: " + ", ".join(f"`{p}`" for p in skipped) + "\n")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="snippet files or folders (default: snippets/)")
    parser.add_argument("--write", action="store_true", help="rewrite the outputs that differ")
    parser.add_argument("--report", metavar="FILE", help="also write the differences as Markdown")
    args = parser.parse_args(argv)
    started, stale, counts = time.perf_counter(), [], {"examples": 0}

    def run(path):
        examples, found = update(path, args.write)
        counts["examples"] += examples
        stale.extend(found)

    done = each_snippet("outputs", args.paths, run)
    if done is None:
        return 2
    version, ran, skipped = done
    kinds = sorted({kind(p) for p in skipped})
    found = [r for r in stale if r is not None]
    if args.report:
        Path(args.report).write_text(
            markdown(version, found, counts["examples"], len(ran), skipped), "utf-8"
        )
    verb = "wrote" if args.write else "found"
    new = sum(not (r.example.exc_msg or r.example.want).strip() for r in found)
    print(
        f"outputs: {verb} {len(found) - new} changed and {new} new output"
        f"{'' if len(found) == 1 else 's'} in "
        f"{len({r.path for r in found})} of {len(ran)} "
        f"files run against torch {version} ({time.perf_counter() - started:.1f} s)"
        + (f"; {len(skipped)} files not for this machine ({', '.join(kinds)})" if skipped else "")
        + (f"; report in {args.report}" if args.report else "")
    )
    return 1 if (None in stale or (stale and not args.write)) else 0


if __name__ == "__main__":
    sys.exit(main())
