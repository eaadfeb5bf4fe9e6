"""Every page says what verified it (hooks/version.py): the CI run that tested the build, or
"local preview", and the last run of the CUDA examples on a GPU (data/gpu_check.yml)."""

import datetime
import os
import subprocess
import sys

import pytest
import torch

from hooks.version import footer_html, gpu_check_text, load_gpu_record
from tests.sitetools import LANGUAGES, ROOT
from tools.gpu_check import header_of, record_text

LOCAL = {"en": "Local preview, not verified by CI", "zh": "本地预览，未经 CI 核对"}
RECORD = {
    "date": "2026-12-01",
    "torch": "2.15.0+cu132",
    "gpu": "NVIDIA H200",
    "commit": "0123456789abcdef0123456789abcdef01234567",
}


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_footer_says_what_verified_it(site, lang):
    """The test build sets no VERIFIED_RUN: every page of the language, in its language,
    says it is a local preview, names the torch of this environment and the GPU record."""
    root = site if lang == "en" else site / lang
    pages = [p for p in root.rglob("*.html") if lang != "en" or "zh" not in p.parts]
    pages = [p for p in pages if f'<html lang="{lang}"' in p.read_text(encoding="utf-8")]
    assert len(pages) > 20, f"too few {lang} pages found in {root}"
    gpu = gpu_check_text(lang, load_gpu_record())
    for page in pages:
        html = page.read_text(encoding="utf-8")
        footer = html[html.find('class="md-copyright__highlight verified-stamp"') :]
        assert LOCAL[lang] in footer, f"{page.relative_to(site)}: no local-preview stamp"
        assert torch.__version__ in footer, f"{page.relative_to(site)}: no torch version"
        assert gpu in footer, f"{page.relative_to(site)}: no GPU record ({gpu!r})"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_ci_build_names_its_run_date_commit_and_torch_build(lang):
    run = "https://github.com/o/r/actions/runs/42"
    html = footer_html(lang, {"VERIFIED_RUN": run}, None)
    head = ["git", "rev-parse", "--short=7", "HEAD"]
    commit = subprocess.run(head, check=True, cwd=ROOT, capture_output=True, text=True).stdout
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    sha = os.environ.get("GITHUB_SHA", "")[:7] or commit.strip()
    for part in (f'href="{run}"', today, sha, torch.__version__):
        assert part in html, f"{lang} footer of a CI build lacks {part!r}: {html}"
    assert LOCAL[lang] not in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_gpu_record_written_by_the_tool_is_what_the_pages_show(tmp_path, lang):
    path = tmp_path / "gpu_check.yml"
    path.write_text(record_text(RECORD, header_of(ROOT / "data/gpu_check.yml")), "utf-8")
    text = gpu_check_text(lang, load_gpu_record(path))
    for value in ("2026-12-01", "2.15.0+cu132", "NVIDIA H200", "0123456"):
        assert value in text, f"{lang}: {value} missing from {text!r}"


def test_a_half_filled_gpu_record_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "gpu_check.yml"
    path.write_text("date: 2026-12-01\ntorch: null\ngpu: null\ncommit: null\n", "utf-8")
    with pytest.raises(SystemExit, match=rf"{path}: torch, gpu, commit empty"):
        load_gpu_record(path)


def test_the_gpu_record_tool_refuses_without_a_gpu(tmp_path):
    output = tmp_path / "gpu_check.yml"
    run = subprocess.run(
        [sys.executable, "-m", "tools.gpu_check", "--output", str(output)],
        check=False,
        cwd=ROOT,
        env={**os.environ, "CUDA_VISIBLE_DEVICES": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert "no usable CUDA GPU" in run.stderr and not output.exists()


def test_the_gpu_record_tool_writes_what_torch_reports_on_a_gpu(tmp_path, monkeypatch):
    """On a GPU: torch.__version__ is a TorchVersion, not a str (yaml refused it on the
    first real run); the record must read back as the pages will read it."""
    import torch

    from tools import gpu_check

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index=0: "NVIDIA H200")
    output = tmp_path / "gpu_check.yml"
    assert gpu_check.main(["--output", str(output), "--commit", "0123456789" * 4]) == 0
    record = load_gpu_record(output)
    assert record["torch"] == str(torch.__version__) and record["gpu"] == "NVIDIA H200"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_gpu_run_on_another_release_than_the_pin_says_so(lang):
    same = gpu_check_text(lang, RECORD, pin="2.15.0")  # RECORD ran 2.15.0+cu132
    other = gpu_check_text(lang, {**RECORD, "torch": "2.11.0+cu130"}, pin="2.15.0")
    prefix = same.replace("2.15.0+cu132", "2.11.0+cu130")
    assert other.startswith(prefix) and "2.15.0" in other.removeprefix(prefix), other
