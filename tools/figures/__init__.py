"""The site's figures: SVG files drawn from the tensors of the snippets, by one command.

    python -m tools.figures            # redraw every figure into docs/assets/figures/
    python -m tools.figures --check    # exit 1, naming each committed figure that differs

FIGURES maps a file name to the function that draws it. Each function takes its tensors
(and, for the graphs, the page's own `walk` and `label`) from the namespace of a snippet
that has just run as the tests run it (snippet()), so a figure cannot show other shapes or
values than its page. A figure with words has one file per language (NAME.svg, NAME.zh.svg);
one of code and numbers only serves both. tools/figures/draw.py makes every figure follow
the page's light or dark scheme and fit a phone. tests/test_figures.py redraws every figure
on every run.
"""

import argparse
import sys
import tempfile
from functools import cache, partial
from pathlib import Path

from torch_verified.examples import BadInput, run_file
from torch_verified.project import ASSETS, ROOT, SNIPPETS

DIR = ASSETS / "figures"


@cache
def snippet(name, before=None):
    """The namespace of snippets/<name> after all its examples ran (and printed what the
    file says: a figure is never drawn from a snippet that fails). With `before`, only the
    examples above the first line `>>> {before}` run: the state the page shows there."""
    if before is None:
        return _run(SNIPPETS / name, name)
    lines = (SNIPPETS / name).read_text(encoding="utf-8").splitlines(keepends=True)
    try:
        stop = [line.rstrip("\n") for line in lines].index(f">>> {before}")
    except ValueError:
        raise BadInput(f"snippets/{name}: no line `>>> {before}` to stop before") from None
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / Path(name).name
        path.write_text("".join(lines[:stop]), encoding="utf-8")
        return _run(path, name)


def _run(path, name):
    namespace = {"__name__": "__figure__"}
    _, results = run_file(path, namespace)
    failed = [result.line for result in results if not result.matches]
    if failed:
        raise BadInput(f"snippets/{name}: the examples at lines {failed} fail; fix it first")
    return namespace


def _figures():
    from tools.figures import (
        broadcasting,
        chain_rule,
        detach,
        digits,
        edges,
        graph,
        image_layouts,
        indexing,
        matmul,
        strides,
        tensors,
    )

    figures = {
        "broadcasting.svg": broadcasting.render,
        "image-layouts.svg": image_layouts.render,
        "autograd-xy-sin.svg": graph.xy_sin,
        "autograd-grow-1.svg": lambda: graph.grow(1.0),
        "autograd-grow-3.svg": lambda: graph.grow(3.0),
        "matmul-shapes.svg": matmul.render,
        "reduce-sum.svg": tensors.reduce_sum,
        "gather.svg": tensors.gather,
        "edges-kinks.svg": edges.render,
    }
    # Figures with words: NAME.svg for the English pages, NAME.zh.svg for the Chinese ones.
    for name, draw in {
        "autograd-chain-rule": chain_rule.render,
        "strides": strides.render,
        "view-or-copy": indexing.render,
        "detach-version": detach.render,
        "tensor-parts": tensors.tensor_parts,
        "numpy-shared": tensors.numpy_shared,
        "ranges": tensors.ranges,
        "digits": digits.render,
    }.items():
        figures[f"{name}.svg"] = partial(draw, "en")
        figures[f"{name}.zh.svg"] = partial(draw, "zh")
    return figures


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
