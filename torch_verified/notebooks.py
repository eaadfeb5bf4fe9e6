"""Notebooks, both kinds.

- **Page notebooks.** Every teaching page (every Markdown page but REFERENCE_PAGES) can be
  downloaded as a notebook, made at build time (hooks/page_notebooks.py): its headings and
  text as Markdown cells, the code of its snippet includes as code cells, each ending at an
  example that prints (a notebook shows the output of a cell's last line only), with
  `metadata.snippet` (file, example numbers) naming the expected outputs in the snippet. A
  `*.cuda.pycon` snippet is announced and its cells tagged `needs-cuda` (`*.nocuda.pycon`:
  `no-cuda`); a cell that raises is tagged `raises-exception`. A first code cell turns
  IPython's pretty printer off, so values show as on the page. Admonitions (`!!!`) are left
  out, an answer (`???`) keeps its title and text, links become plain text.
- **Lab notebooks** (docs/<lang>/lab/*.ipynb): the same program in each language, with
  outputs stored from a Jupyter kernel (execute, tools/run_notebooks.py --write).

run() runs either kind with IPython's own shell, as its kernel runs it; the tests compare
the outputs with the snippets (cells_vs_snippets) or with the stored ones (stored_vs_fresh).
"""

import contextlib
import difflib
import doctest
import posixpath
import re
import warnings
from functools import cache

from torch_verified.citations import with_links
from torch_verified.examples import CHECKER, FLAGS, flags_of
from torch_verified.markdown import FENCE, FRONT_MATTER, INCLUDE
from torch_verified.project import DOCS, SNIPPETS, kind, site_path, url
from torch_verified.strings import STRINGS

# Pages that are looked up rather than read in order: no exercises, no notebook.
REFERENCE_PAGES = {"index.md", "reference/glossary.md", "measured/claims.md"}
REFERENCE_PAGES |= {"errors/error-table.md", "errors/corrections.md"}
REFERENCE_PAGES |= {"reference/faq.md", "reference/verification.md", "reference/check.md"}
# IPython's pretty printer shows `<MulBackward0 at 0x...>` and `torch.Tensor` where Python's
# prompt, and so the page, shows `<MulBackward0 object at 0x...>` and `<class 'torch.Tensor'>`.
PLAIN_REPR = "%config PlainTextFormatter.pprint = False"
# Run All on a machine without a GPU: a cell of a `*.cuda.pycon` snippet starts with this cell
# magic, defined by a cell near the top of each notebook that has one; without a GPU it says
# the cell was skipped instead of raising. With one it runs the cell as Jupyter would: its
# last expression is shown, its error is the cell's.
CUDA_MAGIC = "%%needs_cuda"
CUDA_MAGIC_CELL = """import ast

import torch
from IPython.core.magic import register_cell_magic


@register_cell_magic
def needs_cuda(line, cell):
    \"\"\"Run this cell only where a CUDA GPU is available.\"\"\"
    if not torch.cuda.is_available():
        print({skipped!r})
        return None
    *body, last = ast.parse(cell).body
    namespace = get_ipython().user_ns
    exec(compile(ast.Module(body, []), "<cell>", "exec"), namespace)
    if isinstance(last, ast.Expr):
        return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
    exec(compile(ast.Module([last], []), "<cell>", "exec"), namespace)
    return None"""
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{\s*#([\w-]+)[^}]*\})?\s*$")
ANCHOR = '<a id="{}"></a>'  # a place a notebook's links lead to (Jupyter keeps the id)
BLOCK = re.compile(r'^(\s*)(!!!|\?\?\?\+?|===)\s*(\w[\w-]*)?\s*(?:"([^"]*)")?\s*$')
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\((?!https?:)([^)]*)\)")
IMAGE = re.compile(r"^\s*!\[")
TAGS = {"cuda": "needs-cuda", "nocuda": "no-cuda"}
# what matplotlib writes to stderr when a plot cannot draw a character (also bench's plots)
MISSING_GLYPH = re.compile(
    r"Glyph \d+ .*missing from (current )?font|findfont: Font family .* not found"
)
FONT_ADVICE = (
    "install a font that has them: for Chinese, Debian's fonts-noto-cjk (tools/ensure-browser)"
)


def is_teaching(page):
    """True for a page (path below docs/<lang>/) that teaches: exercises and a notebook."""
    return page.endswith(".md") and page not in REFERENCE_PAGES


# The branch of the repository that holds the page notebooks of the published build, at
# their paths on the site (ci.yml pushes them after the build): Colab opens them from there.
COLAB_BRANCH = "notebooks"
GITHUB = re.compile(r"^https://github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")


def colab_url(repository, language, page):
    """The address at which Google Colab opens a page's notebook from COLAB_BRANCH of the
    repository, or None when the repository is not on GitHub (or not given)."""
    match = GITHUB.match(repository or "")
    if not match:
        return None
    path = site_path(language, page) + notebook_name(page)
    return (
        f"https://colab.research.google.com/github/{match[1]}/{match[2]}/blob/{COLAB_BRANCH}/{path}"
    )


def notebook_name(page):
    """`autograd/backward.md` -> `backward.ipynb` (written next to the page's HTML)."""
    return posixpath.basename(page).removesuffix(".md") + ".ipynb"


def with_download_link(html, name, language, more=""):
    """The page's HTML with its notebook to download as a line of text under its title."""
    words = STRINGS[language]
    text = words["notebook_file"].format(link=words["notebook_link"], name=name)
    link = f'\n<p class="page-notebook"><a href="{name}" download>{text}</a>{more}</p>'
    return re.sub(r"</h1>", lambda m: m[0] + link, html, count=1)


def _markdown_cell(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text.strip("\n")}


def _code_cell(source, metadata):
    cell = {"cell_type": "code", "execution_count": None, "outputs": []}
    return cell | {"metadata": metadata, "source": source}


def _code_cells(name):
    """The code cells of the snippet `name`, a cell ending at each example that prints (or
    raises). A missing snippet has none: the includes hook reports it, in one line."""
    path = SNIPPETS / name
    if not path.is_file():
        return []
    examples = doctest.DocTestParser().get_examples(path.read_text(encoding="utf-8"), name)
    groups, current = [], []
    for number, example in enumerate(examples):
        current.append((number, example))
        if example.want or example.exc_msg is not None:
            groups.append(current)
            current = []
    cells = []
    for group in [*groups, current] if current else groups:
        tags = [TAGS[kind(name)]] if kind(name) else []
        if group[-1][1].exc_msg is not None:
            tags.append("raises-exception")
        metadata = {"snippet": {"file": name, "examples": [number for number, _ in group]}}
        source = "".join(example.source for _, example in group).rstrip("\n")
        if kind(name) == "cuda":
            source = f"{CUDA_MAGIC}\n{source}"
        cells.append(_code_cell(source, metadata | ({"tags": tags} if tags else {})))
    return cells


def cells_of(markdown, language, link=None):
    """The cells of a page: its headings and text as Markdown cells, its snippet includes
    as code cells, in page order. A block collapsed on the page (`???`: an answer, a hint,
    a going-deeper note) is collapsed in the notebook too (its title shows, its cells are
    hidden until clicked). A link to another page becomes `link(target)`, or plain text
    without `link` (or where it returns None)."""
    cells, text, fence, skip_indent, hidden = [], [], None, None, None

    def relink(match):
        target = link(match[2]) if link else None
        return f"[{match[1]}]({target})" if target else match[1]

    def end_hidden():
        flush()
        for cell in cells[hidden[1] :]:
            shown = ("source_hidden", "outputs_hidden") if cell["cell_type"] == "code" else ()
            cell["metadata"]["jupyter"] = dict.fromkeys(shown or ("source_hidden",), True)

    def flush():
        body = "\n".join(text).strip()
        if body:
            cells.append(_markdown_cell(body))
        text.clear()

    for line in FRONT_MATTER.sub("", markdown).splitlines():
        indent = len(line) - len(line.lstrip())
        if fence is not None:
            if line.strip() == fence["fence"]:
                if not fence["includes"] and fence["lines"]:  # a listing, not a snippet
                    text.extend([f"```{fence['lang']}", *fence["lines"], "```"])
                fence = None
            elif include := INCLUDE.match(line):
                name = include["name"]
                fence["includes"].append(name)
                flush()
                if kind(name):
                    cells.append(_markdown_cell(STRINGS[language][f"notebook_{kind(name)}"]))
                cells.extend(_code_cells(name))
            elif skip_indent is None:
                fence["lines"].append(line[fence["indent"] :])
            continue
        if skip_indent is not None and line.strip() and indent <= skip_indent:
            skip_indent = None
        if hidden is not None and line.strip() and indent <= hidden[0]:
            end_hidden()
            hidden = None
        if match := FENCE.match(line):
            fence = dict(match.groupdict(), indent=len(match["indent"]), includes=[], lines=[])
            continue
        if skip_indent is not None:
            continue
        if block := BLOCK.match(line):
            if block.group(2) == "!!!":
                skip_indent = indent
            else:  # an answer (???) or a tab (===): its title, then its content
                flush()
                text.append(f"**{block.group(4) or (block.group(3) or '').capitalize()}**")
                flush()
                if block.group(2) == "???" and hidden is None:
                    hidden = (indent, len(cells))
        elif heading := HEADING.match(line):
            flush()
            cells.append(_markdown_cell(f"{heading.group(1)} {heading.group(2)}"))
            cells[-1]["anchor"] = heading.group(3)
        elif not IMAGE.match(line):
            text.append(LINK.sub(relink, line.removeprefix("    ")))
    flush()
    if hidden is not None:
        end_hidden()
    return _answers_last(cells, language)


def _answers_last(cells, language):
    """The exercises as a learner does them in a notebook: after each one a link to its
    answer and an empty code cell to try in; the answers (the `???` blocks titled with the
    word for answer) in a section after the last exercise, each linking back to its exercise."""
    words, title = STRINGS[language], f"**{STRINGS[language]['answer']}**"
    anchors = [c.pop("anchor", None) for c in cells]
    if "exercises" not in anchors:
        return cells
    start = anchors.index("exercises") + 1
    out, answers, exercise, in_answer = cells[:start], [], None, False

    def end_exercise():
        if exercise is not None:
            out.append(_markdown_cell(words["notebook_try"].format(anchor=f"answer-{exercise}")))
            out.append(_code_cell("", {}))
            answers.append(_markdown_cell(words["notebook_back"].format(anchor=exercise)))

    for cell, anchor in zip(cells[start:], anchors[start:], strict=True):
        if anchor is not None:  # the next exercise's heading
            end_exercise()
            exercise, in_answer = anchor, False
            answers.append(_markdown_cell(f"{cell['source']} {ANCHOR.format('answer-' + anchor)}"))
            cell["source"] += " " + ANCHOR.format(anchor)
        elif cell["cell_type"] == "markdown" and cell["source"] == title:
            in_answer = True
            continue
        elif in_answer and cell["metadata"].pop("jupyter", None):
            answers.append(cell)
            continue
        else:
            in_answer = False
        out.append(cell)
    end_exercise()
    heading = _markdown_cell(f"## {words['notebook_answers']} {ANCHOR.format('answers')}")
    return [*out, heading, *answers]


def site_link(site, language, page):
    """link() for cells_of: a page's relative link as its address on the site at `site`
    (which ends with /), or None without a site."""

    def absolute(target):
        if not site:
            return None
        path, _, anchor = target.partition("#")
        path = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
        address = url(site, language, path) if path.endswith(".md") else site + path
        return address + (f"#{anchor}" if anchor else "")

    return absolute


def _joined(first, second):
    """Two sentences of one paragraph: a space after English ones, none after 。！？"""
    return first + ("" if first.endswith(("。", "！", "？")) else " ") + second


def notebook(markdown, language, title="", page="", site="", torch=""):
    """The notebook (a dict in nbformat 4.5) of a page (its path below docs/<language>/).
    With `site`, the address of the published site (SITE_URL), it links to its page and
    its links lead there; without, it says it comes from a build that has no address."""
    cells = cells_of(markdown, language, site_link(site, language, page))
    headed = bool(cells) and cells[0]["source"].startswith("# ")
    title = title or (cells[0]["source"][2:] if headed else "")
    words = STRINGS[language]
    if site:
        intro = words["notebook_from"].format(title=title, url=url(site, language, page))
    else:
        intro = words["notebook_from_local"].format(title=title)
    intro = _joined(intro, words["notebook_outputs"].format(torch=torch))
    setup = [_markdown_cell(_joined(intro, words["notebook_repr"])), _code_cell(PLAIN_REPR, {})]
    if any(c["source"].startswith(CUDA_MAGIC + "\n") for c in cells):
        magic = CUDA_MAGIC_CELL.format(skipped=words["notebook_skipped"])
        setup += [_markdown_cell(words["notebook_magic"]), _code_cell(magic, {})]
    cells[int(headed) : int(headed)] = setup
    for number, cell in enumerate(cells):
        cell["id"] = f"cell-{number}"
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    metadata = {"kernelspec": kernel, "language_info": {"name": "python"}}
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def page_notebook(language, page):
    """The notebook of a page of docs/, as the build makes it (without the page's URL)."""
    text = with_links((DOCS / language / page).read_text(encoding="utf-8"))
    return notebook(text, language, page=page)


def code_of(nb):
    """(snippet reference, source) of each code cell: what two notebooks must share."""
    return [
        (c["metadata"].get("snippet"), c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
    ]


# -- running a notebook -----------------------------------------------------------------------


@cache
def _shell():
    """IPython's shell, which a kernel runs cells with; what a kernel would send is kept in
    `outputs` instead of printed (no prompt, no traceback on the terminal)."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    class Results(DisplayHook):
        def write_output_prompt(self):
            pass

        def write_format_data(self, format_dict, md_dict=None):
            data = {"text/plain": format_dict["text/plain"]}
            self.shell.outputs.append({"output_type": "execute_result", "data": data})

    class Shell(InteractiveShell):
        displayhook_class = Results

        def showtraceback(self, *args, **kwargs):  # the error is the cell's output
            pass

        def enable_gui(self, gui=None):  # plots go inline, as a kernel's do
            pass

    shell = Shell.instance(config=Config(HistoryManager={"enabled": False}))
    shell.run_line_magic("matplotlib", "inline")
    return shell


def run(nb, skip=(), folder="."):
    """Run a notebook's code cells top to bottom, in `folder` and a fresh namespace, each as
    its kernel runs it (IPython's shell: plots inline, warnings on stderr), and store their
    outputs; cells tagged with one of `skip` are left unexecuted (`metadata.unexecuted`). A
    third of the CPU of starting a kernel (which imports torch again) per notebook."""
    import matplotlib
    import nbformat
    from IPython.utils.capture import capture_output

    shell = _shell()
    # a fresh kernel has no figures: one left open by earlier code in this process (a test
    # whose plot raised) would otherwise be shown under the first cell that plots; and it
    # plots inline, even where earlier code switched this process to Agg (bench's plots):
    # `%matplotlib inline` alone does not switch back
    matplotlib.pyplot.close("all")
    matplotlib.pyplot.switch_backend("module://matplotlib_inline.backend_inline")
    shell.user_ns.clear()  # a fresh namespace (reset() would also collect garbage: seconds)
    shell.init_user_ns()
    # what PLAIN_REPR, a page notebook's first cell, does in a kernel: in this shell `%config`
    # does not reach the formatter
    plain = any(cell["source"] == PLAIN_REPR for cell in nb["cells"])
    shell.display_formatter.formatters["text/plain"].pprint = not plain
    with matplotlib.rc_context(), warnings.catch_warnings(), contextlib.chdir(folder):
        warnings.simplefilter("default")
        for cell in (c for c in nb["cells"] if c["cell_type"] == "code"):
            if set(skip) & set(cell["metadata"].get("tags", [])):
                cell["metadata"]["unexecuted"] = True
                continue
            shell.outputs = []
            with capture_output() as out:
                error = shell.run_cell(cell["source"]).error_in_exec
            streams = [("stdout", out.stdout), ("stderr", out.stderr)]
            outputs = [{"output_type": "stream", "name": n, "text": t} for n, t in streams if t]
            outputs += [{"output_type": "display_data", "data": o.data} for o in out.outputs]
            outputs += shell.outputs
            if error is not None:
                outputs.append(
                    {"output_type": "error", "ename": type(error).__name__, "evalue": str(error)}
                )
            cell["outputs"] = [nbformat.from_dict(o) for o in outputs]
    matplotlib.pyplot.close("all")
    return nb


def cells_vs_snippets(nb, name):
    """One message per run code cell whose outputs are not its snippet's expected outputs,
    compared as the doctests compare (stderr is not compared: doctest does not see it)."""
    problems = []
    for index, cell in enumerate(nb["cells"]):
        ref = cell["metadata"].get("snippet")
        if not ref or cell["metadata"].get("unexecuted"):
            continue
        text = (SNIPPETS / ref["file"]).read_text(encoding="utf-8")
        chosen = [
            doctest.DocTestParser().get_examples(text, ref["file"])[n] for n in ref["examples"]
        ]
        want, exc_msg, flags = "".join(e.want for e in chosen), chosen[-1].exc_msg, FLAGS
        for example in chosen:
            flags = flags_of(example, flags)
        printed, exc = "", None
        for out in cell["outputs"]:
            if out["output_type"] == "stream" and out["name"] == "stdout":
                printed += out["text"]
            elif out["output_type"] == "execute_result":
                printed += out["data"]["text/plain"] + "\n"
            elif (
                out["output_type"] == "error"
            ):  # torch.OutOfMemoryError: a kernel says OutOfMemoryError
                qualified = exc_msg and exc_msg.split(":")[0].endswith("." + out["ename"])
                exc = f"{exc_msg.split(':')[0] if qualified else out['ename']}: {out['evalue']}\n"
        where = f"{name}, cell {index} ({ref['file']})"
        if exc_msg is None and exc is not None:
            problems.append(f"{where}: raised {exc.strip()}\n{cell['source']}")
        elif exc_msg is not None and (exc is None or not CHECKER.check_output(exc_msg, exc, flags)):
            problems.append(f"{where}: expected {exc_msg.strip()!r}, got {exc or printed!r}")
        elif exc_msg is None and not CHECKER.check_output(want, printed, flags):
            problems.append(f"{where}:\n--- expected\n{want}--- got\n{printed}")
    return problems


# -- lab notebooks --------------------------------------------------------------------------


def lab_notebooks():
    """{path below docs/<lang>/: {lang: Path}} of every notebook of the default language."""
    from torch_verified.project import DEFAULT_LANGUAGE, LANGUAGES

    found = {}
    for path in sorted((DOCS / DEFAULT_LANGUAGE).rglob("*.ipynb")):
        if ".ipynb_checkpoints" not in path.parts:
            rel = path.relative_to(DOCS / DEFAULT_LANGUAGE).as_posix()
            found[rel] = {lang: DOCS / lang / rel for lang in LANGUAGES}
    return found


def read(path):
    import nbformat

    return nbformat.read(path, as_version=4)


def code_cells(nb):
    """(index among all cells, cell) for each code cell."""
    return [(i, cell) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]


def execute(path):
    """The notebook at `path`, run top to bottom in a fresh Jupyter kernel (python3: the
    ipykernel of this interpreter), in its own folder: what tools.run_notebooks stores."""
    import matplotlib.font_manager  # noqa: F401  builds matplotlib's font cache if missing:

    # the kernel would otherwise print "Matplotlib is building the font cache" to stderr
    from nbclient import NotebookClient

    nb = read(path)
    for _, cell in code_cells(nb):
        cell.outputs, cell.execution_count = [], None
    resources = {"metadata": {"path": str(path.parent)}}
    client = NotebookClient(nb, kernel_name="python3", timeout=120, resources=resources)
    client.record_timing, client.coalesce_streams = False, True
    client.execute()
    return nb


def comparable(outputs):
    """The lines compared of a cell's outputs: texts exactly, an image by its presence."""
    pieces = []  # (kind, text); the consecutive pieces of one stream are joined
    for out in outputs:
        if out.output_type == "stream":
            kind_, text = out.name, out.text
            if pieces and pieces[-1][0] == kind_:
                text = pieces.pop()[1] + text
        elif out.output_type == "error":
            kind_, text = "error", f"{out.ename}: {out.evalue}"
        elif "image/png" in out.get("data", {}):
            kind_, text = out.output_type, "<image/png>"
        else:
            kind_, text = out.output_type, out.get("data", {}).get("text/plain", "")
        pieces.append((kind_, text))
    return [f"{kind_}: {line}" for kind_, text in pieces for line in text.splitlines()]


def missing_glyphs(executed, name):
    """One message per code cell whose run warned that a character could not be drawn."""
    problems = []
    for index, cell in code_cells(executed):
        lines = [line for line in comparable(cell.outputs) if MISSING_GLYPH.search(line)]
        if lines:
            problems.append(
                f"{name}, cell {index}: a plot could not draw every character ({FONT_ADVICE}); "
                f"{len(lines)} warnings, the first:\n  " + "\n  ".join(lines[:3])
            )
    return problems


def stored_vs_fresh(stored, executed, name):
    """One message per code cell whose stored outputs differ from the executed ones."""
    kept, ran = code_cells(stored), code_cells(executed)
    if [c.source for _, c in kept] != [c.source for _, c in ran]:
        return [f"{name}: its code cells differ from those of the notebook that was run"]
    problems = []
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
    import nbformat

    nb = read(path)
    for (_, cell), (_, new) in zip(code_cells(nb), code_cells(executed), strict=True):
        cell.outputs, cell.execution_count = new.outputs, new.execution_count
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
