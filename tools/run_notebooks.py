"""Run the lab notebooks of docs/ and check, or rewrite, the outputs stored in them.

    python -m tools.run_notebooks           # check: name every output that changed, exit 1
    python -m tools.run_notebooks --write   # store the outputs of a fresh run

A notebook exists once per language at the same path (docs/en/lab/x.ipynb,
docs/zh/lab/x.ipynb). The copies run the same program, but their comments, printed labels
and plot labels are in their own language, so each copy is executed in a fresh Jupyter
kernel and its outputs are compared with, or written into, that copy. Text outputs must
match exactly; an image only has to be there where one is stored (PNG bytes differ between
matplotlib builds). A plot that drew a character as a box is an error too: the Chinese
notebook needs a CJK font (torch_verified/notebooks.py says which).
"""

import argparse
import sys

from torch_verified.notebooks import (
    execute,
    lab_notebooks,
    missing_glyphs,
    read,
    store,
    stored_vs_fresh,
)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the outputs of a fresh run")
    write = parser.parse_args(argv).write
    problems = []
    for rel, paths in lab_notebooks().items():
        missing = [f"docs/{lang}/{rel}" for lang, path in paths.items() if not path.is_file()]
        if missing:
            problems.append(f"docs/en/{rel} has no twin at {', '.join(missing)}")
            continue
        for lang, path in paths.items():
            name, executed = f"docs/{lang}/{rel}", execute(path)
            glyphs = missing_glyphs(executed, name)
            problems += glyphs
            if write and not glyphs:
                store(path, executed)
                print(f"wrote the outputs of a fresh run into {name}")
            elif not glyphs:
                problems += stored_vs_fresh(read(path), executed, name)
    print("\n\n".join(problems) or "all stored notebook outputs match a fresh run")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
