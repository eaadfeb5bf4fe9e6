"""Citations are checked like outputs (torch_verified/citations.py): every quotation of
PyTorch's docs or source is in the installed torch of the pin (or read by hand, in
data/citations.yml), every link follows the pin, and the twins cite the same sources."""

import re

import pytest

from torch_verified.citations import (
    PYTORCH_LINK,
    VERSIONED,
    hand_checked,
    normalized,
    problem,
    quotations,
    with_links,
)
from torch_verified.project import DOCS, LANGUAGES, markdown_pages

PAGES = [f"{lang}/{page}" for lang in LANGUAGES for page in markdown_pages(lang)]


@pytest.mark.parametrize("page", PAGES)
def test_every_quotation_is_in_its_source(page):
    found = [
        f"docs/{page}:{line}: “{quote[:60]}…” {problem(quote, links)}"
        for line, quote, links in quotations(DOCS / page)
        if problem(quote, links)
    ]
    assert not found, "\n".join(found)


def test_every_hand_checked_quotation_is_quoted():
    quoted = {normalized(quote) for page in PAGES for _, quote, _ in quotations(DOCS / page)}
    stale = [entry["quote"] for key, entry in hand_checked().items() if key not in quoted]
    assert not stale, f"data/citations.yml: no page quotes {stale}: remove or correct them"


@pytest.mark.parametrize("page", PAGES)
def test_links_follow_the_pin(page):
    """Docs and source links are written {{ pytorch_docs }}/… and {{ pytorch_source }}/…:
    a link written out with a version says why on its line (<!-- version: why -->)."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    written = [
        f"docs/{page}:{n}"
        for n, line in enumerate(lines, 1)
        if VERSIONED.search(line) and "<!-- version:" not in line
    ]
    assert not written, f"write {{{{ pytorch_docs }}}} or {{{{ pytorch_source }}}}: {written}"


@pytest.mark.parametrize("page", markdown_pages("en"))
def test_the_twins_cite_the_same_sources(page):
    def cited(lang):
        text = with_links((DOCS / lang / page).read_text(encoding="utf-8"))
        return {re.sub(r"#.*", "", link) for link in PYTORCH_LINK.findall(text)}

    en, zh = cited("en"), cited("zh")
    assert en == zh, f"docs/en/{page} only: {en - zh}; docs/zh/{page} only: {zh - en}"
