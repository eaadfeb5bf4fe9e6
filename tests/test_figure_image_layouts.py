"""The committed image-layouts figure is exactly what its code draws from the chapter's tensor."""

import runpy
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "figure_image_layouts.py"


def test_image_layouts_figure_is_regenerated_from_its_snippet():
    tool = runpy.run_path(str(TOOL))
    figure = tool["FIGURE"]
    drawn = tool["render"](tool["snippet_image"]())
    assert figure.read_text(encoding="utf-8") == drawn, (
        f"{figure.relative_to(TOOL.parent.parent)} differs from what {TOOL.name} draws from "
        "snippets/tensors/image_layout.pycon: run `python tools/figure_image_layouts.py` "
        "and commit the SVG."
    )
