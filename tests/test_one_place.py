"""One place per concept: each is defined once, in the module of torch_verified/ that
CONTRIBUTING.md's "Where things live" names (this keeps that table true), and a second
definition anywhere in the machinery fails here, naming the file and the line."""

import ast
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
# Second definitions, found in the code's structure (its AST), whatever it is named or
# spelled: rule -> (the files where the concept is defined, the finder). Each finder yields
# line numbers; tests/test_one_place.py's own cases below prove that each one reports.
LIBRARY = "torch_verified/"
CODES = set(LANGUAGES)
SUBPROCESS = {"run", "Popen", "call", "check_call", "check_output", "system"}
STRING_TESTS = {"startswith", "endswith", "removeprefix", "removesuffix", "split", "find"}
PATTERN_CALLS = STRING_TESTS | {"compile", "search", "match", "findall", "finditer", "sub"}
DOCTEST_FLAGS = {"ELLIPSIS", "NORMALIZE_WHITESPACE", "IGNORE_EXCEPTION_DETAIL", "NUMBER"}
# Second definitions in files that other helpers of this round own (R1 and R3 of the toolchain
# review): each entry goes when its owner uses the library's function instead.
NOT_YET = {
    ("tests/browser/test_search.py", "a language code in logic"),
    ("tests/test_notebooks.py", "a language code in logic"),
    ("tools/figures/strides.py", "a language code in logic"),
}


def strings(node):
    """The string constants of `node` (of an f-string: its literal parts)."""
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant)]
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def name_of(call):
    return getattr(call.func, "attr", None) or getattr(call.func, "id", None)


def operands(tree, calls=STRING_TESTS):
    """(node, strings) of what the code tests: the string operands of a comparison (`in` a
    tuple of them too) and the string arguments of startswith, endswith, split, re.compile..."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.Call) and name_of(node) in calls:
            parts = node.args
        else:
            continue
        parts += [e for p in parts if isinstance(p, (ast.Tuple, ast.List, ast.Set)) for e in p.elts]
        yield (
            node,
            [s for p in parts if isinstance(p, (ast.Constant, ast.JoinedStr)) for s in strings(p)],
        )


def climbs_from_file(tree):
    """A path derived from __file__: `Path(__file__).parent`, `os.path.dirname(__file__)`."""
    for node in ast.walk(tree):
        up = isinstance(node, ast.Attribute) and node.attr in ("parent", "parents")
        up |= isinstance(node, ast.Call) and name_of(node) in ("dirname", "abspath")
        if up and any(isinstance(n, ast.Name) and n.id == "__file__" for n in ast.walk(node)):
            yield node.lineno


def named_again(tree):
    """An assignment to a root (ROOT, REPO_ROOT, root_dir...) or to the languages, at any depth."""
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", 0)]
        for target in targets if isinstance(node, (ast.Assign, ast.AnnAssign)) else []:
            name = getattr(target, "id", "")
            if re.fullmatch(r"(\w+_)?ROOT(_DIR)?|LANG(UAGE)?S|DEFAULT_LANG(UAGE)?", name):
                yield node.lineno


def doctest_flags(tree):
    for node in ast.walk(tree):
        flag = isinstance(node, ast.Attribute) and node.attr in DOCTEST_FLAGS
        flag |= isinstance(node, ast.alias) and node.name in DOCTEST_FLAGS
        if flag or isinstance(node, ast.Call) and name_of(node) == "OutputChecker":
            yield getattr(node, "lineno", 0)


def language_codes(tree):
    """A language code compared: `lang == "zh"`, `.startswith("zh/")`, `.endswith(".zh.svg")`."""
    for node, found in operands(tree):
        if any(
            s in CODES or re.search(rf"^({'|'.join(CODES)})/|\.({'|'.join(CODES)})\b", s)
            for s in found
        ):
            yield node.lineno


def page_language(tree):
    """A page's language read from i18n's or the theme's settings, or from a path's prefix."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("locale", "current_language"):
            yield node.lineno
        theme = isinstance(node, ast.Subscript) and "theme" in ast.unparse(node.value)
        if theme and "language" in strings(node.slice):
            yield node.lineno
        if isinstance(node, ast.Call) and name_of(node) in STRING_TESTS:  # startswith(f"{lang}/")
            fstrings = [ast.unparse(a) for a in node.args if isinstance(a, ast.JoinedStr)]
            if any(re.match(r"f'\{\w*lang\w*\}/", f) for f in fstrings):
                yield node.lineno


def site_builds(tree):
    """A command that builds the site: `mkdocs build`, `make build`, MkDocs' build()."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and name_of(node) in SUBPROCESS:
            words = " ".join(s for arg in node.args for s in strings(arg)).split()
            if "build" in words and ({"mkdocs", "make"} & set(words)):
                yield node.lineno
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mkdocs.commands"):
            yield node.lineno


def include_pattern(tree):
    for node, found in operands(tree, PATTERN_CALLS):
        if any("8<" in s for s in found):
            yield node.lineno


def cuda_rule(tree):
    """The *.cuda.pycon naming rule read again, e.g. `name.split(".")[-2] == "cuda"`; comparing
    project.kind()'s answer with "cuda" is its use."""
    for node, found in operands(tree, STRING_TESTS | {"glob", "rglob"}):
        asks_kind = any(isinstance(n, ast.Call) and name_of(n) == "kind" for n in ast.walk(node))
        if not asks_kind and any(s == "cuda" or ".cuda" in s for s in found):
            yield node.lineno


RULES = {
    "a path derived from __file__": ({LIBRARY + "project.py"}, climbs_from_file),
    "a root or the languages named again": ({LIBRARY + "project.py"}, named_again),
    "doctest's flags or checker": ({LIBRARY + "examples.py"}, doctest_flags),
    "a language code in logic": ({LIBRARY}, language_codes),
    "a page's language derived": ({LIBRARY + "project.py"}, page_language),
    # tests/test_bad_input.py builds a tiny site of its own, not this one
    "a site build": ({LIBRARY + "project.py", "tests/test_bad_input.py"}, site_builds),
    "the include pattern": ({LIBRARY + "markdown.py"}, include_pattern),
    "the cuda naming rule": ({LIBRARY + "project.py"}, cuda_rule),
}
# The eight second definitions the toolchain review added to a hook (§3.2) and others of
# their kind: each must be reported by its rule.
CASES = [
    ("a path derived from __file__", "REPO_ROOT = Path(__file__).resolve().parent.parent"),
    ("a path derived from __file__", "here = os.path.dirname(os.path.abspath(__file__))"),
    ("a root or the languages named again", "def f():\n    ROOT = Path.cwd()"),
    ("a root or the languages named again", 'LANGS = ["en"] + ["zh"]'),
    ("doctest's flags or checker", "flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE"),
    ("doctest's flags or checker", "from doctest import ELLIPSIS"),
    ("a language code in logic", '"zh" if page.url.startswith("zh/") else "en"'),
    ("a language code in logic", 'if name.endswith(".zh.svg") or lang != "en": pass'),
    ("a page's language derived", 'lang = page.file.locale or config.theme["language"]'),
    ("a page's language derived", 'lang = x if doc["location"].startswith(f"{lang}/") else y'),
    ("a site build", 'subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"])'),
    ("a site build", 'subprocess.run("make build SITE_DIR=x", shell=True)'),
    ("the include pattern", 'line.lstrip().startswith("--8<--")'),
    ("the include pattern", 're.compile(r"-{2}8<-{2} (.*)")'),
    ("the cuda naming rule", 'str(path).split(".")[-2] == "cuda"'),
    ("the cuda naming rule", 'files = SNIPPETS.rglob("*.cuda.pycon")'),
]
PYTHON = {name: ast.parse(text) for name, text in TEXTS.items() if name.endswith(".py")}


@pytest.mark.parametrize("rule", RULES)
def test_a_concept_is_defined_once(rule):
    allowed, finder = RULES[rule]
    found = [
        f"{name}:{line}"
        for name, tree in PYTHON.items()
        if name != "tests/test_one_place.py"
        and not any(name.startswith(a) for a in allowed)
        and (name, rule) not in NOT_YET
        for line in sorted(set(finder(tree)))
    ]
    if found:
        pytest.fail(f"{rule}, not in {' or '.join(sorted(allowed))}: {', '.join(found)}", False)


@pytest.mark.parametrize(("rule", "source"), CASES)
def test_each_rule_reports_a_second_definition(rule, source):
    assert list(RULES[rule][1](ast.parse(source))), f"{rule}: missed {source!r}"


def test_what_is_not_yet_in_one_place_is_still_there():
    stale = [entry for entry in NOT_YET if not list(RULES[entry[1]][1](PYTHON[entry[0]]))]
    assert not stale, f"NOT_YET: these now use the library; remove them: {stale}"


@pytest.mark.parametrize(
    ("pattern", "allowed"),
    [(r"dependency-groups|torch==\d", "torch_verified/project.py"), (r"\"en\",\s*\"zh\"", None)],
)
def test_the_pin_and_the_languages_are_read_once(pattern, allowed):
    """The lines of every file of the machinery, Makefile and workflows too."""
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
