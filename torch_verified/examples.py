"""The examples: snippet files of doctest sessions, and how they run and are compared.

Sybil runs them under pytest (conftest.py) with FLAGS; everything else that runs an example
(tools.outputs, tools.matrix, the figures, the page notebooks) uses run_file here, and
compares with CHECKER and the same FLAGS, so "what the tests say" is decided once.

    python -m torch_verified.examples FILE ...   # the prompt check of `make lint`
"""

import contextlib
import doctest
import io
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from sybil.evaluators.doctest import OutputChecker

from torch_verified.project import kind

# Sybil's NUMBER flag is deliberately absent: torch prints `2.` for whole floats, and with
# NUMBER `tensor([2., 2., 3.])` passed against `[2., 2., 2.]`.
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
CHECKER = OutputChecker()  # doctest's, ignoring trailing whitespace as Sybil does
TRACEBACK = "Traceback (most recent call last):\n  ...\n"
PROMPT = 'a prompt is ">>> " (three > and a space)'
CONTINUATION = 'a continuation line is "... " (three dots and a space)'


class BadInput(Exception):
    """A reason to stop, in one line that names the file (or the release, tools.matrix)."""


def prompt_problems(text):
    """[(line, message)] for each mistyped prompt (`>>x`, `>>>x`, a tab after `>>>`, an
    indented prompt) or continuation line: doctest would stop at some and silently read
    others as the previous example's output."""
    found, source = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(">>") and not re.match(r">>>( |$)", line):
            found.append((number, f"{PROMPT}: {line.strip()!r}"))
        elif source and line.startswith("...") and not re.match(r"\.\.\.( |$)", line):
            found.append((number, f"{CONTINUATION}: {line.strip()!r}"))
        source = line.startswith(">>>") or (source and line.startswith("..."))
    return found


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


def for_this_machine(path):
    """False for a cuda or nocuda file where it does not apply: not run, not rewritten (and
    skipped, with a marker, by the tests: conftest.py)."""
    if kind(path) is None:
        return True
    import torch

    return (kind(path) == "cuda") == torch.cuda.is_available()


def files_named(paths):
    """The files named, and the *.pycon files under the folders named (default: snippets/
    of the current folder)."""
    if not paths and not Path("snippets").is_dir():
        raise BadInput(f"{Path.cwd()}: no snippets/ folder here; run it from the repository root")
    files = []
    for name in paths or ["snippets"]:
        path = Path(name)
        if path.is_dir():
            files += sorted(path.rglob("*.pycon"))
        elif path.is_file():
            files.append(path)
        else:
            raise BadInput(f"{name}: no such file or folder")
    return files


def parse(path):
    """The text of a snippet file and its doctest examples; BadInput for a mistyped prompt."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeError) as error:
        raise BadInput(f"{path}: cannot read it: {error}") from None
    problems = prompt_problems(text)
    if problems:
        line, message = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BadInput(f"{path}:{line}: {message}{more}")
    try:
        examples = doctest.DocTestParser().get_examples(text, str(path))
    except ValueError as error:
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


def flags_of(example, flags=FLAGS):
    """The doctest flags an example runs with: FLAGS (or `flags`) and its own directives."""
    for flag, on in example.options.items():
        flags = flags | flag if on else flags & ~flag
    return flags


def matches(example, got, exc_msg, want=None):
    """Whether what an example printed (or raised) is `want`, by default its own output.

    `want` is written as data/releases.yml writes an output: the printed text, or for an
    exception its last line(s)."""
    if want is None:
        want = example.want if exc_msg is None else example.exc_msg
        if want is None:  # it raised, but the snippet expects no exception
            return False
    want = want if want.endswith("\n") or not want else want + "\n"
    return CHECKER.check_output(want, got if exc_msg is None else exc_msg, flags_of(example))


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
        results.append(Result(Path(path), example, got, exc_msg, ok))
    return text, results


def runnable_code(session):
    """The code of a doctest session, as the copy button copies it: no prompts, no outputs;
    a blank line closes each multi-line statement, and none is left inside one (Python
    3.11's and 3.12's prompt ends a class body at a blank line), so that a prompt runs it too."""
    examples = doctest.DocTestParser().get_examples(session)
    return "".join(_closed(e.source) + ("\n" if e.source.count("\n") > 1 else "") for e in examples)


def _closed(source):
    """The statement without its blank lines before an indented line, except in strings."""
    import tokenize

    lines, strings = source.split("\n"), set()
    with contextlib.suppress(tokenize.TokenError, SyntaxError):
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING or token.type == getattr(
                tokenize, "FSTRING_MIDDLE", -1
            ):
                strings.update(range(token.start[0] + 1, token.end[0] + 1))
    kept = []
    for number, line in enumerate(lines, 1):
        after = next((later for later in lines[number:] if later.strip()), "")
        if line.strip() or number in strings or not after[:1].isspace():
            kept.append(line)
    return "\n".join(kept)


def each_snippet(tool, paths, action):
    """The loop of the commands that run snippets: `action(path)` for each file named
    (default: snippets/) that this machine can run, in order. Returns (torch version,
    [file run, ...], [file skipped, ...]), or None after printing `tool: reason` for bad
    input (the tool then exits with status 2)."""
    try:
        version = require_torch()
        ran, skipped = [], []
        for path in files_named(paths):
            if not for_this_machine(path):
                skipped.append(path)
                continue
            action(path)
            ran.append(path)
    except BadInput as error:
        print(f"{tool}: {error}", file=sys.stderr)
        return None
    return version, ran, skipped


def main(argv):
    """The lint hook: each mistyped prompt of the files named, `file:line: message`."""
    problems = [
        f"{name}:{line}: {message}"
        for name in argv
        for line, message in prompt_problems(Path(name).read_text(encoding="utf-8"))
    ]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
