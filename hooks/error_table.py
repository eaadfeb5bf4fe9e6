"""Build the table of errors/error-table.md from the snippets that raise each error.

A line `<!-- error-table -->` in a page becomes a Markdown table, one row per file in
snippets/errors/. The message column is the traceback's last line read from that snippet,
which Sybil runs against the pinned PyTorch: the table shows only what PyTorch prints.
Causes and fixes, written in each language, come from data/errors.yml; rows follow its order.
"""

import doctest
from pathlib import Path

import yaml
from mkdocs.exceptions import PluginError

MARKER = "<!-- error-table -->"
ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets" / "errors"
DATA = ROOT / "data" / "errors.yml"

HEADER = {
    "en": ("Message, as PyTorch prints it", "Cause", "Fix", "Example"),
    "zh": ("报错信息（PyTorch 原文）", "原因", "解决办法", "示例"),
}
GPU_ONLY = {"en": "checked on the GPU job only", "zh": "仅在 GPU 任务中核对"}


def anchor(name):
    """`nonscalar_backward` -> `nonscalar-backward`: the heading anchor of its example."""
    return name.replace("_", "-")


def error_snippets(folder=SNIPPETS):
    """{name: path} of the snippets that feed the table; `x.cuda.pycon` is named `x`."""
    return {
        path.name.removesuffix(".pycon").removesuffix(".cuda"): path
        for path in sorted(folder.glob("*.pycon"))
    }


def error_message(path):
    """`Type: message` of the one doctest traceback in a snippet, whitespace collapsed."""
    examples = doctest.DocTestParser().get_examples(path.read_text(encoding="utf-8"))
    raised = [example.exc_msg for example in examples if example.exc_msg]
    if len(raised) != 1:
        raise ValueError(
            f"{path}: a snippet of the error table raises exactly one error as a doctest "
            f"traceback; this one has {len(raised)}"
        )
    return " ".join(raised[0].split())


def load_rows(data=DATA):
    with open(data, encoding="utf-8") as file:
        return yaml.safe_load(file)


def cell(text):
    return " ".join(str(text).split()).replace("|", r"\|")


def code_cell(text):
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def render_table(lang, folder=SNIPPETS, data=DATA):
    snippets, rows = error_snippets(folder), load_rows(data)
    problems = [f"{path}: no row in {data}" for name, path in snippets.items() if name not in rows]
    problems += [
        f"{data}: row {name!r} has no snippet in {folder}" for name in rows if name not in snippets
    ]
    problems += [
        f"{data}: row {name!r} needs `cause` and `fix` in {lang!r}"
        for name, row in rows.items()
        if not {"cause", "fix"} <= set((row or {}).get(lang) or {})
    ]
    if problems:
        raise ValueError("\n".join(problems))
    head = HEADER[lang]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for name, row in rows.items():
        path = snippets[name]
        example = f"[{path.name}](#{anchor(name)})"
        if path.name.endswith(".cuda.pycon"):
            example += f" ({GPU_ONLY[lang]})"
        text = row[lang]
        message = code_cell(cell(error_message(path)))
        lines.append(f"| {message} | {cell(text['cause'])} | {cell(text['fix'])} | {example} |")
    return "\n".join(lines)


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    lang = getattr(page.file, "locale", None) or page.file.src_uri.split("/")[0]
    try:
        table = render_table(lang)
    except (ValueError, KeyError) as error:
        raise PluginError(f"{page.file.src_uri}: error table: {error}") from error
    missing = [name for name in error_snippets() if f"{{ #{anchor(name)} }}" not in markdown]
    if missing:
        raise PluginError(
            f"{page.file.src_uri}: give each example a heading with its anchor, e.g. "
            f"`### … {{ #{anchor(missing[0])} }}`; missing: {', '.join(missing)}"
        )
    return markdown.replace(MARKER, table)
