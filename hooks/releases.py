"""The version matrix as data: the releases besides the pin, and what they print differently.

data/releases.yml lists the releases every example also runs against (`make matrix`,
tools/matrix.py) and, for each example where one of them prints something other than the
pinned torch, that output. The matrix run fails when an entry is wrong, so what this hook
shows under an example ("torch 2.13.0–2.14.1 print: …") is checked like the example itself.

As a MkDocs hook it adds that note after each fence that includes such a snippet, and
replaces `{{ matrix_releases }}` with the releases in the page's language. Under each
example that needs a GPU (`*.cuda.pycon`) it says when the GPU job last ran it, from
data/gpu_check.yml (read by hooks/version.py), or that it has not been checked on a GPU yet.
"""

import doctest
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

try:  # imported as a package (tests, tools) or by MkDocs from the hooks/ folder
    from hooks.version import SNIPPET_FINGERPRINTS, fingerprint, gpu_check_text, load_gpu_record
except ImportError:
    from version import SNIPPET_FINGERPRINTS, fingerprint, gpu_check_text, load_gpu_record

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "releases.yml"
SNIPPETS = ROOT / "snippets"
PLACEHOLDER = "{{ matrix_releases }}"
# A fence that includes one snippet, possibly indented (in a list or an admonition).
FENCE = re.compile(
    r'^(?P<indent>[ \t]*)```pycon[^\n]*\n(?P=indent)--8<-- "(?P<snippet>[^"]+)"\n(?P=indent)```[ \t]*$',
    re.MULTILINE,
)
WORDS = {
    "en": {"and": " and ", "print": "print", "prints": "prints", "for": "for"},
    "zh": {"and": " 和 ", "print": "输出", "prints": "输出", "for": "对"},
}


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
        """`torch 2.13.0–2.14.1` for a run of consecutive matrix releases, else a list."""
        ordered = [r for r in self.releases if r in releases]
        first, last = self.releases.index(ordered[0]), self.releases.index(ordered[-1])
        if len(ordered) > 1 and last - first + 1 == len(ordered):
            return f"torch {ordered[0]}–{ordered[-1]}"
        return "torch " + WORDS[lang]["and"].join(ordered)


def first_line(source):
    return source.strip().splitlines()[0]


def example_sources(snippet, root=SNIPPETS):
    path = root / snippet
    examples = doctest.DocTestParser().get_examples(path.read_text(encoding="utf-8"), str(path))
    return [first_line(example.source) for example in examples]


def load(data=DATA, root=SNIPPETS):
    """The matrix of data/releases.yml, validated against the snippets it names."""
    with open(data, encoding="utf-8") as file:
        raw = yaml.safe_load(file) or {}
    releases = tuple(str(r) for r in raw.get("releases") or ())
    if not releases:
        raise MatrixDataError(f"{data}: `releases:` lists no torch release")
    entries, problems = [], []
    for number, item in enumerate(raw.get("outputs") or (), 1):
        where = f"{data}: outputs entry {number}"
        missing = {"snippet", "example", "releases", "output"} - set(item or {})
        if missing:
            problems.append(f"{where}: needs {', '.join(sorted(missing))}")
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
        if entry.snippet.endswith(".cuda.pycon"):
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


def note(matrix, entries, lang, indent):
    """Markdown under an example's fence: what the other releases print."""
    words, lines = WORDS[lang], []
    for entry in entries:
        verb = words["prints"] if len(entry.releases) == 1 else words["print"]
        output = " ".join(entry.output.split())
        code = f"`` {output} ``" if "`" in output else f"`{output}`"
        label = matrix.label(entry.releases, lang)
        if lang == "zh":
            lines.append(f"{indent}**{label}** 对 `{entry.example}` 的输出：{code}")
        else:
            lines.append(f"{indent}**{label}** {verb} for `{entry.example}`: {code}")
    body = f"\n{indent}\n".join(lines)
    return f'\n\n{indent}<div class="release-outputs" markdown>\n\n{body}\n\n{indent}</div>'


GPU_NOTE = {
    "en": "**Examples that need a GPU: {text}.** The machines that check this site on every "
    "change have none; the GPU job runs this one.",
    "zh": "**需要 GPU 的示例：{text}。**每次改动时核对本站的机器没有 GPU；这个例子由 GPU 任务运行。",
}
CHANGED_NOTE = {
    "en": "**This example changed after the last GPU run ({date}): its output is not yet "
    "checked on a GPU.** The machines that check this site on every change have none; the GPU "
    "job runs it.",
    "zh": "**这个例子在最近一次 GPU 运行（{date}）之后改过，它的输出尚未在 GPU 上核对。**"
    "每次改动时核对本站的机器没有 GPU；这个例子由 GPU 任务运行。",
}


def gpu_note(lang, indent, record, snippet=None):
    """The note under a CUDA example: the last GPU run, or that the example changed since
    (its file's sha256 is not the one data/gpu_check.yml recorded)."""
    fingerprints = (record or {}).get(SNIPPET_FINGERPRINTS) or {}
    if snippet and fingerprints and fingerprints.get(snippet) != fingerprint(SNIPPETS / snippet):
        text = CHANGED_NOTE[lang].format(date=record["date"])  # edited, or new, since the run
    else:
        text = GPU_NOTE[lang].format(text=gpu_check_text(lang, record))
    return f'\n\n{indent}<div class="gpu-check" markdown>\n\n{indent}{text}\n\n{indent}</div>'


def annotate(markdown, matrix, lang, record=None):
    def add(match):
        if match["snippet"].endswith(".cuda.pycon"):
            return match[0] + gpu_note(lang, match["indent"], record, match["snippet"])
        entries = matrix.for_snippet(match["snippet"])
        if not entries:
            return match[0]
        return match[0] + note(matrix, entries, lang, match["indent"])

    return FENCE.sub(add, markdown)


def releases_text(matrix, lang):
    return WORDS[lang]["and"].join(matrix.releases)


def page_language(page):
    return getattr(page.file, "locale", None) or page.file.src_uri.split("/")[0]


def on_page_markdown(markdown, page, config, files):
    from mkdocs.exceptions import PluginError

    try:
        matrix = load()
    except MatrixDataError as error:
        raise PluginError(str(error)) from error
    lang = page_language(page)
    markdown = markdown.replace(PLACEHOLDER, releases_text(matrix, lang))
    return annotate(markdown, matrix, lang, load_gpu_record())
