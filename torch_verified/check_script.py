"""The reader's check: torch-verified-check.py, one file the site offers for download
(docs/*/reference/check.md) that runs every example against the reader's own torch.

The build writes it (hooks/check_script.py, with script()); it holds, as Python a reader can
read:
- the library's own code for running and comparing an example: FLAGS, CHECKER (Sybil's
  checker, under its licence), execute, matches and the cuda rule, copied from their source
  at build time (EMBEDDED), so the file cannot run an example otherwise than the tests do;
- the runner below (RUNNER, copied the same way): one namespace per snippet file, `cuda`
  files where a GPU is usable and `nocuda` ones elsewhere, what data/releases.yml says the
  reader's release prints, the summary line, the differences with their page, `--json`,
  `--page`, and a link that opens a new issue of the repository (only printed);
- the data: every snippet, the page (URL in each language) that shows it, the pin, the
  commit, the site's address and the repository's, the strings of both languages.

It needs Python >= 3.10 and torch: the runner and the data use the standard library only.

    python -m torch_verified.check_script OUTPUT [--language zh]   # without a site build
"""

import argparse
import ast
import contextlib
import datetime
import doctest
import hashlib
import importlib
import importlib.metadata
import inspect
import io
import json
import os
import platform
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path

from torch_verified import examples, gpu_record, matrix, project
from torch_verified.examples import TRACEBACK, execute, flags_of, for_this_machine, matches
from torch_verified.markdown import ANCHOR, HEADING, INCLUDE, markdown_of, without_fences
from torch_verified.strings import STRINGS

NAME = "torch-verified-check.py"
PAGE = "reference/check.md"  # the page that offers it
OLDEST_PYTHON = (3, 10)
URL_LIMIT = 8000  # GitHub refuses an address over 8,191 bytes (github/docs pull request 4537)
# what the file copies from the library, by name, in this order (the checker's class needs
# the three names of Sybil's module before it)
EMBEDDED = {
    "sybil.evaluators.doctest": ("NUMBER", "KEEP_TRAILING_WHITESPACE", "float_approx_equal"),
    "torch_verified.examples": (
        "FLAGS",
        "TRACEBACK",
        "execute",
        "flags_of",
        "matches",
        "for_this_machine",
    ),
    "torch_verified.project": ("kind",),
}
RUNNER = (
    "MISSING",
    "environment",
    "run_snippet",
    "page_key",
    "find_page",
    "summary",
    "difference_text",
    "issue_link",
    "main",
)
IMPORTS = """\
import argparse
import contextlib
import datetime
import doctest
import io
import json
import platform
import re
import sys
import traceback
import urllib.parse
from copy import copy
from typing import Optional
"""


# -- the runner: copied into the file as written here (standard library, Python 3.10) -------

# an example that fails for want of a module: numpy itself, or torch's own word for it
MISSING = re.compile(r"ModuleNotFoundError: No module named '(\w+)|RuntimeError: (Numpy) is not")


def environment():
    """What a report says about this machine: torch and its build, Python, platform, GPU."""
    import torch

    system = {"Darwin": "macOS"}.get(platform.system(), platform.system())
    return {
        "torch": str(torch.__version__),
        "release": str(torch.__version__).split("+")[0],
        "cuda": torch.version.cuda,
        "git_version": getattr(torch.version, "git_version", None),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "machine": f"{system} {platform.machine()}",
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),  # noqa: UP017 (3.10)
    }


def run_snippet(name, text, documented):
    """Each example of one snippet file, in one fresh namespace, as the tests run it: a
    result per example. `documented`: {an example's first line: what data/releases.yml
    says the reader's release prints}. An example that fails because a module other than
    torch is missing (numpy) is not run, nor are the examples after it in the file (they
    use what it would have made)."""
    namespace, results, needs = {"__name__": "__test__"}, [], None
    for example in doctest.DocTestParser().get_examples(text, name):
        if flags_of(example) & doctest.SKIP:
            continue
        first = example.source.strip().splitlines()[0]
        result = {"snippet": name, "line": example.lineno + 1, "example": first}
        if needs:
            results.append({**result, "status": "not run", "needs": needs})
            continue
        with contextlib.redirect_stderr(io.StringIO()):  # warnings: not part of an output
            got, exc_msg = execute(example, namespace, name)
        printed = got if exc_msg is None else TRACEBACK + exc_msg
        missing = MISSING.match(exc_msg or "")
        if matches(example, got, exc_msg):
            status = "same"
        elif first in documented and matches(example, got, exc_msg, documented[first]):
            status = "documented"
        elif missing and (missing[1] or missing[2]).lower() != "torch":
            needs, status = (missing[1] or missing[2]).lower(), "not run"
        else:
            status = "different"
        results.append({**result, "status": status, "expected": example.want, "got": printed})
        if status == "not run":
            results[-1]["needs"] = needs
    return results


def page_key(path, data):
    """A page as --page may name it (`autograd/backward.md`, `autograd/backward/`, its URL
    in either language, `docs/zh/...`) -> `autograd/backward` ("" for the home page)."""
    path = path.split("#")[0].split("?")[0]
    path = path.removeprefix(data["site"]).removeprefix("docs/").strip("/")
    for language in data["languages"]:
        if path == language or path.startswith(language + "/"):
            path = path[len(language) :].strip("/")
    path = re.sub(r"(\.md|\.ipynb|\.html)$", "", path)
    return re.sub(r"(^|/)index$", "", path).strip("/")


def find_page(given, data):
    """The snippets of the page `given` names, in the order the page shows them."""
    wanted = page_key(given, data)
    return [
        name for name, shown in data["pages"].items() if page_key(shown["page"], data) == wanted
    ]


def summary(counts, env, words, documented, needs):
    """The one line a run ends with (`documented`: the release data/releases.yml knows)."""
    machine = words["check_machine"].format(
        machine=env["machine"], gpu=env["gpu"] or words["check_no_gpu"]
    )
    n = {key: f"{value:,}" for key, value in counts.items()}
    line = words["check_summary"].format(
        examples=n["examples"], torch=env["torch"], machine=machine, same=n["same"]
    )
    if documented:
        line += words["check_documented"].format(count=n["documented"], release=documented)
    line += words["check_different"].format(count=n["different"])
    if needs:
        line += words["check_not_run"].format(count=n["not run"], needs=", ".join(needs))
    return line


def newest_release_counts():
    """(release, counts) a run of the file ends with on the newest release of the matrix,
    without a GPU: every example that is not skipped or CUDA-only, the documented outputs
    of that release as such, none different (`make matrix` compares its real run)."""
    found, texts = data()
    release = max(found["releases"], key=lambda r: [int(n) for n in r.split(".")])
    count = sum(
        not flags_of(example) & doctest.SKIP
        for name, text in texts.items()
        if project.kind(name) != "cuda"
        for example in doctest.DocTestParser().get_examples(text)
    )
    documented = sum(len(outputs) for outputs in found["releases"][release].values())
    counts = {"examples": count, "same": count - documented, "documented": documented}
    return release, counts | {"different": 0, "not run": 0}


def newest_release_line(language):
    """The line the check page shows (`{{ check_line }}`): a run on the newest release of
    the matrix, on Linux without a GPU, as the file prints it."""
    release, counts = newest_release_counts()
    env = {"torch": f"{release}+cu130", "machine": "Linux x86_64", "gpu": None}
    return summary(counts, env, STRINGS[language], release, [])


def difference_text(result, data, language, words):
    """A difference, as the terminal shows it: the page, the file and line, both outputs."""
    shown = data["pages"].get(result["snippet"], {})
    lines = [
        words["check_at"].format(url=shown.get("urls", {}).get(language, "?")),
        "  " + words["check_where"].format(snippet=result["snippet"], line=result["line"]),
        "  >>> " + result["example"],
        "  " + words["check_expected"],
        *("      " + line for line in result["expected"].splitlines()),
        "  " + words["check_received"],
        *("      " + line for line in result["got"].splitlines()),
    ]
    return "\n".join(lines)


def issue_link(report, differences, data, language, words):
    """The address of a new issue of the repository, filled in with the summary and as many
    differences as fit in an address GitHub opens (url_limit); None without a repository."""
    if not data["repository"]:
        return None
    env = report["environment"]
    head = "\n".join(
        [
            report["summary"],
            "",
            f"- torch {env['torch']} (CUDA {env['cuda']}), Python {env['python']}",
            f"- {env['platform']}, GPU: {env['gpu'] or words['check_no_gpu']}",
            f"- {data['name']}: commit {data['commit'][:7]}, built {data['built']}",
        ]
    )
    texts = [difference_text(r, data, language, words) for r in differences]
    for count in range(len(differences), -1, -1):
        body = head
        if count:
            body += "\n\n```text\n" + "\n\n".join(texts[:count]) + "\n```"
        if count < len(differences):
            body += "\n\n" + words["check_more"].format(count=len(differences) - count)
        if count and len(body) > data["url_limit"]:  # encoding only makes it longer
            continue
        query = urllib.parse.urlencode({"title": report["summary"], "body": body})
        url = f"{data['repository'].rstrip('/')}/issues/new?{query}"
        if len(url) <= data["url_limit"] or not count:
            return url
    return None


def main(argv, data, snippets):
    """The command: run, print, report. Exit status 0: no difference; 1: a difference;
    2: it could not run."""
    for stream in (sys.stdout, sys.stderr):  # a console that cannot show a character
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = argparse.ArgumentParser(prog=data["name"], description=data["description"])
    parser.add_argument("--lang", choices=data["languages"], default=data["language"])
    parser.add_argument("--page", help="check one page: its path or its address")
    parser.add_argument("--json", metavar="FILE", help="write the whole report to FILE")
    parser.add_argument(
        "--requirements", action="store_true", help="print what the pages were checked with"
    )
    args = parser.parse_args(argv)
    words = data["strings"][args.lang]
    if args.requirements:
        print("\n".join(data["requirements"]))
        return 0
    try:
        import torch  # noqa: F401
    except ImportError as error:
        print(words["check_no_torch"].format(error=error), file=sys.stderr)
        return 2
    names = sorted(snippets)
    if args.page:
        names = find_page(args.page, data)
        if not names:
            known = ", ".join(sorted({shown["page"] for shown in data["pages"].values()}))
            print(words["check_no_page"].format(page=args.page, known=known), file=sys.stderr)
            return 2
    env = environment()
    documented = data["releases"].get(env["release"])
    names = [name for name in names if for_this_machine(name)]
    results, tty = [], sys.stderr.isatty()
    for number, name in enumerate(names, 1):
        results += run_snippet(name, snippets[name], (documented or {}).get(name, {}))
        chapter = name.split("/")[0]
        if tty:
            print(f"\r[{number}/{len(names)}] {name}"[:79].ljust(79), end="", file=sys.stderr)
        elif number == len(names) or names[number].split("/")[0] != chapter:
            print(f"[{number}/{len(names)}] {chapter}", file=sys.stderr)
    if tty:
        print("\r" + " " * 79 + "\r", end="", file=sys.stderr)
    counts = {status: 0 for status in ("same", "documented", "different", "not run")}
    for result in results:
        counts[result["status"]] += 1
    counts["examples"] = len(results)
    differences = [r for r in results if r["status"] == "different"]
    needs = sorted({r["needs"] for r in results if r["status"] == "not run"})
    line = summary(counts, env, words, documented is not None and env["release"], needs)
    for result in differences:
        print(difference_text(result, data, args.lang, words) + "\n")
    report = {
        "script": {key: data[key] for key in ("name", "commit", "built", "pin", "site")},
        "environment": env,
        "page": args.page,
        "summary": line,
        "counts": counts,
        "snippets": {name: data["sha256"][name] for name in names},
        "results": [
            r
            if r["status"] != "same"
            else {k: r[k] for k in ("snippet", "line", "example", "status")}
            for r in results
        ],
    }
    print(line)
    link = issue_link(report, differences, data, args.lang, words)
    print(words["check_report"].format(url=link) if link else words["check_no_repository"])
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(report, file, ensure_ascii=False, indent=1)
        print(words["check_json"].format(path=args.json))
    return 1 if differences else 0


# -- building the file -----------------------------------------------------------------------


def definitions(module, names):
    """The source of a module's top-level definitions, by name, as written there (with the
    comment lines right above each)."""
    source = inspect.getsource(module)
    lines, found = source.splitlines(), {}
    for node in ast.parse(source).body:
        named = [getattr(node, "name", None)] + [
            t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)
        ]
        for name in set(names) & set(named):
            start = node.lineno - 1
            while start and lines[start - 1].lstrip().startswith("#"):
                start -= 1
            found[name] = "\n".join(lines[start : node.end_lineno])
    missing = [name for name in names if name not in found]
    if missing:
        raise ValueError(f"{module.__name__}: no top-level {', '.join(missing)}")
    return [found[name] for name in names]


def embedded_code():
    """The library's code the file runs: Sybil's checker (its licence with it), the
    library's flags, executor and cuda rule, then the runner."""
    modules = {name: importlib.import_module(name) for name in EMBEDDED}
    checker = type(examples.CHECKER)
    licence = importlib.metadata.distribution("sybil").read_text("licenses/LICENSE.txt") or ""
    parts = [
        f"# From Sybil {importlib.metadata.version('sybil')} ({checker.__module__}), the "
        "checker the tests use; its licence:\n"
        + "\n".join(f"# {line}".rstrip() for line in licence.strip().splitlines()),
        *definitions(modules["sybil.evaluators.doctest"], EMBEDDED["sybil.evaluators.doctest"]),
        inspect.getsource(checker).rstrip(),
        "# From torch_verified/examples.py and torch_verified/project.py",
        *definitions(modules["torch_verified.examples"], EMBEDDED["torch_verified.examples"]),
        *definitions(examples, ("CHECKER",)),
        *definitions(modules["torch_verified.project"], EMBEDDED["torch_verified.project"]),
        "# The runner (torch_verified/check_script.py)",
        *definitions(sys.modules[__name__], RUNNER),
    ]
    return "\n\n\n".join(parts) + "\n"


def pages_of_snippets(site):
    """{snippet: {page, urls: {language: URL of the page, at the section that shows it}}}."""
    found = {}
    for page in project.pages(project.DEFAULT_LANGUAGE):
        text = markdown_of(project.DOCS / project.DEFAULT_LANGUAGE / page)
        lines = without_fences(text).splitlines()
        for match in INCLUDE.finditer(text):
            line = text.count("\n", 0, match.start())
            anchor = next(
                (
                    heading[1]
                    for previous in reversed(lines[:line])
                    if (heading := ANCHOR.search(previous)) and HEADING.match(previous)
                ),
                None,
            )
            urls = {
                lang: project.url(site, lang, page) + (f"#{anchor}" if anchor else "")
                for lang in project.LANGUAGES
            }
            found.setdefault(match["name"].split(":")[0], {"page": page, "urls": urls})
    return found


def built_commit():
    """The commit checked out, or "unknown" (a copy of the tree without .git builds too)."""
    try:
        return gpu_record.head()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


IMPORT = re.compile(r"^(?:>>>|\.\.\.)\s+(?:import|from)\s+(\w+)", re.MULTILINE)
DISTRIBUTIONS = {"sklearn": "scikit-learn"}  # an import whose package has another name


def third_party_imports(texts):
    """The packages (as pip names them) the snippets import besides torch and the stdlib."""
    found = {name for text in texts for name in IMPORT.findall(text)}
    return sorted(DISTRIBUTIONS.get(m, m) for m in found - set(sys.stdlib_module_names) - {"torch"})


def data(language=None, site=None, repository=None, commit=None, files=None):
    """What the file knows, as JSON-able data (`files`: snippets below snippets/, default
    every one)."""
    files = files or project.snippet_files()
    texts = {name: (project.SNIPPETS / name).read_text(encoding="utf-8") for name in files}
    pins = project.pins()
    site = site or project.site_url()
    matrix_data = matrix.load()
    releases = {}
    for entry in matrix_data.entries:
        if entry.snippet in texts:
            for release in entry.releases:
                releases.setdefault(release, {}).setdefault(entry.snippet, {})[entry.example] = (
                    entry.output
                )
    for release in matrix_data.releases:
        releases.setdefault(release, {})
    keys = [key for key in STRINGS["en"] if key.startswith("check_")]
    return {
        "name": NAME,
        "description": STRINGS["en"]["check_description"],
        "language": language or project.DEFAULT_LANGUAGE,
        "languages": list(project.LANGUAGES),
        "strings": {lang: {k: STRINGS[lang][k] for k in keys} for lang in project.LANGUAGES},
        "pin": project.pinned_torch(),
        "requirements": [  # PIL comes with matplotlib
            f"{name}=={pins[name]}"
            for name in ["torch", *third_party_imports(texts.values())]
            if name in pins
        ],
        "site": site,
        "repository": repository,
        "commit": commit or os.environ.get("GITHUB_SHA") or built_commit(),
        "built": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "url_limit": URL_LIMIT,
        "releases": releases,
        "pages": {k: v for k, v in pages_of_snippets(site).items() if k in texts},
        "sha256": {
            name: hashlib.sha256((project.SNIPPETS / name).read_bytes()).hexdigest()
            for name in texts
        },
    }, texts


def literal(text):
    """A snippet as a string literal a reader can read: raw and triple-quoted where it can be."""
    if '"""' in text or "\r" in text or text.endswith(("\\", '"')):
        return repr(text)
    return f'r"""{text}"""'


def script(**options):
    """The text of torch-verified-check.py (options: those of data())."""
    known, texts = data(**options)
    words = STRINGS[known["language"]]
    body = ",\n".join(f"    {json.dumps(name)}: {literal(text)}" for name, text in texts.items())
    return (
        "#!/usr/bin/env python3\n"
        f'"""{words["check_docstring"].format(site=known["site"], page=project.url(known["site"], known["language"], PAGE))}\n\n'
        f"Built from commit {known['commit']} on {known['built']}; needs Python >= "
        f"{'.'.join(map(str, OLDEST_PYTHON))} and torch.\n"
        '"""\n\n'
        + IMPORTS
        + "\n\n"
        + embedded_code()
        + "\n\n# What this file knows: the pages, the pin, the site, the strings\n"
        + f'DATA = json.loads(r"""\n{json.dumps(known, ensure_ascii=False, indent=1)}\n""")\n'
        + "\n# Every example, one snippet file each, as the site's pages include them\n"
        + "SNIPPETS = {\n"
        + body
        + ",\n}\n\n\n"
        + 'if __name__ == "__main__":\n'
        + "    sys.exit(main(sys.argv[1:], DATA, SNIPPETS))\n"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--language", choices=project.LANGUAGES)
    args = parser.parse_args()
    args.output.write_text(script(language=args.language), encoding="utf-8")
    print(f"{args.output}: {args.output.stat().st_size:,} bytes")
