"""Run snippet files the way the tests do, and say what each example really prints.

Shared by tools.update_outputs (rewrites outputs) and tools.drift_report (reports them).
Each file runs in its own namespace, example by example, as Sybil runs it under pytest,
and is compared with the same checker and flags.
"""

import contextlib
import doctest
import io
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from sybil.evaluators.doctest import OutputChecker

# The doctest flags of every snippet, here and under pytest (conftest.py imports them).
# Sybil's NUMBER flag is deliberately absent: torch prints `2.` for whole floats, and with
# NUMBER `tensor([2., 2., 3.])` passed against `[2., 2., 2.]`.
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
CHECKER = OutputChecker()  # doctest's, ignoring trailing whitespace as Sybil does
TRACEBACK = "Traceback (most recent call last):\n  ...\n"


class BadInput(Exception):
    """A reason to stop, in one line that names the file (or the release, tools.matrix)."""


@dataclass
class Result:
    path: Path
    example: doctest.Example
    got: str  # what it printed, or the doctest form of the exception it raised
    exc_msg: str | None  # the exception's last line(s), when it raised one
    matches: bool

    @property
    def line(self):
        return self.example.lineno + 1


def require_torch():
    """The installed torch version; BadInput when there is none."""
    try:
        import torch
    except ImportError as error:
        raise BadInput(f"{sys.executable}: cannot import torch ({error}); `make install`") from None
    return torch.__version__


def snippet_files(paths):
    """The files named, and the *.pycon files under the folders named (default: snippets/)."""
    if not paths:
        if not Path("snippets").is_dir():
            raise BadInput(
                f"{Path.cwd()}: no snippets/ folder here; run it from the repository root"
            )
        paths = ["snippets"]
    files = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files += sorted(path.rglob("*.pycon"))
        elif path.is_file():
            files.append(path)
        else:
            raise BadInput(f"{name}: no such file or folder")
    return files


def kind(path):
    """The kind of a snippet file: "cuda" for *.cuda.pycon (needs a GPU), "nocuda" for
    *.nocuda.pycon (shows what a machine without one prints), else None."""
    return next((k for k in ("cuda", "nocuda") if Path(path).name.endswith(f".{k}.pycon")), None)


def not_for_this_machine(path):
    """A cuda or nocuda file where it does not apply: not run, not rewritten (and skipped,
    with a marker, by the tests: conftest.py)."""
    if kind(path) is None:
        return False
    import torch

    return (kind(path) == "cuda") != torch.cuda.is_available()


def parse(path):
    """The text of a snippet file and its doctest examples."""
    try:
        text = path.read_text(encoding="utf-8")
        examples = doctest.DocTestParser().get_examples(text, str(path))
    except (OSError, UnicodeError, ValueError) as error:
        raise BadInput(f"{path}: cannot parse it as a doctest session: {error}") from None
    if not examples:
        raise BadInput(f"{path}: no `>>> ` example in it")
    return text, examples


def execute(example, namespace, path):
    """Run one example as doctest does: (what it printed, exception message or None)."""
    out, hook = io.StringIO(), sys.displayhook
    sys.displayhook = sys.__displayhook__
    try:
        with contextlib.redirect_stdout(out):
            code = compile(example.source, str(path), "single", 0, True)
            exec(code, namespace)  # noqa: S102 (running the examples is the point)
        exc_msg = None
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 (as doctest: an exception is output)
        exc_msg = traceback.format_exception_only(type(error), error)[-1]
    finally:
        sys.displayhook = hook
    got = out.getvalue()
    return (got + "\n" if got and not got.endswith("\n") else got), exc_msg


def flags_of(example):
    flags = FLAGS
    for flag, on in example.options.items():
        flags = flags | flag if on else flags & ~flag
    return flags


def matches(example, got, exc_msg, want=None):
    """Whether what an example printed (or raised) is `want`, by default its own output.

    `want` is written as data/releases.yml writes an output: the printed text, or for an
    exception its last line(s)."""
    flags = flags_of(example)
    if want is None:
        want = example.want if exc_msg is None else example.exc_msg
        if want is None:  # it raised, but the snippet expects no exception
            return False
    want = want if want.endswith("\n") or not want else want + "\n"
    return CHECKER.check_output(want, got if exc_msg is None else exc_msg, flags)


def run_file(path, namespace=None):
    """Run each example of one file in a fresh namespace (or the dict given, which keeps
    what the examples define): (text, [Result, ...])."""
    text, examples = parse(path)
    namespace = {"__name__": "__test__"} if namespace is None else namespace
    results = []
    for example in examples:
        if flags_of(example) & doctest.SKIP:
            continue
        got, exc_msg = execute(example, namespace, path)
        ok = matches(example, got, exc_msg)
        if exc_msg is not None:
            got = TRACEBACK + exc_msg
        results.append(Result(path, example, got, exc_msg, ok))
    return text, results


def each_snippet(tool, paths, action):
    """The loop of the tools that run snippets from the command line (update_outputs,
    drift_report): `action(path)` for each file named (default: snippets/) that this machine
    can run, in order. Returns (torch version, [file run, ...], [file skipped, ...]), or
    None after printing `tool: reason` for bad input (the tool then exits with status 2)."""
    try:
        version = require_torch()
        ran, skipped = [], []
        for path in snippet_files(paths):
            if not_for_this_machine(path):
                skipped.append(path)
                continue
            action(path)
            ran.append(path)
    except BadInput as error:
        print(f"{tool}: {error}", file=sys.stderr)
        return None
    return version, ran, skipped
