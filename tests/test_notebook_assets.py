"""hooks/notebook_assets.py: unused inlined CSS dropped, data: images moved to files."""

import base64
import re
import struct
import zlib

import pytest

from hooks.notebook_assets import lighten, move_images, prune_css
from tests.sitetools import LANGUAGES, pages, site_page

NOTEBOOKS = [(lang, page) for lang in LANGUAGES for page in pages(lang) if page.endswith(".ipynb")]


def tiny_png(width, height):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x00" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def test_prune_keeps_what_can_match_and_drops_the_rest():
    css = (
        '@charset "UTF-8";'
        ".w .used{color:red}"
        ".w .gone{color:blue}"
        ".w .used,.w .gone .x{margin:0}"
        ".w :root{--a:1}"
        ".w pre{padding:0}"
        ".w .used:not(.gone){top:0}"
        ".w :is(.gone,.used){left:0}"
        '.w .used::after{content:"{.gone}"}'
        "@media (min-width:10em){.w .gone{x:1}}"
        "@media print{.w .used{x:2}}"
        "@font-face{font-family:F;src:local(F)}"
        "@keyframes spin{from{opacity:0}to{opacity:1}}"
    )
    pruned = prune_css(css, {"w", "used"})
    assert pruned == (
        '@charset "UTF-8";'
        ".w .used{color:red}"
        ".w .used{margin:0}"
        ".w pre{padding:0}"
        ".w .used:not(.gone){top:0}"
        ".w :is(.gone,.used){left:0}"
        '.w .used::after{content:"{.gone}"}'
        "@media print{.w .used{x:2}}"
        "@font-face{font-family:F;src:local(F)}"
        "@keyframes spin{from{opacity:0}to{opacity:1}}"
    )


def test_data_images_become_files_with_their_size(tmp_path):
    png = tiny_png(3, 2)
    encoded = base64.b64encode(png).decode()
    html = f'<p><img alt="plot" src="data:image/png;base64,{encoded}"/><img src="x.svg"/></p>'
    out = move_images(html, tmp_path)
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].read_bytes() == png
    assert f'<img alt="plot" src="{files[0].name}" width="3" height="2"/>' in out
    assert '<img src="x.svg"/>' in out and "data:" not in out


def test_pages_other_than_notebooks_are_left_alone(tmp_path):
    html = '<style>.gone{color:red}</style><img src="data:image/png;base64,AAAA">'
    assert lighten(html, tmp_path) == html
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("lang", "page"), NOTEBOOKS)
def test_notebook_pages_carry_no_inline_images_and_little_css(site, lang, page):
    built = site_page(site, lang, page)
    text = built.read_text(encoding="utf-8")
    assert not re.search(r'<img\b[^>]*src="data:', text), f"docs/{lang}/{page}: inline images"
    css = sum(len(m) for m in re.findall(r"<style[^>]*>(.*?)</style>", text, re.DOTALL))
    assert css < 100_000, f"docs/{lang}/{page}: {css:,} characters of inline CSS"
