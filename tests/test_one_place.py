"""One place per concept: each is defined once, in the module of torch_verified/ that
CONTRIBUTING.md's "Where things live" names (this keeps that table true), and a second
definition anywhere in the machinery fails here, naming the file and the line."""

import importlib
import re
import subprocess

import pytest

from torch_verified.project import LANGUAGES, ROOT
from torch_verified.strings import STRINGS

MACHINERY = "conftest.py Makefile .ci .github bench hooks overrides tests tools torch_verified"
GIT = ["git", "ls-files", "--cached", "--others", "--exclude-standard", *MACHINERY.split()]
FILES = subprocess.run(GIT, cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
TEXTS = {
    f: (ROOT / f).read_text("utf-8")
    for f in FILES
    if (ROOT / f).is_file() and not f.endswith(".json")
}
# a definition -> the one file it may be in (None: nowhere; the library derives it)
ONCE = {
    r"^ROOT\s*=": "torch_verified/project.py",
    r"^\s*(LANGUAGES|DEFAULT_LANGUAGE)\s*=|[(\[]\s*\"en\",\s*\"zh\"\s*[)\]]": None,
    r"\.locale\b|theme\[\"language\"\]|current_language": "torch_verified/project.py",
    r"dependency-groups|torch==\d": "torch_verified/project.py",
    r"^FLAGS\s*=|OutputChecker\(": "torch_verified/examples.py",
    r"re\.compile\(.*8<": "torch_verified/markdown.py",
    r"endswith\([^)]*cuda|glob\([^)]*cuda|{k}\.pycon": "torch_verified/project.py",
}


@pytest.mark.parametrize(("pattern", "allowed"), ONCE.items(), ids=list(ONCE))
def test_a_concept_is_defined_once(pattern, allowed):
    found = [
        f"{name}:{n}"
        for name, text in TEXTS.items()
        if name not in (allowed, "tests/test_one_place.py")
        and (name.endswith(".py") or not allowed)
        for n, line in enumerate(text.splitlines(), 1)
        if re.search(pattern, line)
    ]
    if found:
        pytest.fail(f"defined again, not in {allowed or 'the library'}: {', '.join(found)}", False)


def literal_parts(value):
    """The parts of a string of strings.py that are typed text, not {placeholders}."""
    values = value if isinstance(value, tuple) else (value,)
    return [
        part.strip() for v in values for part in re.split(r"\{\w*\}", v) if len(part.strip()) >= 12
    ]


def test_a_string_of_the_site_is_typed_once():
    """Every string the site shows a reader is in torch_verified/strings.py, and hooks,
    templates and tests take it from there."""
    assert set(STRINGS) == set(LANGUAGES), f"strings.py: {set(STRINGS)}, the site's {LANGUAGES}"
    assert all(set(STRINGS[lang]) == set(STRINGS["en"]) for lang in STRINGS), "keys differ"
    found = [
        f"{name}: {part!r} ({key}, {lang})"
        for lang, strings in STRINGS.items()
        for key, value in strings.items()
        for part in literal_parts(value)
        for name, text in TEXTS.items()
        if name != "torch_verified/strings.py" and part in text
    ]
    if found:
        pytest.fail(
            "typed again, not taken from torch_verified/strings.py:\n" + "\n".join(found),
            pytrace=False,
        )


def table(guide):
    """[(concept, module, [names])] of a guide's table under "Where things live"."""
    text = (ROOT / guide).read_text(encoding="utf-8")
    section = re.search(
        r"^## .*\{ #where-things-live \}\n(.*?)(?=^## )", text, re.DOTALL | re.MULTILINE
    )
    assert section, f"{guide}: no section `## … {{ #where-things-live }}`"
    rows = re.findall(
        r"^\| (.+?) \| `(torch_verified/\w+\.py)`:? ?(.*?) \|$", section[1], re.MULTILINE
    )
    return [(concept, module, re.findall(r"`(\w+)`", names)) for concept, module, names in rows]


@pytest.mark.parametrize("guide", ["CONTRIBUTING.md", "CONTRIBUTING.zh.md"])
def test_where_things_live_is_true(guide):
    rows, problems = table(guide), []
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "torch_verified").glob("[!_]*.py")}
    problems += [f"{m} is in no row" for m in sorted(modules - {m for _, m, _ in rows})]
    for concept, module, names in rows:
        if module not in modules:
            problems.append(f"{concept}: no {module}")
            continue
        found = importlib.import_module(module.removesuffix(".py").replace("/", "."))
        problems += [f"{concept}: {module} has no {n}" for n in names if not hasattr(found, n)]
    assert [m for _, m, _ in rows] == [m for _, m, _ in table("CONTRIBUTING.md")], (
        f"{guide}: rows differ from CONTRIBUTING.md's"
    )
    if problems:
        pytest.fail(f"{guide}, Where things live:\n" + "\n".join(problems), pytrace=False)
