"""The site's figures: SVG files drawn from the tensors of the snippets, by one command.

    python -m tools.figures            # redraw every figure into docs/assets/figures/
    python -m tools.figures --check    # exit 1, naming each committed figure that differs

FIGURES maps a file name to the function that draws it. Each function takes its tensors
(and, for the graphs, the page's own `walk` and `label`) from the namespace of a snippet
that has just run as the tests run it (snippet()), so a figure cannot show other shapes or
values than its page. tests/test_figures.py redraws every figure on every run.
"""

import argparse
import sys
from functools import cache

from torch_verified.examples import BadInput, run_file
from torch_verified.project import ASSETS, ROOT, SNIPPETS

DIR = ASSETS / "figures"


@cache
def snippet(name):
    """The namespace of snippets/<name> after all its examples ran (and printed what the
    file says: a figure is never drawn from a snippet that fails)."""
    namespace = {"__name__": "__figure__"}
    _, results = run_file(SNIPPETS / name, namespace)
    failed = [result.line for result in results if not result.matches]
    if failed:
        raise BadInput(f"snippets/{name}: the examples at lines {failed} fail; fix it first")
    return namespace


def _figures():
    from tools.figures import broadcasting, graph, image_layouts

    return {
        "broadcasting.svg": broadcasting.render,
        "image-layouts.svg": image_layouts.render,
        "autograd-xy-sin.svg": graph.xy_sin,
        "autograd-grow-1.svg": lambda: graph.grow(1.0),
        "autograd-grow-3.svg": lambda: graph.grow(3.0),
    }


FIGURES = _figures()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for name, draw in FIGURES.items():
        path = DIR / name
        try:
            drawn = draw()
        except BadInput as error:
            print(f"tools.figures: {error}", file=sys.stderr)
            return 2
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != drawn:
                stale.append(name)
        else:
            path.write_text(drawn, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print(
            f"tools.figures: {', '.join(stale)} in {DIR.relative_to(ROOT)} differ from what the "
            "snippets draw now: run `python -m tools.figures` and commit the SVG",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
