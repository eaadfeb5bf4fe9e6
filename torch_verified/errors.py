"""The error table of errors/error-table.md, from the snippets that raise each error.

Every file in snippets/errors/ raises one error, as a doctest traceback that Sybil runs
against the pinned PyTorch: the message on the page is read from there, never typed. Causes
and fixes, written in each language, come from data/errors.yml (its order is the table's).

- `{{ error_table }}` becomes the overview table: message, cause, fix and a link to the
  entry. It is left out of the search index (`data-search-exclude`): a pasted message must
  lead to the error's own entry. On a phone, CSS shows each row as a card.
- Each heading `### Title { #anchor }` whose anchor names an error (`no_grad_fn` ->
  `#no-grad-fn`) is that error's entry: the message becomes the heading, the title a line
  under it in the heading (so a reader finds the entry by its name too, 矩阵形状不匹配, in the
  search) and the label in the table of contents; then the message as each release prints it, the cause and the
  fix. Material's search weighs a word in a heading a thousand times a word in the text:
  with the whole message in the heading, a pasted message, or part of it, finds its entry.
"""

import doctest
import re
from html import escape

from torch_verified import matrix
from torch_verified.project import DATA, SNIPPETS, kind, pinned_torch, read_yaml
from torch_verified.strings import STRINGS

PAGE = "errors/error-table.md"
FOLDER = SNIPPETS / "errors"
ROWS = DATA / "errors.yml"
HEADING = re.compile(
    r"^###[ \t]+(?P<title>.+?)[ \t]*\{[ \t]*#(?P<anchor>[\w-]+)[ \t]*\}[ \t]*$", re.MULTILINE
)


def anchor(name):
    """`nonscalar_backward` -> `nonscalar-backward`: the anchor of its entry."""
    return name.replace("_", "-")


def error_snippets(folder=FOLDER):
    """{name: path} of the snippets that feed the table; `x.cuda.pycon` is named `x`."""
    return {p.name.split(".")[0]: p for p in sorted(folder.glob("*.pycon"))}


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


def message_variants(path):
    """[(message, [releases])]: the pin's first, then what the matrix's releases print
    instead (data/releases.yml). A CUDA example is not run by the matrix: the pin alone."""
    data = matrix.load()
    if kind(path) == "cuda":
        return [(error_message(path), [pinned_torch()])]
    snippet = f"{path.parent.name}/{path.name}"
    example = matrix.first_line(raising_example(path).source)
    return data.messages(snippet, example, error_message(path))


def heading_text(message):
    """What an entry's heading shows: the message as the page shows it, every sentence, without
    its exception type and the `...` (and a comma before it) of a shortened message.

    `RuntimeError: Can't call numpy() on Tensor that requires grad. Use ... instead.` ->
    `Can't call numpy() on Tensor that requires grad. Use ... instead.`
    """
    return re.sub(r"^[\w.]+: ", "", message).removesuffix(" ...").removesuffix(",")


def load_rows(data=ROWS):
    return read_yaml(data)


def row_problems(rows, snippets, languages, data=ROWS, folder=FOLDER):
    """One line per snippet without a row, row without a snippet, or missing cause/fix."""
    problems = [f"{path}: no row in {data}" for name, path in snippets.items() if name not in rows]
    problems += [
        f"{data}: row {name!r} has no snippet in {folder}" for name in rows if name not in snippets
    ]
    return problems + [
        f"{data}: row {name!r} needs `cause` and `fix` in {lang!r}"
        for name, row in rows.items()
        for lang in languages
        if not {"cause", "fix"} <= set((row or {}).get(lang) or {})
    ]


def messages_html(variants, lang, tag):
    """Each message with the releases that print it, one `<tag class="error-message">` each."""
    data, html = matrix.load(), []
    for message, versions in variants:
        printed = STRINGS[lang]["error_printed"].format(releases=data.label(versions, lang))
        html.append(
            f'<{tag} class="error-message"><code>{escape(message, quote=False)}</code> '
            f'<span class="error-message__releases">{escape(printed)}</span></{tag}>'
        )
    return "".join(html)


def render_table(lang, folder=FOLDER, data=ROWS):
    """The overview table as HTML, every message and the link to its entry (cause, fix and
    example are there: the page is the longest of the site, and the table repeated them);
    on a phone each row becomes a card, its cells labelled."""
    snippets, rows = error_snippets(folder), load_rows(data)
    problems = row_problems(rows, snippets, [lang], data, folder)
    if problems:
        raise ValueError("\n".join(problems))
    head = STRINGS[lang]["error_columns"]
    lines = [
        '<div class="error-table" data-search-exclude>',
        "<table>",
        "<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead>",
        "<tbody>",
    ]
    for name in rows:
        path = snippets[name]
        message = messages_html(message_variants(path), lang, "span")
        # <wbr>: a narrow column may break the file name after `_` and before `.`
        shown = re.sub(r"(_|(?=\.))", r"\1<wbr>", escape(path.name))
        example = f'<a href="#{anchor(name)}">{shown}</a>'
        if kind(path) == "cuda":
            example += f" ({STRINGS[lang]['error_gpu_only']})"
        cells = (message, example)  # the cause and fix are in the entry the link leads to
        lines.append(
            "<tr>"
            + "".join(f'<td data-label="{escape(h)}">{c}</td>' for h, c in zip(head, cells))
            + "</tr>"
        )
    return "\n".join([*lines, "</tbody>", "</table>", "</div>"])


def render_entry(name, title, lang, folder=FOLDER, data=ROWS):
    """The heading and the first lines of one error's entry (Markdown with HTML blocks)."""
    path, row = error_snippets(folder)[name], load_rows(data)[name][lang]
    variants = message_variants(path)
    label = " ".join(re.sub(r"`([^`]*)`", r"\1", title).split()).replace('"', "'")
    words = STRINGS[lang]
    attrs = f'#{anchor(name)} .error-entry data-toc-label="{label}"'
    name_html = f'<span class="error-entry__name">{title}</span>'
    message = heading_text(variants[0][0])
    tick = "``" if "`" in message else "`"  # a message may quote code: `parameters`
    lines = [f"### {tick} {message} {tick} {name_html} {{ {attrs} }}"]
    lines += ["", messages_html(variants, lang, "p")]
    lines += [
        "",
        f"**{words['error_cause']}** {row['cause']}",
        "",
        f"**{words['error_fix']}** {row['fix']}",
    ]
    return "\n".join(lines)


def with_entries(markdown, lang):
    """The page with each error's heading made its entry; ValueError naming the errors that
    have no heading."""
    names = {anchor(name): name for name in error_snippets()}
    seen = set()

    def entry(match):
        name = names.get(match.group("anchor"))
        if name is None:
            return match.group(0)
        seen.add(name)
        return render_entry(name, match.group("title"), lang)

    markdown = HEADING.sub(entry, markdown)
    missing = [name for name in error_snippets() if name not in seen]
    if missing:
        raise ValueError(
            "give each error an entry, a heading with its anchor, e.g. "
            f"`### … {{ #{anchor(missing[0])} }}`; missing: {', '.join(missing)}"
        )
    return markdown


# A highlighted token of an example (Pygments' spans), but for the prompts, the outputs and
# the tracebacks (gp, go, gt, gr): the readers' colours that matter on the error table.
TOKEN = re.compile(r'<span class="(?!g[potr]")[a-z][a-z0-9]{0,2}">([^<]*)</span>')


def lighter(html):
    """The error table's HTML with its examples' code in one colour: the longest page of
    the site (an example under each of its 47 entries) had about 4,000 token spans, most
    of a phone's style and layout work on a first visit, and 46 of its KB."""
    return TOKEN.sub(r"\1", html)
