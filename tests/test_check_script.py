"""The reader's check, torch-verified-check.py (torch_verified/check_script.py, written by
hooks/check_script.py into the built site): it runs the examples with the library's own
code, reports a difference with its page and line, and its report can become the GPU
record. Every example of the file against the pin and the matrix releases: `make matrix`
(tools/matrix.py); here one page in one subprocess, the rest in this process."""

import ast
import doctest
import importlib.util
import inspect
import json
import subprocess
import sys
import urllib.parse

import pytest
import torch

from tests.conftest import RECORD
from tools import gpu_check
from torch_verified import check_script, examples, gpu_record, project
from torch_verified.strings import STRINGS

PAGE = "operations/matmul.md"  # examples data/releases.yml documents, and an error
SNIPPET = "operations/matmul_shape_error.pycon"
EXAMPLE = "x @ torch.ones(100, 10)"
RELEASE = torch.__version__.split("+")[0]


def load(path):
    """The file as a module: its code and data, without running main()."""
    spec = importlib.util.spec_from_file_location("torch_verified_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built(site):
    """The file of the built site (the default language's)."""
    return site / check_script.NAME


def changed(text, snippet, example, new_output):
    """The file's text with the expected output of one example changed."""
    start = text.index(f'    "{snippet}": ')
    end = text.index('""",\n', start)
    session = text[start:end]
    found = next(
        e for e in doctest.DocTestParser().get_examples(session) if e.source.startswith(example)
    )
    old = ">>> " + found.source + found.want
    assert session.count(old) == 1, old
    return text[:start] + session.replace(old, ">>> " + found.source + new_output) + text[end:]


def test_the_built_file_holds_every_snippet_and_runs_a_page_as_it_shows(built, tmp_path):
    """One subprocess, as a reader runs it: 0 different on the pin, the page's examples only
    (its cuda or nocuda files as this machine decides), and the report of --json."""
    path = built
    assert path.stat().st_size < 2_000_000, "README: the file's budget is 2 MB"
    module = load(path)
    assert module.SNIPPETS == {
        name: (project.SNIPPETS / name).read_text(encoding="utf-8")
        for name in project.snippet_files()
    }
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, str(path), "--page", PAGE, "--json", str(report)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    words = STRINGS[project.DEFAULT_LANGUAGE]
    assert data["counts"]["different"] == 0 and data["counts"]["examples"] > 20, data["counts"]
    assert data["summary"] in done.stdout and data["summary"].endswith(
        words["check_different"].format(count=0)
    )
    assert data["environment"]["torch"] == torch.__version__ and data["page"] == PAGE
    page = [n for n, shown in module.DATA["pages"].items() if shown["page"] == PAGE]
    assert set(data["snippets"]) == {n for n in page if examples.for_this_machine(n)}
    assert {r["snippet"] for r in data["results"]} == set(data["snippets"])


def test_a_changed_output_is_reported_with_its_page_and_line(built, tmp_path, capsys):
    """In Chinese with --lang zh: the page's address at the example's section, the snippet
    file and line, both outputs; exit status 1. The issue link holds them too."""
    text = built.read_text(encoding="utf-8")
    mutated = tmp_path / check_script.NAME
    mutated.write_text(changed(text, SNIPPET, EXAMPLE, "RuntimeError: not this\n"), "utf-8")
    module = load(mutated)
    assert module.main(["--page", PAGE, "--lang", "zh"], module.DATA, module.SNIPPETS) == 1
    out = capsys.readouterr().out
    words = STRINGS["zh"]
    url = module.DATA["pages"][SNIPPET]["urls"]["zh"]
    line = 1 + next(
        e.lineno
        for e in doctest.DocTestParser().get_examples(module.SNIPPETS[SNIPPET])
        if e.source.startswith(EXAMPLE)
    )
    assert url.startswith(project.url(project.site_url(), "zh", PAGE) + "#"), url
    for part in (
        words["check_at"].format(url=url),
        words["check_where"].format(snippet=SNIPPET, line=line),
        "RuntimeError: not this",
        "RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (32x128 and 100x10)",
        words["check_different"].format(count=1),
        words["check_no_repository"],
    ):
        assert part in out, f"{part!r} not in:\n{out}"

    module.DATA["repository"] = "https://github.com/o/torch-verified"
    assert module.main(["--page", PAGE], module.DATA, module.SNIPPETS) == 1
    link = capsys.readouterr().out.split("https://github.com/o/torch-verified/issues/new?")[1]
    query = urllib.parse.parse_qs(link.split()[0])
    assert "RuntimeError: not this" in query["body"][0]
    assert query["title"][0].endswith(STRINGS["en"]["check_different"].format(count=1))


def test_an_output_data_releases_yml_documents_is_counted_apart(built, tmp_path, capsys):
    """A release whose output the pages give under the example: not a difference."""
    text = built.read_text(encoding="utf-8")
    mutated = tmp_path / check_script.NAME
    mutated.write_text(changed(text, SNIPPET, EXAMPLE, "RuntimeError: as an older one\n"), "utf-8")
    module = load(mutated)
    printed = "RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (32x128 and 100x10)"
    module.DATA["releases"][RELEASE] = {SNIPPET: {EXAMPLE: printed}}
    assert module.main(["--page", PAGE], module.DATA, module.SNIPPETS) == 0
    out = capsys.readouterr().out
    words = STRINGS["en"]
    assert words["check_documented"].format(count=1, release=RELEASE) in out, out
    assert words["check_different"].format(count=0) in out


def test_the_embedded_checker_and_executor_are_the_librarys():
    """The file's code for running and comparing an example is the library's source, and
    compares as the library does (Sybil's checker, FLAGS without NUMBER)."""
    text = check_script.script()
    for obj in (
        type(examples.CHECKER),
        examples.execute,
        examples.matches,
        examples.flags_of,
        examples.for_this_machine,
        project.kind,
    ):
        assert inspect.getsource(obj).rstrip() in text, obj.__name__
    namespace = {"__name__": "embedded"}
    exec(compile(text, check_script.NAME, "exec"), namespace)  # noqa: S102 (the file's code)
    assert namespace["FLAGS"] == examples.FLAGS
    cases = [
        ("tensor([2., 2., 2.])\n", "tensor([2., 2., 3.])\n"),
        ("tensor([2.])\n", "tensor([2.0])\n"),
        ("a  b\n", "a b   \n"),
        ("<MulBackward0 object at 0x...>\n", "<MulBackward0 object at 0x7f00>\n"),
        ("x ...\n", "x yz  \n"),
    ]
    for want, got in cases:
        mine = namespace["CHECKER"].check_output(want, got, namespace["FLAGS"])
        assert mine == examples.CHECKER.check_output(want, got, examples.FLAGS), (want, got)


def test_the_file_is_python_3_10_and_names_nothing_undefined(tmp_path):
    """The oldest Python it promises (python 3.10 runs it: README), and every name it uses
    is defined in it (ruff's pyflakes rules, and its syntax checks for that version)."""
    text = check_script.script()
    ast.parse(text, feature_version=check_script.OLDEST_PYTHON)
    path = tmp_path / check_script.NAME
    path.write_text(text, encoding="utf-8")
    version = "py" + "".join(map(str, check_script.OLDEST_PYTHON))
    ruff = [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated"]
    done = subprocess.run(
        [*ruff, "--select", "F", "--target-version", version, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    "given",
    [
        "autograd/backward.md",
        "autograd/backward",
        "autograd/backward/",
        "docs/zh/autograd/backward.md",
        "zh/autograd/backward/#non-scalar",
        "https://example.github.io/torch-verified/zh/autograd/backward/",
    ],
)
def test_page_names_a_page_by_its_path_or_address(given):
    data = {"site": "https://example.github.io/torch-verified/", "languages": project.LANGUAGES}
    assert check_script.page_key(given, data) == "autograd/backward"


def test_an_issue_link_with_many_differences_fits_in_an_address():
    data, _ = check_script.data(files=[SNIPPET], repository="https://github.com/o/r")
    env = {"torch": "2.15.0", "cuda": None, "python": "3.10", "platform": "x", "gpu": None}
    report = {"summary": "1 example", "environment": env}
    difference = {
        "snippet": SNIPPET,
        "line": 3,
        "example": EXAMPLE,
        "expected": "x\n" * 20,
        "got": "y\n" * 20,
    }
    words = STRINGS["en"]
    url = check_script.issue_link(report, [difference] * 200, data, "en", words)
    assert len(url) <= data["url_limit"] and url.startswith("https://github.com/o/r/issues/new?")
    body = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["body"][0]
    shown = body.count(words["check_expected"])
    assert 0 < shown < 200 and words["check_more"].format(count=200 - shown) in body
    assert check_script.issue_link(report, [], {**data, "repository": None}, "en", words) is None


def gpu_report(pin=None):
    """A report as torch-verified-check.py --json writes it on a GPU machine where every
    example printed what its page shows."""
    data, texts = check_script.data()
    results = [
        {"snippet": name, "line": e.lineno + 1, "example": e.source, "status": "same"}
        for name, text in texts.items()
        if project.kind(name) != "nocuda"
        for e in doctest.DocTestParser().get_examples(text)
    ]
    return {
        "script": {k: data[k] for k in ("name", "commit", "built", "pin", "site")},
        "environment": {
            "torch": f"{pin or data['pin']}+cu132",
            "release": pin or data["pin"],
            "gpu": RECORD["gpu"],
            "date": RECORD["date"],
        },
        "page": None,
        "snippets": {r["snippet"]: data["sha256"][r["snippet"]] for r in results},
        "results": results,
    }


def test_a_readers_gpu_report_on_the_pin_becomes_the_gpu_record(tmp_path, capsys):
    report, output = tmp_path / "report.json", tmp_path / "gpu_check.yml"
    report.write_text(json.dumps(gpu_report()), encoding="utf-8")
    assert gpu_check.main(["--report", str(report), "--output", str(output)]) == 0
    record = gpu_record.load(output)
    assert {k: record[k] for k in ("gpu", "date")} == {k: RECORD[k] for k in ("gpu", "date")}
    assert record[gpu_record.FINGERPRINTS] == gpu_record.fingerprints()
    assert not any(gpu_record.changed_since(record, n) for n in record[gpu_record.FINGERPRINTS])


def test_a_report_that_is_no_gpu_run_of_the_pin_is_refused(tmp_path, capsys):
    cases = {
        "not the pinned": gpu_report(pin="2.14.1"),
        "without a usable CUDA GPU": {
            **gpu_report(),
            "environment": {**gpu_report()["environment"], "gpu": None},
        },
        "not every one": {**gpu_report(), "page": PAGE},
    }
    different = gpu_report()
    cuda = next(r for r in different["results"] if project.kind(r["snippet"]) == "cuda")
    cuda["status"] = "different"
    cases[f"{cuda['snippet']}:{cuda['line']} different"] = different
    for reason, report in cases.items():
        path, output = tmp_path / "report.json", tmp_path / "gpu_check.yml"
        path.write_text(json.dumps(report), encoding="utf-8")
        assert gpu_check.main(["--report", str(path), "--output", str(output)]) == 2
        assert reason in capsys.readouterr().err and not output.exists()


def test_an_example_that_needs_a_missing_module_is_not_run():
    """Without NumPy (here: a module that exists nowhere), the file's examples are counted
    as not run, the rest of the file too; never as different."""
    session = ">>> import torch\n>>> import not_installed_anywhere\n>>> 1 + 1\n2\n"
    results = check_script.run_snippet("x/needs.pycon", session, {})
    assert [r["status"] for r in results] == ["same", "not run", "not run"]
    assert {r["needs"] for r in results[1:]} == {"not_installed_anywhere"}


@pytest.mark.parametrize("lang", project.LANGUAGES)
def test_the_page_shows_the_line_a_run_on_the_newest_matrix_release_ends_with(lang, site):
    """The page's line is generated (`{{ check_line }}`): a new example never needs a hand
    edit; `make matrix` checks that a real run on that release ends with it."""
    page = project.built_file(site, lang, check_script.PAGE).read_text(encoding="utf-8")
    assert check_script.newest_release_line(lang) in page, f"docs/{lang}/{check_script.PAGE}"


@pytest.mark.parametrize("lang", project.LANGUAGES)
def test_the_home_page_links_to_the_check(lang):
    home = (project.DOCS / lang / "index.md").read_text(encoding="utf-8")
    assert f"]({check_script.PAGE})" in home


def test_requirements_name_a_package_as_pip_does():
    """The first project imports sklearn; --requirements must say scikit-learn==..."""
    assert check_script.third_party_imports([">>> from sklearn.datasets import load_digits"]) == [
        "scikit-learn"
    ]
