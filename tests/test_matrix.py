"""The version matrix (tools/matrix.py, data/releases.yml): wrong data cannot pass.

The runs against the other releases are `make matrix`; these tests check its logic with
the installed torch standing in for a release, on small snippets made for the purpose.
"""

import textwrap

import pytest
import torch

from hooks.release_notes import annotate
from tests.conftest import RECORD
from tools import matrix
from torch_verified import gpu_record
from torch_verified.gpu_record import FINGERPRINTS, fingerprint
from torch_verified.matrix import MatrixDataError, load
from torch_verified.project import SNIPPETS
from torch_verified.strings import STRINGS

RELEASE = torch.__version__.split("+")[0]
MESSAGE = "RuntimeError: self must be a matrix"


@pytest.fixture
def snippets(tmp_path, monkeypatch):
    """A snippets/ folder with one example whose output is `RuntimeError: mm: …`."""
    folder = tmp_path / "snippets" / "ops"
    folder.mkdir(parents=True)
    (folder / "mm.pycon").write_text(
        textwrap.dedent(
            """\
            >>> import torch
            >>> torch.mm(torch.ones(2, 2, 2), torch.ones(2, 2))
            Traceback (most recent call last):
              ...
            RuntimeError: mm: self must be a matrix, got 3-D tensor
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    return folder


def run(expected, path="snippets/ops/mm.pycon"):
    return matrix.worker(RELEASE, expected, paths=[path], root="snippets")


def kinds(report):
    return [problem["kind"] for problem in report["problems"]]


def test_an_entry_for_an_example_that_prints_what_the_pin_prints_fails(snippets):
    example = "torch.mm(torch.ones(2, 2, 2), torch.ones(2, 2))"
    assert kinds(run({"ops/mm.pycon": {example: MESSAGE}})) == ["not needed"]


def test_an_output_that_no_entry_explains_fails_and_says_what_to_add(snippets):
    (snippets / "mm.pycon").write_text(
        (snippets / "mm.pycon")
        .read_text()
        .replace("mm: self must be a matrix, got 3-D tensor", "self must be a matrix")
    )
    report = run({})
    assert kinds(report) == ["differs"]
    advice = matrix.describe(RELEASE, report["problems"][0])
    assert "snippets/ops/mm.pycon:2" in advice and "add to data/releases.yml" in advice
    assert '"RuntimeError: mm: self must be a matrix, got 3-D tensor"' in advice


def test_a_wrong_entry_fails_and_a_right_one_passes(snippets):
    (snippets / "mm.pycon").write_text(
        (snippets / "mm.pycon").read_text().replace("mm: self must", "self must")
    )
    example = "torch.mm(torch.ones(2, 2, 2), torch.ones(2, 2))"
    assert kinds(run({"ops/mm.pycon": {example: "RuntimeError: mm: something else"}})) == ["wrong"]
    right = run(
        {"ops/mm.pycon": {example: "RuntimeError: mm: self must be a matrix, got 3-D tensor"}}
    )
    assert kinds(right) == [] and right["per_data"] == 1


def test_the_repository_data_names_real_examples_and_releases():
    data = load()
    assert data.releases and all(entry.releases for entry in data.entries)


def test_data_that_names_an_unknown_release_or_example_fails(tmp_path, snippets):
    data = tmp_path / "releases.yml"
    data.write_text(
        'releases: ["2.13.0"]\noutputs:\n'
        '  - {snippet: ops/mm.pycon, example: "torch.mm(x)", releases: ["2.12.0"], output: x}\n'
    )
    with pytest.raises(MatrixDataError) as error:
        load(data, root=snippets.parent)
    message = str(error.value)
    assert str(data) in message and "2.12.0" in message and "no example" in message


def test_pages_show_what_other_releases_print_under_the_example():
    data = load()
    entry = data.entries[0]
    page = f'Text\n\n```pycon title="x"\n--8<-- "{entry.snippet}"\n```\n\nMore\n'
    shown = annotate(page, data, "en")
    assert f"**{data.label(entry.releases)}** print" in shown
    assert entry.output in shown and shown.endswith("\n\nMore\n")
    assert f"`{entry.example}` 的输出" in annotate(page, data, "zh")


def test_a_release_that_cannot_be_installed_is_an_error_naming_it(tmp_path, monkeypatch):
    monkeypatch.setattr(matrix, "ENVS", tmp_path)
    with pytest.raises(matrix.BadInput, match=r"torch 0\.0\.1: could not install"):
        matrix.environment("0.0.1", log=lambda _: None)


PAGE = '```pycon title="x"\n--8<-- "devices/amp_step.cuda.pycon"\n```\n'


def test_gpu_examples_say_whether_a_gpu_has_checked_them():
    assert STRINGS["en"]["gpu_none"] in annotate(PAGE, load(), "en")
    assert gpu_record.text("zh", RECORD) in annotate(PAGE, load(), "zh", RECORD)


def test_a_gpu_example_edited_after_the_gpu_run_says_it_is_not_checked():
    """data/gpu_check.yml records each CUDA snippet's sha256: an example whose file changed
    since (or that is newer than the run) says so instead of borrowing the run's date."""
    snippet = "devices/amp_step.cuda.pycon"
    record = RECORD | {FINGERPRINTS: {snippet: fingerprint(SNIPPETS / snippet)}}
    assert gpu_record.text("en", record) in annotate(PAGE, load(), "en", record)
    for lang, fingerprints in (
        ("en", {snippet: "0" * 64}),
        ("zh", {"devices/other.cuda.pycon": "0" * 64}),
    ):
        changed = STRINGS[lang]["gpu_changed"].format(date=RECORD["date"])
        assert changed in annotate(PAGE, load(), lang, record | {FINGERPRINTS: fingerprints})
