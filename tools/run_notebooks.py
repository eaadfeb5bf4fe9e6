"""Run the notebooks of docs/ and check, or rewrite, the outputs stored in them.

    python -m tools.run_notebooks           # check: name every output that changed, exit 1
    python -m tools.run_notebooks --write   # store the outputs of a fresh run

A notebook exists once per language at the same path (docs/en/lab/x.ipynb,
docs/zh/lab/x.ipynb). The copies run the same program, but their comments, printed labels
and plot labels are in their own language, so each copy is executed and its outputs are
compared with, or written into, that copy. Text outputs must match exactly; an image only
has to be there where one is stored (PNG bytes differ between matplotlib builds). A plot
that drew a character as a box (matplotlib: "Glyph ... missing from font(s)", or a font
family it cannot find) is an error too: the Chinese notebook needs a CJK font (Debian's
fonts-noto-cjk, which tools/ensure-browser installs). The kernel is `python3`, the
ipykernel of the interpreter running this.
"""

import difflib
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LANGUAGES = ("en", "zh")
KERNEL = "python3"
# what matplotlib writes to stderr when a plot cannot draw a character
MISSING_GLYPH = re.compile(
    r"Glyph \d+ .*missing from (current )?font|findfont: Font family .* not found"
)


def notebooks():
    """{path relative to docs/<lang>/: {lang: Path}} for every notebook of docs/en."""
    found = {}
    for path in sorted((DOCS / LANGUAGES[0]).rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        rel = path.relative_to(DOCS / LANGUAGES[0]).as_posix()
        found[rel] = {lang: DOCS / lang / rel for lang in LANGUAGES}
    return found


def read(path):
    return nbformat.read(path, as_version=4)


def code_cells(nb):
    """(index among all cells, cell) for each code cell."""
    return [(i, cell) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]


def execute(path):
    """The notebook at `path`, run top to bottom in a fresh kernel, in its own folder."""
    import matplotlib.font_manager  # noqa: F401  builds matplotlib's font cache if missing:
    # the kernel would otherwise print "Matplotlib is building the font cache" to stderr

    nb = read(path)
    for _, cell in code_cells(nb):
        cell.outputs, cell.execution_count = [], None
    client = NotebookClient(
        nb,
        kernel_name=KERNEL,
        timeout=120,
        record_timing=False,
        coalesce_streams=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return nb


def comparable(outputs):
    """The lines compared of a cell's outputs: texts exactly, an image by its presence."""
    pieces = []  # (kind, text); the consecutive pieces of one stream are joined
    for out in outputs:
        if out.output_type == "stream":
            kind, text = out.name, out.text
            if pieces and pieces[-1][0] == kind:
                text = pieces.pop()[1] + text
        elif out.output_type == "error":
            kind, text = "error", f"{out.ename}: {out.evalue}"
        elif "image/png" in out.get("data", {}):
            kind, text = out.output_type, "<image/png>"
        else:
            kind, text = out.output_type, out.get("data", {}).get("text/plain", "")
        pieces.append((kind, text))
    return [f"{kind}: {line}" for kind, text in pieces for line in text.splitlines()]


def missing_glyphs(executed, name):
    """One message per code cell whose run warned that a character could not be drawn."""
    problems = []
    for index, cell in code_cells(executed):
        lines = [line for line in comparable(cell.outputs) if MISSING_GLYPH.search(line)]
        if lines:
            problems.append(
                f"{name}, cell {index}: a plot could not draw every character (install a font "
                "that has them: for Chinese, Debian's fonts-noto-cjk; tools/ensure-browser "
                f"installs it); {len(lines)} warnings, the first:\n  " + "\n  ".join(lines[:3])
            )
    return problems


def differences(stored, executed, name):
    """One message per code cell whose stored outputs differ from the executed ones."""
    problems = []
    ran = code_cells(executed)
    kept = code_cells(stored)
    if [c.source for _, c in kept] != [c.source for _, c in ran]:
        return [f"{name}: its code cells differ from those of the notebook that was run"]
    for (index, old), (_, new) in zip(kept, ran, strict=True):
        expected, got = comparable(old.outputs), comparable(new.outputs)
        if expected != got:
            diff = difflib.unified_diff(
                expected, got, "expected (stored)", "got (fresh run)", lineterm=""
            )
            problems.append(f"{name}, cell {index}:\n" + "\n".join(diff))
    return problems


def store(path, executed):
    """Write the outputs and execution counts of `executed` into the notebook at `path`."""
    nb = read(path)
    for (_, cell), (_, new) in zip(code_cells(nb), code_cells(executed), strict=True):
        cell.outputs, cell.execution_count = new.outputs, new.execution_count
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    write = "--write" in argv
    problems = []
    for rel, paths in notebooks().items():
        missing = [f"docs/{lang}/{rel}" for lang, p in paths.items() if not p.is_file()]
        if missing:
            problems.append(f"docs/en/{rel} has no twin at {', '.join(missing)}")
            continue
        for lang, path in paths.items():
            name = f"docs/{lang}/{rel}"
            executed = execute(path)
            glyphs = missing_glyphs(executed, name)
            problems += glyphs
            if glyphs:
                continue
            if write:
                store(path, executed)
                print(f"wrote the outputs of a fresh run into {name}")
            else:
                problems += differences(read(path), executed, name)
    print("\n\n".join(problems) or "all stored notebook outputs match a fresh run")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
