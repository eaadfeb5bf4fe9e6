"""Make the copy button of a pycon block copy only the code, and show the session as a
reader's Python prompt shows it.

Material copies the `data-copy` attribute of an ancestor of the code, when there is one.
For every pycon block this hook puts there the source of its examples, as doctest reads
them (torch_verified.examples.runnable_code): no prompts, no outputs, no tracebacks.
What only doctest reads leaves the page: `<BLANKLINE>` shows as the empty line it stands
for, a `# doctest: +FLAG` comment is not shown. In an answer box, the code's caption is not
the box's title again ("Answer" once); a link to its snippet, if any, stays. On the error
table, the longest page, the examples' code is in one colour (torch_verified.errors.lighter).
"""

import html
import re

from torch_verified import errors
from torch_verified.examples import runnable_code
from torch_verified.project import language_of, page_of

BLOCK = re.compile(r'<div class="language-pycon highlight">(.*?)</div>', re.DOTALL)
CODE = re.compile(r"<code>(.*?)</code>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
BLANKLINE = re.compile(r"&lt;BLANKLINE&gt;")
DIRECTIVE = re.compile(r'\s*<span class="c1"># doctest:[^<]*</span>')
DIRECTIVE_TEXT = re.compile(r"\s*# doctest:.*$", re.MULTILINE)
REPEATED_CAPTION = re.compile(
    r'(<summary>([^<]+)</summary>\s*<div class="language-pycon highlight"[^>]*>)'
    r'<span class="filename">\2( ?@@source:[^@<]*@@)?</span>'
)


def _with_copy_text(match):
    code = CODE.search(match.group(1))
    if not code:
        return match.group(0)
    session = html.unescape(TAG.sub("", code.group(1)))
    copy = html.escape(DIRECTIVE_TEXT.sub("", runnable_code(session)), quote=True)
    shown = DIRECTIVE.sub("", BLANKLINE.sub("", match.group(1)))
    return f'<div class="language-pycon highlight" data-copy="{copy}">{shown}</div>'


def on_page_content(content, page, config, files):
    repository = config and config.extra.get("repository")
    content = BLOCK.sub(_with_copy_text, content)
    if page and page_of(page.file, language_of(config, page)) == errors.PAGE:
        content = errors.lighter(content)
    return REPEATED_CAPTION.sub(
        lambda m: (
            m[1] + (f'<span class="filename">{m[3].strip()}</span>' if m[3] and repository else "")
        ),
        content,
    )
