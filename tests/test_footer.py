"""Every page says what verified it (hooks/footer.py): the CI run that tested the build, or
"local preview", and the last run of the CUDA examples on a GPU (data/gpu_check.yml, written
by tools/gpu_check.py, read by torch_verified/gpu_record.py)."""

import datetime

import pytest
import torch

from hooks.footer import footer_html
from tests.conftest import RECORD
from tools import gpu_check
from torch_verified import check_script, gpu_record
from torch_verified.project import LANGUAGES, prefix, root_of, site_path
from torch_verified.strings import STRINGS


def stamp(lang, name):
    """The words a stamp starts with, before its first {placeholder}."""
    return STRINGS[lang][name].split("{")[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_footer_says_what_verified_it(site, lang):
    """The test build sets no VERIFIED_RUN: every page of the language, in its language,
    says it is a local preview, names the torch of this environment and the GPU record."""
    root = site / root_of(lang)
    pages = [
        p for p in root.rglob("*.html") if f'<html lang="{lang}"' in p.read_text(encoding="utf-8")
    ]
    assert len(pages) > 20, f"too few {lang} pages found in {root}"
    gpu = gpu_record.text(lang, gpu_record.load())
    for page in pages:
        html = page.read_text(encoding="utf-8")
        footer = html[html.find('class="md-copyright__highlight verified-stamp"') :]
        assert stamp(lang, "local") in footer, f"{page.relative_to(site)}: no local-preview stamp"
        assert torch.__version__ in footer, f"{page.relative_to(site)}: no torch version"
        assert gpu in footer, f"{page.relative_to(site)}: no GPU record ({gpu!r})"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_ci_build_names_its_run_date_commit_and_torch_build(lang):
    run = "https://github.com/o/r/actions/runs/42"
    html = footer_html(lang, {"VERIFIED_RUN": run, "GITHUB_SHA": "f00dfeed" * 5}, None)
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    for part in (f'href="{run}"', today, "f00dfee", torch.__version__):
        assert part in html, f"{lang} footer of a CI build lacks {part!r}: {html}"
    assert stamp(lang, "local") not in html
    assert gpu_record.head()[:7] in footer_html(lang, {"VERIFIED_RUN": run}, None), "no commit"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_gpu_record_written_by_the_tool_is_what_the_pages_show(tmp_path, lang, monkeypatch):
    """On a GPU: torch.__version__ is a TorchVersion, not a str (yaml refused it on the
    first real run); the record must read back as the pages will read it."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index=0: RECORD["gpu"])
    path = tmp_path / "gpu_check.yml"
    assert gpu_check.main(["--output", str(path), "--commit", RECORD["commit"]]) == 0
    record = gpu_record.load(path)
    assert record["torch"] == str(torch.__version__) and record[gpu_record.FINGERPRINTS]
    for value in (record["date"], record["torch"], RECORD["gpu"], RECORD["commit"][:7]):
        assert value in gpu_record.text(lang, record), f"{lang}: {value} missing"


def test_the_gpu_record_tool_refuses_without_a_gpu(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    output = tmp_path / "gpu_check.yml"
    assert gpu_check.main(["--output", str(output)]) == 2
    assert "no usable CUDA GPU" in capsys.readouterr().err and not output.exists()


def test_a_half_filled_gpu_record_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "gpu_check.yml"
    path.write_text("date: 2026-12-01\ntorch: null\ngpu: null\ncommit: null\n", "utf-8")
    with pytest.raises(gpu_record.RecordError, match=rf"{path}: torch, gpu, commit empty"):
        gpu_record.load(path)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_gpu_run_on_another_release_than_the_pin_says_so(lang):
    same = gpu_record.text(lang, RECORD, pin="2.15.0")  # RECORD ran 2.15.0+cu132
    other = gpu_record.text(lang, {**RECORD, "torch": "2.11.0+cu130"}, pin="2.15.0")
    prefix = same.replace("2.15.0+cu132", "2.11.0+cu130")
    assert other.startswith(prefix) and "2.15.0" in other.removeprefix(prefix), other


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_stamp_links_to_the_readers_own_check(lang):
    """From what verified the build to how a reader checks it on their machine."""
    href = prefix() + site_path(lang, check_script.PAGE)
    for environ in ({}, {"VERIFIED_RUN": "https://github.com/o/r/actions/runs/42"}):
        html = footer_html(lang, environ, None)
        assert f'<a href="{href}">{STRINGS[lang]["check_link"]}</a>' in html, html
