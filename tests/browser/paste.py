"""Paste text into fresh interactive Python consoles, as a reader pastes a copied block.

    python paste.py < blocks.json   ->   [{"stdout": ..., "stderr": ...}, ...] on stdout

Input: a JSON list of texts. Each text is fed line by line to its own fresh
`code.InteractiveConsole` (a new, empty namespace: the text must import what it uses), then
one empty line, the Enter a reader presses after pasting. torch is imported before reading
the input only so that the test can start this process early; no console sees it unless
the pasted code imports it. A console ends a statement where the prompts of Python 3.11 and
3.12 do: pasted through a pty into `python3.11 -i` and `python3.12 -i`, a class with a blank
line between two methods failed there as here (IndentationError at the second method).
"""

import code
import contextlib
import io
import json
import sys

import torch  # noqa: F401  (warm-up, see above)


def paste(text):
    out, err = io.StringIO(), io.StringIO()
    console = code.InteractiveConsole(locals={"__name__": "__console__"})
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        for line in [*text.splitlines(), ""]:
            console.push(line)
    return {"stdout": out.getvalue(), "stderr": err.getvalue()}


if __name__ == "__main__":
    results = [paste(text) for text in json.load(sys.stdin)]
    sys.__stdout__.write(json.dumps(results))
