"""Figures drawn by code from real tensors: the committed SVG must be what the code draws."""

import importlib.util
import posixpath
import re
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]


def _load(relative):
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_broadcasting_figure_is_redrawn_from_tensors():
    figure = _load("tools/figures/broadcasting.py")
    committed = figure.OUT.read_text(encoding="utf-8")
    assert committed == figure.render(), (
        f"{figure.OUT.relative_to(ROOT)} differs from what torch draws now; "
        "run `python tools/figures/broadcasting.py` and commit the new SVG"
    )


def test_every_figure_on_a_page_points_at_a_committed_file():
    """A raw <img> is not checked by mkdocs; resolve its src as the browser will.

    A page docs/<lang>/<chapter>/<page>.md is served at <lang>/<chapter>/<page>/ (English at
    the site root), while docs/assets/ is served once, at assets/, for both languages.
    """
    site = PurePosixPath("/site")
    for page in sorted((ROOT / "docs").glob("*/**/*.md")):
        lang, *rest = page.relative_to(ROOT / "docs").with_suffix("").parts
        if lang == "assets":
            continue
        url_dir = site.joinpath(*([] if lang == "en" else [lang]), *rest)
        if rest[-1] == "index":
            url_dir = url_dir.parent
        for src in re.findall(r'<img[^>]*\ssrc="([^"]+)"', page.read_text(encoding="utf-8")):
            served = PurePosixPath(posixpath.normpath(str(url_dir / src)))
            target = ROOT / "docs" / served.relative_to(site)
            assert target.is_file(), (
                f"{page.relative_to(ROOT)}: <img src={src!r}> is served as {served}, "
                f"but docs/{served.relative_to(site)} does not exist"
            )
