"""Build the error table and the error entries of errors/error-table.md from the snippets.

Every file in snippets/errors/ raises one error, as a doctest traceback that Sybil runs
against the pinned PyTorch: the message shown on the page is read from there, never typed.
Causes and fixes, written in each language, come from data/errors.yml (its order is the
table's order).

- The line `<!-- error-table -->` becomes the overview table: message, cause, fix and a link
  to the entry. It is left out of the search index (`data-search-exclude`): a pasted message
  must lead to the error's own entry. On a phone, CSS shows each row as a card.
- Each heading `### Title { #anchor }` whose anchor names an error (`no_grad_fn` ->
  `#no-grad-fn`) is that error's entry. The build shows the message as the heading (the
  title stays as the label in the table of contents), then the message as each release
  prints it, the cause and the fix. Material's search weighs a word in a heading a
  thousand times a word in the text: with the whole message in the heading, a pasted
  message, or any part of it, finds its entry first.
"""

import doctest
import re
from html import escape
from pathlib import Path

import yaml
from mkdocs.exceptions import PluginError

try:  # as a package (tests, tools) or by MkDocs from the hooks/ folder, as releases.py does
    from hooks import releases
except ImportError:
    import releases

MARKER = "<!-- error-table -->"
ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets" / "errors"
DATA = ROOT / "data" / "errors.yml"
HEADING = re.compile(
    r"^###[ \t]+(?P<title>.+?)[ \t]*\{[ \t]*#(?P<anchor>[\w-]+)[ \t]*\}[ \t]*$", re.MULTILINE
)

HEADER = {
    "en": ("Message, as PyTorch prints it", "Cause", "Fix", "Example"),
    "zh": ("报错信息（PyTorch 原文）", "原因", "解决办法", "示例"),
}
ENTRY = {
    "en": {"cause": "Cause.", "fix": "Fix.", "printed": "Printed by {releases}"},
    "zh": {"cause": "原因：", "fix": "解决办法：", "printed": "{releases} 的输出"},
}
GPU_ONLY = {"en": "checked on the GPU job only", "zh": "仅在 GPU 任务中核对"}


def anchor(name):
    """`nonscalar_backward` -> `nonscalar-backward`: the anchor of its entry."""
    return name.replace("_", "-")


def error_snippets(folder=SNIPPETS):
    """{name: path} of the snippets that feed the table; `x.cuda.pycon` is named `x`."""
    return {
        path.name.removesuffix(".pycon").removesuffix(".cuda"): path
        for path in sorted(folder.glob("*.pycon"))
    }


def raising_example(path):
    """The one example of a snippet that raises: its doctest traceback is the message."""
    examples = doctest.DocTestParser().get_examples(path.read_text(encoding="utf-8"))
    raised = [example for example in examples if example.exc_msg]
    if len(raised) != 1:
        raise ValueError(
            f"{path}: a snippet of the error table raises exactly one error as a doctest "
            f"traceback; this one has {len(raised)}"
        )
    return raised[0]


def error_message(path):
    """`Type: message` of the one doctest traceback in a snippet, whitespace collapsed."""
    return " ".join(raising_example(path).exc_msg.split())


def message_variants(path, pinned):
    """[(message, [releases that print it])]: the pinned release's message first, then each
    message that releases of the version matrix print instead. A CUDA example is not run by
    the matrix: it names the pin only."""
    message = error_message(path)
    if path.name.endswith(".cuda.pycon"):
        return [(message, [pinned])]
    matrix = releases.load()
    snippet = f"{path.parent.name}/{path.name}"
    example = releases.first_line(raising_example(path).source)
    variants = {message: [pinned]}
    for release in matrix.releases:
        entry = matrix.lookup(snippet, example, release)
        printed = " ".join(entry.output.split()) if entry else message
        variants.setdefault(printed, []).append(release)
    return list(variants.items())


def releases_label(versions, pinned, lang):
    """`torch 2.13.0–2.15.0`, in hooks/releases.py's words, for releases of the matrix and
    the pin."""
    every = sorted(
        {*releases.load().releases, pinned}, key=lambda r: [int(n) for n in r.split(".")]
    )
    return releases.Matrix(tuple(every), ()).label(versions, lang)


def heading_text(message):
    """What an entry's heading shows: the message as the page shows it, every sentence, without
    its exception type and the `...` (and a comma before it) of a shortened message.

    `RuntimeError: Can't call numpy() on Tensor that requires grad. Use ... instead.` ->
    `Can't call numpy() on Tensor that requires grad. Use ... instead.`
    """
    return re.sub(r"^[\w.]+: ", "", message).removesuffix(" ...").removesuffix(",")


def load_rows(data=DATA):
    with open(data, encoding="utf-8") as file:
        return yaml.safe_load(file)


def check(rows, snippets, lang, data=DATA, folder=SNIPPETS):
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


def inline(text):
    """One line of data/errors.yml (text with `code` spans) as HTML. In a narrow column a
    long name of code may break after a `.` (`torch.autograd.` / `set_detect_anomaly`)."""
    text = escape(" ".join(str(text).split()), quote=False)

    def code_span(match):
        return "<code>" + re.sub(r"(?<=\w\.)(?=[A-Za-z_])", "<wbr>", match.group(1)) + "</code>"

    return re.sub(r"`([^`]+)`", code_span, text)


def code(text):
    return f"<code>{escape(text, quote=False)}</code>"


def messages_html(variants, lang, tag, pinned):
    """Each message with the releases that print it, one `<tag class="error-message">` each."""
    html = []
    for message, versions in variants:
        printed = ENTRY[lang]["printed"].format(releases=releases_label(versions, pinned, lang))
        html.append(
            f'<{tag} class="error-message">{code(message)} '
            f'<span class="error-message__releases">{escape(printed)}</span></{tag}>'
        )
    return "".join(html)


def render_table(lang, pinned, folder=SNIPPETS, data=DATA):
    """The overview table as HTML: on a phone each row becomes a card, its cells labelled."""
    snippets, rows = error_snippets(folder), load_rows(data)
    check(rows, snippets, lang, data, folder)
    head = HEADER[lang]
    lines = [
        '<div class="error-table" data-search-exclude>',
        "<table>",
        "<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead>",
        "<tbody>",
    ]
    for name, row in rows.items():
        path = snippets[name]
        message = messages_html(message_variants(path, pinned), lang, "span", pinned)
        # <wbr>: a narrow column may break the file name after `_` and before `.`
        shown = re.sub(r"(_|(?=\.))", r"\1<wbr>", escape(path.name))
        example = f'<a href="#{anchor(name)}">{shown}</a>'
        if path.name.endswith(".cuda.pycon"):
            example += f" ({GPU_ONLY[lang]})"
        cells = (message, inline(row[lang]["cause"]), inline(row[lang]["fix"]), example)
        lines.append(
            "<tr>"
            + "".join(f'<td data-label="{escape(h)}">{c}</td>' for h, c in zip(head, cells))
            + "</tr>"
        )
    lines += ["</tbody>", "</table>", "</div>"]
    return "\n".join(lines)


def render_entry(name, title, lang, pinned, folder=SNIPPETS, data=DATA):
    """The heading and the first lines of one error's entry (Markdown with HTML blocks)."""
    path, row = error_snippets(folder)[name], load_rows(data)[name][lang]
    variants = message_variants(path, pinned)
    label = " ".join(re.sub(r"`([^`]*)`", r"\1", title).split()).replace('"', "'")
    text = ENTRY[lang]
    attrs = f'#{anchor(name)} .error-entry data-toc-label="{label}"'
    lines = [f"### `{heading_text(variants[0][0])}` {{ {attrs} }}"]
    lines += ["", messages_html(variants, lang, "p", pinned)]
    lines += ["", f"**{text['cause']}** {row['cause']}", "", f"**{text['fix']}** {row['fix']}"]
    return "\n".join(lines)


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    lang = releases.page_language(page)
    pinned = config.extra["torch_version"]  # hooks/version.py, listed before this hook
    names = {anchor(name): name for name in error_snippets()}
    seen = set()

    def entry(match):
        name = names.get(match.group("anchor"))
        if name is None:
            return match.group(0)
        seen.add(name)
        return render_entry(name, match.group("title"), lang, pinned)

    try:
        table = render_table(lang, pinned)
        markdown = HEADING.sub(entry, markdown)
    except (ValueError, KeyError) as error:
        raise PluginError(f"{page.file.src_uri}: error table: {error}") from error
    missing = [name for name in error_snippets() if name not in seen]
    if missing:
        raise PluginError(
            f"{page.file.src_uri}: give each error an entry, a heading with its anchor, e.g. "
            f"`### … {{ #{anchor(missing[0])} }}`; missing: {', '.join(missing)}"
        )
    return markdown.replace(MARKER, table)
