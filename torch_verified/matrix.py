"""The version matrix as data: data/releases.yml lists the releases every example also runs
against (`make matrix`, tools/matrix.py) and, for each example that one of them prints
differently from the pin, that output. The matrix run fails when an entry is wrong, so what
the pages show from here ("torch 2.13.0–2.14.1 print: …") is checked like the examples.
"""

import doctest
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from torch_verified.project import DATA, SNIPPETS, kind, pinned_torch, read_yaml
from torch_verified.strings import STRINGS

PATH = DATA / "releases.yml"


class MatrixDataError(ValueError):
    """data/releases.yml says something that cannot be right; the message names the entry."""


@dataclass(frozen=True)
class Entry:
    snippet: str  # relative to snippets/, as pages include it
    example: str  # the example's source, as written after `>>> ` (first line)
    releases: tuple  # the matrix releases that print `output`
    output: str  # what they print: the text, or the exception's last line

    def covers(self, release):
        return release in self.releases


def _version(release):
    return [int(n) for n in release.split(".")]


@dataclass(frozen=True)
class Matrix:
    releases: tuple
    entries: tuple

    def for_snippet(self, snippet):
        return [entry for entry in self.entries if entry.snippet == snippet]

    def lookup(self, snippet, example, release):
        """The entry saying what `release` prints for `example` of `snippet`, or None."""
        for entry in self.entries:
            if entry.snippet == snippet and entry.example == example and entry.covers(release):
                return entry
        return None

    def label(self, releases, lang="en"):
        """`torch 2.13.0–2.15.0` for a run of consecutive releases (of the matrix and the
        pin), else a list."""
        every = sorted({*self.releases, pinned_torch()}, key=_version)
        ordered = [r for r in every if r in releases]
        first, last = every.index(ordered[0]), every.index(ordered[-1])
        if len(ordered) > 1 and last - first + 1 == len(ordered):
            return f"torch {ordered[0]}–{ordered[-1]}"
        return "torch " + STRINGS[lang]["and"].join(ordered)

    def messages(self, snippet, example, message):
        """[(message, [releases that print it])] for an example that raises: the pin's
        message first, then each one that releases of the matrix print instead."""
        variants = {message: [pinned_torch()]}
        for release in self.releases:
            entry = self.lookup(snippet, example, release)
            printed = " ".join(entry.output.split()) if entry else message
            variants.setdefault(printed, []).append(release)
        return list(variants.items())


def first_line(source):
    return source.strip().splitlines()[0]


def example_sources(snippet, root=SNIPPETS):
    path = root / snippet
    examples = doctest.DocTestParser().get_examples(path.read_text(encoding="utf-8"), str(path))
    return [first_line(example.source) for example in examples]


def load(data=PATH, root=SNIPPETS):
    """The matrix of data/releases.yml, validated against the snippets it names (once until
    one of those files changes)."""
    data, root = Path(data), Path(root)
    named = {
        str(item.get("snippet"))
        for item in (read_yaml(data) or {}).get("outputs") or ()
        if isinstance(item, dict)
    }
    mtimes = tuple(
        (root / n).stat().st_mtime_ns if (root / n).is_file() else 0 for n in sorted(named)
    )
    return _load(data, root, (data.stat().st_mtime_ns, mtimes))


@cache
def _load(data, root, mtimes):
    raw = read_yaml(data) or {}
    releases = tuple(str(r) for r in raw.get("releases") or ())
    if not releases:
        raise MatrixDataError(f"{data}: `releases:` lists no torch release")
    entries, problems = [], []
    for number, item in enumerate(raw.get("outputs") or (), 1):
        missing = {"snippet", "example", "releases", "output"} - set(item or {})
        if missing:
            problems.append(f"{data}: outputs entry {number}: needs {', '.join(sorted(missing))}")
            continue
        entry = Entry(
            str(item["snippet"]),
            str(item["example"]).strip(),
            tuple(str(r) for r in item["releases"]),
            str(item["output"]).rstrip("\n"),
        )
        where = f"{data}: entry {entry.snippet} `{entry.example}`"
        unknown = [r for r in entry.releases if r not in releases]
        if unknown or not entry.releases:
            problems.append(f"{where}: releases {unknown or '[]'} are not in `releases:`")
        if kind(entry.snippet) == "cuda":
            problems.append(f"{where}: a CUDA example cannot be checked by the matrix run")
        if not (root / entry.snippet).is_file():
            problems.append(f"{where}: no such snippet in {root}")
        elif example_sources(entry.snippet, root).count(entry.example) != 1:
            problems.append(
                f"{where}: the snippet has no example (or several) whose first line is that"
            )
        if any(
            e.snippet == entry.snippet
            and e.example == entry.example
            and set(e.releases) & set(entry.releases)
            for e in entries
        ):
            problems.append(f"{where}: a release appears in two entries for this example")
        entries.append(entry)
    if problems:
        raise MatrixDataError("\n".join(problems))
    return Matrix(releases, tuple(entries))
