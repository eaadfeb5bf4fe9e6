"""Make the copy button of a pycon block copy only the code.

Material copies the `data-copy` attribute of an ancestor of the code, when there is one.
For every pycon block this hook puts there the source of its examples, as doctest reads
them (torch_verified.examples.runnable_code): no prompts, no outputs, no tracebacks.
"""

import html
import re

from torch_verified.examples import runnable_code

BLOCK = re.compile(r'<div class="language-pycon highlight">(.*?)</div>', re.DOTALL)
CODE = re.compile(r"<code>(.*?)</code>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")


def _with_copy_text(match):
    code = CODE.search(match.group(1))
    if not code:
        return match.group(0)
    session = html.unescape(TAG.sub("", code.group(1)))
    copy = html.escape(runnable_code(session), quote=True)
    return f'<div class="language-pycon highlight" data-copy="{copy}">{match.group(1)}</div>'


def on_page_content(content, page, config, files):
    return BLOCK.sub(_with_copy_text, content)
