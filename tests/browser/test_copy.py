"""The copy button of a code block copies code that runs and prints what the page shows: every
block of a page, the exercises' answers too, pasted into fresh Python consoles.

That both languages copy the same code is checked on the built HTML (test_site.py).
"""

import code
import doctest
import json
import subprocess
import sys
from pathlib import Path

from torch_verified.examples import CHECKER, FLAGS, runnable_code
from torch_verified.project import SNIPPETS

AUTOGRAD = "autograd/computation-graph.md"
PASTE = Path(__file__).with_name("paste.py")


def copy_every_block(reader):
    """[(session shown, text the copy button put on the clipboard)] for each pycon block."""
    page = reader.page
    blocks = page.locator("div.language-pycon")
    copied = []
    for i in range(blocks.count()):
        block = blocks.nth(i)
        shown = block.locator("code").inner_text()
        page.evaluate("navigator.clipboard.writeText('')")
        block.locator("button.md-code__button[data-md-type=copy]").click()
        page.wait_for_function("async () => (await navigator.clipboard.readText()) !== ''")
        copied.append((shown, page.evaluate("navigator.clipboard.readText()")))
    return copied


def test_copied_code_runs_and_prints_what_the_page_shows(reader, tmp_path):
    # a fresh Python, started now: it loads torch while the browser copies
    python = subprocess.Popen(
        [sys.executable, str(PASTE)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    copied = []
    try:
        url = reader.server.url("en", AUTOGRAD)
        reader.open(url, ready=False)
        # the exercises' answers too: opened, as a reader opens them
        reader.page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        copied = copy_every_block(reader)
    finally:
        stdout, stderr = python.communicate(json.dumps([text for _, text in copied]), 120)
    assert python.returncode == 0, stderr
    examples = [doctest.DocTestParser().get_examples(shown) for shown, _ in copied]

    # Only the code: no prompts, no outputs.
    for i, (shown, text) in enumerate(copied):
        assert text == runnable_code(shown).rstrip(), (
            f"{url}, block {i + 1}: the copy button copied\n{text}\n--- not the code of\n{shown}"
        )
    loops = [text for _, text in copied if "\nfor " in "\n" + text]
    assert len(copied) >= 3 and loops, (
        f"{url}: expected at least 3 pycon blocks, one with a for loop, to paste and run; "
        f"found {len(copied)} blocks, {len(loops)} with a loop"
    )

    # Pasted into fresh Python consoles, each prints exactly what the page shows.
    for i, (exs, out) in enumerate(zip(examples, json.loads(stdout), strict=True)):
        want = "".join(ex.want for ex in exs if ex.exc_msg is None)
        assert CHECKER.check_output(want, out["stdout"], FLAGS), (
            f"{url}, block {i + 1}: pasted into Python it prints\n{out['stdout']}\n"
            f"--- but the page shows\n{want}\n--- stderr:\n{out['stderr']}"
        )
        for ex in exs:  # an expected exception: its last line, on stderr
            if ex.exc_msg is not None:
                assert CHECKER.check_output(f"...{ex.exc_msg.strip()}...", out["stderr"], FLAGS), (
                    f"{url}, block {i + 1}: expected {ex.exc_msg!r} on stderr, got\n{out['stderr']}"
                )


class Prompt(code.InteractiveConsole):
    """Python's prompt reading a pasted block line by line, compiling each statement without
    running it. code.InteractiveConsole decides where a statement ends as the prompts of
    Python 3.11 and 3.12 do (`python3.11 -i` and `python3.12 -i` in a pty end a class body
    at a blank line the same way, then raise IndentationError at the next method)."""

    def __init__(self):
        super().__init__()
        self.statements, self.errors = 0, []

    def runsource(self, source, filename="<input>", symbol="single"):
        return bool(source.strip()) and super().runsource(source, filename, symbol)

    def runcode(self, code):
        self.statements += 1

    def showsyntaxerror(self, filename=None, **kwargs):
        self.errors.append(repr(sys.exc_info()[1]))


def test_every_copied_block_pastes_into_the_prompt_as_its_statements():
    """Each snippet's copied code, pasted into a prompt, is read as the snippet's statements,
    one for each example, without a syntax error (a class with a blank line between its
    methods was cut in two)."""
    wrong = []
    for path in sorted(SNIPPETS.rglob("*.pycon")):
        text = path.read_text(encoding="utf-8")
        prompt = Prompt()
        for line in [*runnable_code(text).splitlines(), ""]:
            prompt.push(line)
        examples = len(doctest.DocTestParser().get_examples(text))
        if prompt.errors or prompt.statements != examples:
            name = path.relative_to(SNIPPETS).as_posix()
            wrong.append(f"{name}: {prompt.statements} statements of {examples} {prompt.errors}")
    assert not wrong, "pasted into Python's prompt:\n" + "\n".join(wrong)
